"""What `help` shows at the terminal: the keys of the game. One card's text (Deal, ``help 12``) and
one square's prices and rents (地产大亨, ``help 5``) are the games' words
(``words.deal_text.card_help``, ``words.board_text.square_text``).
"""

from __future__ import annotations

from words.i18n import t


def legend(game: str, lang: str) -> list[str]:
    """The keys of ``game``, one line each."""
    return t(lang, f"console.help.{game}").split("\n")
