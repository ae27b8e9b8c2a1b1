"""The pictures of each game behind one face (``PICTURES[game]``): the table everyone sees, and a
player's own picture when the game has one (the Deal hand; the board has none)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from render import board as render_board
from render import board_centre, deal_hand
from render import deal as render_deal

EVENT_LINES = board_centre.EVENT_LINES  # the last moves a table picture shows


@dataclass(frozen=True)
class GamePictures:
    # (public view, lang, names, ruleset, match clock, worth per seat, last log lines)
    table: Callable[[dict, str, dict, str, str | None, dict | None, list[str]], Image.Image]
    own: Callable[[dict, int, str], Image.Image] | None  # (the seat's view, seat, lang)


PICTURES: dict[str, GamePictures] = {
    "deal": GamePictures(
        table=lambda view, lang, names, ruleset, clock, worth, events: render_deal.render_table(
            view, lang, names, events),
        own=deal_hand.render_hand),
    "board": GamePictures(
        table=lambda view, lang, names, ruleset, clock, worth, events: render_board.render_board(
            view, lang, names, ruleset, clock, worth=worth, events=events),
        own=None),
}
