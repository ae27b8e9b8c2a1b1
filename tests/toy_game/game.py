""""Race to ten" declared once, and its part in each layer's registry: the engine's ``GAMES``, the
words (``WORDS``), the pictures (``PICTURES``), the console's kit (``KITS``) and the web page's
atlas (``PARTS``). ``registered()`` adds it to all of them for the length of a test."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from PIL import Image, ImageDraw

from bot.console.games import KITS, ConsoleKit
from bot.web.atlas import PARTS
from engine.core.game import Game
from engine.core.presentation import Presentation
from engine.core.values import TurnEnded, TurnStarted
from engine.games import GAMES
from render.games import PICTURES, GamePictures
from tests.toy_game import rules
from tests.toy_game.rules import TOY, Add, Added
from words.games import WORDS, GameWords

TOY_GAME = Game(
    rules=TOY,
    presentation=Presentation(name="toy", where=lambda decision: "table", hand_from_start=False,
                              redact=lambda event, viewer: event, worth=rules.valuation,
                              extras=lambda state, view, seat: []),
    choose=lambda state, seat: rules.legal_actions(state, seat)[-1],
    violations=lambda state: [] if state.count <= state.options.goal else ["past the goal"],
    turn_of=lambda state: state.turn_number,
    turn_ended=lambda event: event.seat if isinstance(event, TurnEnded) else None,
    turn_end_check=lambda state, seat: True,
    turn_cap=50,
    policies={"basic": lambda state, seat: rules.legal_actions(state, seat)[0]},
)


def _names(names: dict, seat: int) -> str:
    return names.get(seat, f"#{seat}")


def _event(event, lang: str, names: dict, ruleset: str, viewer) -> str:
    if isinstance(event, Added):
        return f"{_names(names, event.seat)} +{event.amount} = {event.count}"
    return type(event).__name__


TOY_WORDS = GameWords(
    table=lambda view, lang, names, ruleset: f"{view['count']} / {view['goal']}",
    private_lines=lambda view, seat, decisions, lang, names, ruleset: [f"{view['count']} / {view['goal']}"],
    action=lambda view, action, lang, names, ruleset: f"+{action.amount}" if isinstance(action, Add) else "end",
    events=lambda events, lang, names, ruleset, viewer: [_event(e, lang, names, ruleset, viewer) for e in events],
    error=lambda err, lang, names, ruleset: err.key,
    winners=lambda winners, lang, names: ", ".join(_names(names, s) for s in winners),
    own_screen="ch.btn.my_options",
    hand=lambda view, seat, lang: None,
    money=lambda amount, lang, ruleset: str(amount),
    prompt=lambda view, decision, lang, names, ruleset: f"{_names(names, decision.seat)}: +1 / +2?",
)


def _picture(view, lang, names, ruleset, clock, worth, events) -> Image.Image:
    img = Image.new("P", (120, 40), 0)
    ImageDraw.Draw(img).text((4, 12), f"{view['count']} / {view['goal']}", fill=1)
    return img


TOY_PICTURES = GamePictures(table=_picture, own=None)
TOY_KIT = ConsoleKit(
    order=lambda view, decision, actions: actions,
    label=TOY_WORDS.action, prompt=TOY_WORDS.prompt,
    extra_lines=lambda view, decision, keyed, lang, names, ruleset: [],
    standing=lambda p, lang, names, ruleset: _names(names, p["seat"]),
    number_help=lambda view, n, lang, names, ruleset: str(n),
    confirm=lambda view, action, label, lang: None,
    takeover="board.ui.takeover", game_over="board.ui.game_over", pile=False,
    routine=(TurnStarted, TurnEnded), key=lambda action, ruleset: str(getattr(action, "amount", "end")))


def _atlas(ruleset: str, lang: str) -> dict:
    return {"goal": rules.GOALS[ruleset]}


REGISTRIES = ((GAMES, TOY_GAME), (WORDS, TOY_WORDS), (PICTURES, TOY_PICTURES), (KITS, TOY_KIT), (PARTS, _atlas))


@contextlib.contextmanager
def registered() -> Iterator[Game]:
    """The toy game in every registry, taken out again afterwards."""
    for registry, entry in REGISTRIES:
        registry["toy"] = entry
    try:
        yield TOY_GAME
    finally:
        for registry, _ in REGISTRIES:
            registry.pop("toy", None)
