"""The result a group gets at the end: everyone ranked with why, the chart, what next."""

from __future__ import annotations

import io

import msgspec
from PIL import Image

from bot.chat.results import feats_line, result_screen
from engine.games import GAMES
from engine.service.updates import PublicView, Seat
from words.i18n import t
from words.results import board_ranking, deal_ranking

NAMES = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"}


def test_deal_ranks_the_winner_then_by_complete_sets_then_by_worth():
    board = {"players": [{"seat": 0, "complete_sets": 1, "bank_total": 9},
                         {"seat": 1, "complete_sets": 3, "bank_total": 2},
                         {"seat": 2, "complete_sets": 1, "bank_total": 4},
                         {"seat": 3, "complete_sets": 2, "bank_total": 0}]}
    lines = [line for _seat, line in deal_ranking(board, {0: 20, 1: 30, 2: 25, 3: 10}, [1], "en", NAMES, "standard")]
    assert lines == ["1. 🏆 Bob: complete sets 3 · bank 2M", "2. Di: complete sets 2 · bank 0M",
                     "3. Cy: complete sets 1 · bank 4M", "4. Ann: complete sets 1 · bank 9M"]


def test_board_ranks_those_still_in_by_assets_then_the_bankrupt_last_to_go_first():
    board = {"players": [{"seat": 0, "bankrupt": True}, {"seat": 1, "bankrupt": False},
                         {"seat": 2, "bankrupt": True}, {"seat": 3, "bankrupt": False}]}
    series = {0: [15000, 9000, 0, 0, 0], 1: [15000, 16000, 20000, 30000, 41000],
              2: [15000, 12000, 8000, 1000, 0], 3: [15000, 15000, 14000, 9000, 8000]}
    ranked = board_ranking(board, {0: 0, 1: 41000, 2: 0, 3: 8000}, [1], "zh-Hans", NAMES, "china", series)
    lines = [line for _seat, line in ranked]
    assert [line.split("：")[0] for line in lines] == ["1. 🏆 Bob", "2. Di", "3. Cy", "4. Ann"]
    assert "破产" in lines[3] and "41,000" in lines[0]


def _view(status: str = "over") -> PublicView:
    seats = [Seat("Ann", "tg:1", False, True), Seat("AI 1", "ai:1", True, False, level="ai")]
    rules = GAMES["deal"].rules
    board = rules.view(rules.new_game(2, None, 1), None)
    board["players"][0]["complete_sets"], board["players"][1]["complete_sets"] = 3, 1
    return PublicView(table=7, version=9, chat_key="tg:-1", game="deal", ruleset="standard", status=status,
                      seats=seats, board=board, turn=12, current=None, asks=[], choices=[], worth={0: 14, 1: 6},
                      events=[], notes=[], match_ends_at=None, winners=[0], messages={}, creator="tg:1",
                      options={}, min_players=2, max_players=5, own_from_start=True)


def test_the_result_has_the_winner_first_the_chart_and_what_next():
    screen = result_screen(_view(), "en", {0: [0, 5, 9, 14], 1: [0, 3, 4, 6]}, picture=b"table")
    lines = screen.text.split("\n")
    assert lines[0].startswith("🏁 ") and "Ann" in lines[0]
    assert lines[2].startswith("1. 🏆 Ann") and lines[3].startswith("2. AI 1")
    assert Image.open(io.BytesIO(screen.picture)).size == (900, 1200)  # the result picture, not the table
    assert [b.token for b in screen.buttons] == ["l:7:again", "l:7:stats", "l:7:n:deal", "l:7:n:board"]
    assert result_screen(_view(), "en", None, picture=b"table").picture == b"table"  # no log: the table


async def test_a_chart_that_cannot_be_drawn_leaves_the_result_with_the_tables_picture(caplog):
    """The net-worth series replays the game's log from the database; when that fails (the database
    blinked), the result still goes out, with the table as it ended for its picture."""
    from types import SimpleNamespace

    from bot.chat.channel import TableChannel

    async def broken(table):
        raise OSError("database unavailable")

    channel = TableChannel.__new__(TableChannel)
    channel.service = SimpleNamespace(seen=SimpleNamespace(story=broken))
    over = SimpleNamespace(over=True, table=7)
    assert await channel._story(over) is None
    assert "net-worth chart and achievements could not be worked out" in caplog.text
    assert await channel._story(SimpleNamespace(over=False, table=7)) is None  # before the end: none asked
    screen = result_screen(_view(), "en", None, picture=b"table")
    assert screen.picture == b"table" and screen.text.startswith("🏁 ")


def test_the_achievements_of_the_people_are_one_line_of_the_end_message():
    """Issue 48: the feats each seat earned, named (no mention: no ping storm) in one line; an AI
    seat's, and a seat the AI kept at the end, are left out; none earned: no line."""
    view = _view()
    seats = [Seat("Ann", "tg:1", False, True), Seat("AI 1", "ai:1", True, False), Seat("Bob", "tg:2", True, True)]
    view = msgspec.structs.replace(view, seats=seats)
    feats = {0: ["deal.hat_trick", "deal.ouch"], 1: ["deal.party"], 2: ["deal.vault"]}
    text = result_screen(view, "en", None, picture=b"table", feats=feats).text
    [line] = [line for line in text.splitlines() if line.startswith("🏅")]
    named = t("en", "end.feats_of", name="Ann", feats=f"{t('en', 'feat.deal.hat_trick')}, {t('en', 'feat.deal.ouch')}")
    assert line == t("en", "end.feats", list=named)
    assert feats_line(view, {1: ["deal.party"]}, "en") is None
    assert "🏅" not in result_screen(view, "en", None, picture=b"table").text
