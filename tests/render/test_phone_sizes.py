"""The table pictures read on a phone (issue 46).

In the chat bubble a photo shows ~330 px wide, opened full screen ~390 px. Every string a picture
draws is recorded by its pen with its font size and layer (``render.common.Pen.sizes``): the
*glance* layer (whose turn, the money, what just happened) must show at 11 px or more in the
bubble, every *detail* (names, prices, marks, rents, cards) at 9 px or more full screen. A game's
table picture and a player's hand keep one size, and no two seats share an owner's mark.
"""

from __future__ import annotations

import pytest

from engine.board import BOARD
from engine.board.rules import valuation
from engine.deal import DEAL
from engine.deal.ai import choose as deal_choose
from render import board as render_board
from render import deal as render_deal
from render import deal_hand
from render.common import initials
from tests.render.test_render_deal import calm_game, play
from tools import golden
from words.deal_text import player_name

LANGS = ["zh-Hans", "zh-Hant", "en"]
BUBBLE, FULL = 330, 390  # px: how wide a photo shows in the chat bubble and full screen
NAMES = {0: "Alice", 1: "AI 1", 2: "陳大文", 3: "张伟", 4: "Al"}
DEAL_EVENTS = {"en": ["Alice played Birthday", "AI 1 paid Alice 2M", "张伟 played Pass Go: two more cards"],
               "zh-Hans": ["Alice 打出了我的生日", "AI 1 付了 2M 给 Alice", "张伟 打出了通行证：再抽两张"],
               "zh-Hant": ["Alice 打出了我的生日", "AI 1 付了 2M 給 Alice", "张伟 打出了通行證：再抽兩張"]}


def _board_pens(lang: str):
    """The board at several seeded positions of both rule sets, mid-game: (view, current name, pen)."""
    events = golden.EVENTS["en" if lang == "en" else "zh-Hans"]
    for ruleset, seed, turns in (("china", 4, 60), ("classic", 7, 120), ("classic", 3, 30), ("china", 9, 200)):
        state = golden.snapshot("board", ruleset, seed, turns)
        view = BOARD.view(state, None)
        assert view["stage"] != "over"
        pen = render_board.compose(view, lang, NAMES, ruleset, "05:00", valuation(state), events)
        yield view, NAMES[view["current"]], pen


def _deal_pens(lang: str):
    """The Deal table of two to five players, mid-turn (one with demands open, one with nine groups
    on a player's table), with the last moves: (view, current name, pen)."""
    states = [calm_game(players, ruleset, seed, actions) for players, ruleset, seed, actions in
              ((2, "standard", 3, 30), (4, "standard", 5, 60), (5, "tournament", 7, 90), (3, "standard", 11, 150))]
    states.append(play(4, "standard", 1, 80))
    assert states[-1].pending
    for state in states:
        view = DEAL.view(state, None)
        pen = render_deal.table_pen(view, lang, NAMES, DEAL_EVENTS[lang])
        yield view, player_name(view["current"], lang, NAMES), pen


PENS = {"board": _board_pens, "deal": _deal_pens}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(PENS))
def test_the_glance_layer_says_whose_turn_it_is(game, lang):
    """The current player's name is in the glance layer, large enough to read in the bubble."""
    for _, current, pen in PENS[game](lang):
        width = pen.image.width
        glance = [(s, round(size * BUBBLE / width, 1)) for s, size, layer in pen.sizes if layer == "glance"]
        assert any(current in s and px >= 11 for s, px in glance), f"{current!r} is not in the glance layer: {glance}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(PENS))
def test_glance_type_is_11px_in_the_chat_bubble(game, lang):
    for _, _, pen in PENS[game](lang):
        width = pen.image.width
        glance = [(s, size) for s, size, layer in pen.sizes if layer == "glance"]
        small = [(s, size) for s, size in glance if size * BUBBLE / width < 11]
        assert glance and not small, f"glance text under 11 px at {BUBBLE} px wide: {small[:5] or 'none drawn'}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(PENS))
def test_detail_type_is_9px_full_screen(game, lang):
    for _, _, pen in PENS[game](lang):
        width = pen.image.width
        small = [(s, size) for s, size, layer in pen.sizes if layer != "glance" and size * FULL / width < 9]
        assert not small, f"details under 9 px at {FULL} px wide: {small[:5]}"


def test_the_deal_table_keeps_one_size_through_a_game():
    """Whatever happens (groups laid down, sets completed, demands open), the table of a game of
    four players is as large; the chat message does not jump."""
    sizes = set()
    for seed in (2, 6):
        state = DEAL.new_game(4, "standard", seed)
        for k in range(400):
            if state.phase == "over":
                break
            if k % 10 == 0:
                view = DEAL.view(state, None)
                sizes.add(render_deal.render_table(view, "en", NAMES).size)
                sizes.add(render_deal.render_table(view, "zh-Hant", NAMES).size)
            seat = DEAL.waiting_for(state)[0].seat
            DEAL.apply(state, seat, deal_choose(state, seat))
        sizes.add(render_deal.render_table(DEAL.view(state, None), "zh-Hans", NAMES).size)  # at its end
    assert len(sizes) == 1, sorted(sizes)


@pytest.mark.parametrize("lang", LANGS)
def test_a_hand_keeps_one_size_whatever_it_holds(lang):
    state = play(2, "standard", 4, 6)
    view = DEAL.view(state, 0)
    pool = [c for c in range(106) if c not in view["players"][0]["hand"]]
    sizes = {}
    for count in (0, 1, 5, 8, 12):
        view["players"][0]["hand"] = pool[:count]
        sizes[count] = deal_hand.render_hand(view, 0, lang).size
    assert len(set(sizes.values())) == 1, sizes


def _look_alike(mark: str) -> str:
    return mark.translate(str.maketrans({"l": "1", "I": "1", "O": "0"}))


@pytest.mark.parametrize("names", [{0: "Alice", 1: "AI 1"}, {0: "Al", 1: "Alan"},
                                   {0: "Ann", 1: "AI 1", 2: "AI 2", 3: "AI 3"},
                                   {0: "张伟", 1: "张三", 2: "电脑1", 3: "电脑2"},
                                   {0: "Alice", 1: "AI 1", 2: "Al", 3: "Alan"}])
def test_owner_marks_are_one_character_and_never_alike(names):
    """A seat's mark on its tokens and owned squares is one letter or number of its own: never two
    seats with marks that share it or look alike ("Al" and "A1")."""
    marks = initials(names, "en")
    assert all(len(m) == 1 for m in marks.values()), marks
    assert len({_look_alike(m) for m in marks.values()}) == len(marks), marks
    view = BOARD.view(golden.snapshot("board", "classic", 3, 80), None)
    view["players"] = view["players"][:len(names)]
    owners = {sq["owner"] for sq in view["squares"] if sq["owner"] >= 0}
    for k, sq in enumerate(sq for sq in view["squares"] if sq["owner"] >= 0):
        sq["owner"] = k % len(names)  # every seat owns squares
    assert owners
    texts = render_board.compose(view, "en", names, "classic").texts
    for mark in marks.values():
        assert mark in texts
