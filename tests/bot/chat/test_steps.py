"""Choices in steps (``bot.chat.steps``): the tree of a player's moves shown one short keyboard at a
time, and every keyboard of seeded games, in the three languages, fit for a phone's buttons."""

from __future__ import annotations

import pytest

from bot.chat.steps import FULL, HALF, PER_STEP, ROOT, Choice, find, keys, node_id, walk, width
from bot.telegram_app.messenger import keyboard
from engine.deal.model import PlayForcedDeal
from engine.games import GAMES
from words.games import WORDS
from words.i18n import LANGS

NAMES = {0: "Alice", 1: "AI 1", 2: "Bob", 3: "Carol", 4: "Dan"}


def _choices(*paths: tuple[str, ...]) -> list[Choice]:
    return [Choice(p, f"tok{i}") for i, p in enumerate(paths)]


def test_a_step_shows_its_children_and_a_lone_move_is_one_button():
    choices = _choices(("End turn",), ("1 Sly Deal", "Bob", "Park Place"), ("1 Sly Deal", "Bob", "Boardwalk"),
                       ("1 Sly Deal", "Bank it (3M)"), ("2 Pass Go", "Play: draw 2"))
    first = keys(choices, "en")
    assert [k.label for k in first] == ["End turn", "1 Sly Deal ›", "2 Pass Go · Play: draw 2"]
    assert first[0].token == "tok0" and first[2].token == "tok4"  # nothing to pick: one tap
    card = find(choices, first[1].node)
    assert card == ("1 Sly Deal",)
    inside = keys(choices, "en", card)
    assert [k.label for k in inside] == ["Bob ›", "Bank it (3M)", "◂ Back"]
    assert inside[-1].node == ROOT
    bob = keys(choices, "en", find(choices, inside[0].node))
    assert [(k.label, k.token) for k in bob[:2]] == [("Park Place", "tok1"), ("Boardwalk", "tok2")]
    assert find(choices, bob[-1].node) == ("1 Sly Deal",)  # Back goes one step up


def test_a_step_with_one_way_on_is_passed_through_and_back_skips_it():
    choices = _choices(("Build…", "Red", "Street A"), ("Build…", "Red", "Street B"), ("Roll",))
    build = keys(choices, "en")[0]
    assert find(choices, build.node) == ("Build…", "Red")  # "Red" is the only way on: opened at once
    shown = keys(choices, "en", ("Build…", "Red"))
    assert [k.label for k in shown] == ["Street A", "Street B", "◂ Back"]
    assert shown[-1].node == ROOT


def test_a_long_step_is_shown_a_page_at_a_time_and_more_leads_round():
    choices = _choices(*[("Give…", f"Card {i}") for i in range(15)], ("End turn",))
    node = keys(choices, "en")[0].node
    pages = []
    page = 0
    for _ in range(4):
        shown = keys(choices, "en", find(choices, node), page)
        assert len(shown) <= PER_STEP
        assert shown[-1].label == "◂ Back" and shown[-2].label == "More ▸"
        pages.append([k.label for k in shown[:-2]])
        page = shown[-2].page
    assert pages[3] == pages[0]  # the last page's More leads back to the first
    assert sorted(sum(pages[:3], [])) == sorted(f"Card {i}" for i in range(15))


def test_a_step_that_is_gone_is_not_found():
    choices = _choices(("1 Sly Deal", "Bob", "Park Place"), ("1 Sly Deal", "Bob", "Boardwalk"))
    assert find(choices, node_id(("1 Forced Deal",))) is None
    assert find(choices, ROOT) == ()


def test_a_wide_label_gets_a_telegram_row_of_its_own():
    labels = ["End turn", "3 Wild: Light Blue/Railroad · Discard it", "1 Sly Deal ›", "2 Pass Go ›"]
    assert width(labels[1]) > HALF
    rows = keyboard([(label, f"{i}") for i, label in enumerate(labels)]).inline_keyboard
    assert [[b.text for b in row] for row in rows] == [["End turn"], [labels[1]], ["1 Sly Deal ›", "2 Pass Go ›"]]
    assert width("强制交易：用你的多功能物业") == 26


def _seeded(game: str, players: int, seed: int, plies: int):
    """The states of a game the AI plays from a seed, each with the seats that may act in it."""
    g = GAMES[game]
    state = g.rules.new_game(players, None, seed)
    for _ in range(plies):
        waiting = g.rules.waiting_for(state)
        if not waiting:
            return
        yield state
        seat = waiting[0].seat
        g.rules.apply(state, seat, g.choose_listed(state, seat))


@pytest.mark.slow
@pytest.mark.parametrize("game, players, seed, plies", [("deal", 2, 1, 300), ("deal", 4, 2, 300),
                                                         ("deal", 5, 3, 200), ("board", 3, 4, 300)])
def test_every_keyboard_of_a_seeded_game_fits_a_phone_in_every_language(game, players, seed, plies):
    """Every step of every seat's choices, in zh-Hans, zh-Hant and English: no label wider than a
    button on a row of its own shows whole, no two buttons of a keyboard read the same, a step holds
    at most ``PER_STEP`` buttons, and a Forced Deal is three steps from the hand (four when one list
    of cards to pick from runs over a page)."""
    rules = GAMES[game].rules
    keyboards = forced = 0
    for state in _seeded(game, players, seed, plies):
        for seat in range(players):
            actions = rules.legal_actions(state, seat)
            if not actions:
                continue
            view = rules.view(state, seat)
            for lang in LANGS:
                paths: dict[tuple[str, ...], Choice] = {}
                for i, a in enumerate(actions):
                    path = tuple(WORDS[game].steps(view, a, lang, NAMES, "china" if game == "board" else None))
                    paths.setdefault(path, Choice(path, str(i)))
                choices = list(paths.values())
                depth_of: dict[str, int] = {}
                paged = False
                for prefix, _page, shown, depth in walk(choices, lang):
                    assert prefix is not None, "every step button leads to a step of these choices"
                    keyboards += 1
                    labels = [k.label for k in shown]
                    assert len(labels) == len(set(labels)), labels
                    assert all(width(label) <= FULL for label in labels), [x for x in labels if width(x) > FULL]
                    assert not prefix or len(shown) <= PER_STEP
                    paged |= any(k.page for k in shown)
                    for k in shown:
                        if k.token is not None:
                            depth_of.setdefault(k.token, depth)
                assert set(depth_of) == {c.token for c in choices}, "every move is reached"
                for c in choices:
                    if isinstance(actions[int(c.token)], PlayForcedDeal):
                        forced += 1
                        assert depth_of[c.token] <= (4 if paged else 3)
    assert keyboards > 500
    assert game != "deal" or players == 2 or forced > 0
