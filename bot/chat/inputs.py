"""What users send, checked at the edge before anything reaches the service: button data, command
arguments, deep links and display names.

Everything is parsed strictly: ids and numbers are plain ASCII digits within range (``int()``
alone also reads "²" or "٣" and grows without bound), button data must match its exact shape and
carry the service's signature (``engine.service.tokens.sign``), and a press is only taken in the
chat its table, match or tournament belongs to. Display names keep who the user is but lose what
would disturb a screen: control characters and bidirectional overrides, and length beyond a cap.
Anything else gets a clear message from the adapter, never an exception.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

# button data other than moves: signed by the service
SIGNED = ("l:", "h:", "b:", "e:", "s:", "T:", "p:", "t:", "v:", "m:", "a:", "R:", "Z:", "A:")
NEW_GAME = "n:"  # the unsigned "choose a game" button of a bare /newgame (``n:<game>``)
NAME_LIMIT = 32
MAX_ID = 2**31 - 1  # ids are database integers
_DIGITS = re.compile(r"[0-9]{1,10}")
# button data, unsigned (the signature was checked first): what each press may carry
_SHAPES = {
    # ``ai:<level>``: an AI seat of a level; ``o:<code>``: the creator switches a rule option (``engine.options``);
    # ``m:<minutes>``: the creator makes the game a timed match of that length; ``p:<hours>``: a slow
    # game of that pace (engine/service/pace.py)
    "l": re.compile(r"l:(?P<table>[0-9]{1,10}):"
                    r"(?P<op>join|leave|ai(?::(?:basic|strong))?|noai|start|cancel|o:[a-z0-9]{1,8}|m:[0-9]{1,3}"
                    r"|p:[0-9]{1,2}"
                    r"|again|stats|n:[a-z]{1,8})"),  # after the end: a rematch, the standings, a new game
    "h": re.compile(r"h:(?P<table>[0-9]{1,10})(?::(?P<seat>[0-9]))?"),
    "b": re.compile(r"b:(?P<table>[0-9]{1,10})"),
    "p": re.compile(r"p:(?P<table>[0-9]{1,10})"),  # a Deal table's discard pile (D-18)
    "a": re.compile(r"a:(?P<table>[0-9]{1,10})"),  # an amount to type (the board's own bid, B-04)
    # a step of a player's choices (``bot.chat.steps``): the step's id and the page of it
    "m": re.compile(r"m:(?P<table>[0-9]{1,10}):(?P<node>r|[0-9a-f]{10}):(?P<page>[0-9]{1,2})"),
    # the trade builder (``bot.chat.trade_builder``: its ops)
    "t": re.compile(r"t:(?P<table>[0-9]{1,10}):"
                    r"(?P<op>n|k[0-9]{1,6}|p[0-9]|[my][0-9]{1,2}|c[pm][0-9]{1,7}|z|j|i|x[ytm]|s|q)"),
    # a select menu of the trade builder (the partner, my deeds, their deeds): a kind of its own, so
    # that no button's id can ever be read as a menu's (Discord runs every item whose id matches)
    "v": re.compile(r"v:(?P<table>[0-9]{1,10}):(?P<menu>[pmy])"),
    "e": re.compile(r"e:(?P<table>[0-9]{1,10}):(?P<answer>[yn])"),
    "s": re.compile(r"s:(?P<schedule>[0-9]{1,10})"),
    "T": re.compile(r"T:(?P<tournament>[0-9]{1,10}):(?P<op>[swj])(?::(?P<team>[0-9]{1,10}))?"),
    # a leaderboard's page (``bot.chat.leaderboards``): the game, the season's or all time, the page
    "R": re.compile(r"R:(?P<game>[a-z]{1,8}):(?P<scope>[sa]):(?P<page>[0-9]{1,3})"),
    "Z": re.compile(r"Z:(?P<length>week|month|quarter|off)"),  # how long the chat's seasons last
    "A": re.compile(r"A:(?P<table>[0-9]{1,10})"),  # the table inside the platform (Discord's Activity)
}


def number(text: str | None, low: int = 0, high: int = MAX_ID) -> int | None:
    """A whole number typed or carried in plain ASCII digits within [low, high]; else None."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


class PressKind(StrEnum):
    """What a button other than a move is for: the letter its data starts with."""

    LOBBY = "l"  # join, leave, AI seats, a rule option, start, cancel
    OWN = "h"  # my hand, my options (a player's own screen)
    SEAT_BACK = "b"  # take my seat back from the AI
    PILE = "p"  # the Deal discard pile (D-18)
    STEP = "m"  # the next step of a player's choices (whose, which card)
    AMOUNT = "a"  # an amount to type instead of the offered steps (the board's own bid)
    TRADE = "t"  # the trade builder (B-15)
    TRADE_MENU = "v"  # a select menu of the trade builder (Discord)
    END = "e"  # the answer to /endgame's question
    SIGN_UP = "s"  # sign up for a scheduled match
    TOURNAMENT = "T"  # a tournament's sign-up and team buttons
    LEADERBOARD = "R"  # a page of a chat's leaderboard (/top)
    SEASON_LENGTH = "Z"  # an admin's choice of how long the chat's seasons last (/season)
    ACTIVITY = "A"  # open the table inside the platform (Discord's Activity, bot/discord_app/activity.py)


@dataclass(frozen=True)
class Press:
    """A button's data, parsed: its kind (the letter before the colon) and its fields."""

    kind: PressKind
    fields: dict

    def id(self, name: str) -> int | None:
        value = self.fields.get(name)
        return None if value is None else number(value)


def parse_press(data: str) -> Press | None:
    """The fields of (unsigned) button data of a known shape, with ids in range; None otherwise."""
    shape = _SHAPES.get(data[:1]) if isinstance(data, str) else None
    match = shape.fullmatch(data) if shape is not None else None
    if match is None:
        return None
    fields = {k: v for k, v in match.groupdict().items() if v is not None}
    if any(number(v) is None for k, v in fields.items() if k in ("table", "schedule", "tournament", "team")):
        return None
    return Press(PressKind(data[0]), fields)


def clean_name(name: str | None, fallback: str = "?") -> str:
    """A display name fit for screens: no control or format characters (bidirectional overrides,
    zero-width joiners), spaces collapsed, at most ``NAME_LIMIT`` characters."""
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in (name or ""))
    text = " ".join(text.split())
    if len(text) > NAME_LIMIT:
        text = text[:NAME_LIMIT - 1] + "…"
    return text or fallback
