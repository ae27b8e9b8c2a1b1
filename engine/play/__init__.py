"""Games the machine plays, for every registered game alike (pure, like the rules): AI-only games
and their figures (``simulation``), the ``strong`` level's search (``search``) over games played out
from a copy (``rollout``), and a finished game's story in numbers (``history``)."""
