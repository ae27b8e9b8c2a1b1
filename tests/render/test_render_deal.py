"""Pictures of the Deal table and of a hand (issue 5): every rule set and language renders within
its size, with a glyph for every character drawn, and the public picture cannot show a hand."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

from engine.deal import DEAL
from engine.deal.ai import choose
from engine.deal.cards import CARDS, N_CARDS
from render.deal import WIDTH, render_table, texts_for_table
from render.deal_cards import effect_text
from render.deal_hand import render_discard, render_hand, texts_for_discard, texts_for_hand
from render.fonts import missing_glyphs
from render.png import png_bytes
from words.deal_text import card_name
from words.i18n import LANGS, t

RULESETS = ("standard", "tournament")
NAMES = {0: "Alice", 1: "小明", 2: "陳大文", 3: "Zoë 🎲", 4: "🎲🎲"}  # the last one has no drawable character


def play(players: int, ruleset: str, seed: int, actions: int):
    """A game after ``actions`` AI moves (fewer if it ends first)."""
    state = DEAL.new_game(players, ruleset, seed)
    for _ in range(actions):
        if state.phase == "over":
            break
        seat = DEAL.waiting_for(state)[0].seat
        DEAL.apply(state, seat, choose(state, seat))
    return state


def calm_game(players: int, ruleset: str, seed: int, actions: int):
    """A game in the middle of a turn: play phase, no demand open, properties on the table."""
    for s in range(seed, seed + 50):
        state = play(players, ruleset, s, actions)
        for _ in range(200):
            if state.phase == "over" or (state.phase == "play" and not state.pending):
                break
            seat = DEAL.waiting_for(state)[0].seat
            DEAL.apply(state, seat, choose(state, seat))
        if state.phase == "play" and not state.pending and any(p.groups for p in state.players):
            return state
    raise AssertionError("no calm mid-game state found")


def no_missing(texts: list[str], lang: str) -> set[str]:
    assert texts
    return missing_glyphs("".join(texts), lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("players", "actions"), [(2, 15), (4, 60), (5, 120), (3, 400)])
def test_table_and_hand_render_in_every_language_without_missing_glyphs(ruleset, lang, players, actions):
    state = play(players, ruleset, 11 + players, actions)
    public = DEAL.view(state, None)
    table = render_table(public, lang, NAMES)
    assert table.width == WIDTH and 300 <= table.height <= 1300
    assert no_missing(texts_for_table(public, lang, NAMES), lang) == set()
    for seat in range(players):
        own = DEAL.view(state, seat)
        hand = render_hand(own, seat, lang)
        assert 300 <= hand.width <= WIDTH and 200 <= hand.height <= 1000
        assert no_missing(texts_for_hand(own, seat, lang), lang) == set()
        # a seat's own view also draws as a table (its hand is simply not on it)
        assert render_table(own, lang, NAMES).size == table.size


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_face_has_every_glyph(lang):
    view = DEAL.view(DEAL.new_game(2, "standard", 1), 0)
    view["players"][0]["hand"] = list(range(N_CARDS))  # a made-up view holding every card once
    assert no_missing(texts_for_hand(view, 0, lang), lang) == set()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_public_table_picture_is_the_same_whatever_the_hands_hold(ruleset):
    state = calm_game(4, ruleset, 3, 50)
    before = render_table(DEAL.view(state, None), "zh-Hans", NAMES)
    hands = [list(p.hand) for p in state.players]
    pool = [c for h in hands for c in h] + list(state.draw_pile)
    random.Random(5).shuffle(pool)
    for p in state.players:
        p.hand, pool = pool[:len(p.hand)], pool[len(p.hand):]
    state.draw_pile = pool
    assert [p.hand for p in state.players] != hands
    after = render_table(DEAL.view(state, None), "zh-Hans", NAMES)
    assert before.size == after.size
    assert ImageChops.difference(before, after).getbbox() is None


@pytest.mark.parametrize("lang", LANGS)
def test_hand_picture_numbers_each_card_like_the_buttons(lang):
    state = calm_game(3, "standard", 8, 40)
    for seat in range(3):
        view = DEAL.view(state, seat)
        n = len(view["players"][seat]["hand"])
        numbers = [s for s in texts_for_hand(view, seat, lang) if s.isdigit()]
        assert numbers == [str(i) for i in range(1, n + 1)]


def test_hand_picture_needs_the_seats_own_view():
    state = play(3, "standard", 2, 10)
    with pytest.raises(ValueError):
        render_hand(DEAL.view(state, None), 0, "en")
    with pytest.raises(ValueError):
        render_hand(DEAL.view(state, 1), 0, "en")


def test_pending_demands_and_turn_are_written_on_the_table():
    for seed in range(1, 40):
        state = play(4, "standard", seed, 80)
        if state.pending:
            break
    view = DEAL.view(state, None)
    for lang in LANGS:
        texts = texts_for_table(view, lang, NAMES)
        prefix = t(lang, "deal.ui.pending").split("{")[0]
        assert sum(s.startswith(prefix) for s in texts) == len(view["pending"]) > 0
        assert any(s.startswith(t(lang, "deal.ui.header").split("{")[0]) for s in texts)


def test_player_names_without_drawable_characters_fall_back_to_seat_names():
    state = play(5, "standard", 4, 20)
    texts = texts_for_table(DEAL.view(state, None), "en", NAMES)
    assert "Zoë" in texts and "Player 5" in texts
    assert not any("🎲" in s for s in texts)


BUDGET = 60 * 1024  # bytes of the table picture a turn sends


@pytest.mark.parametrize("lang", LANGS)
def test_action_and_rent_cards_in_a_hand_say_what_they_do(lang):
    view = DEAL.view(DEAL.new_game(2, "standard", 1), 0)
    kinds = {}
    for card in CARDS:
        kinds.setdefault(card.key, card)
    cards = [c.id for c in kinds.values() if c.kind in ("action", "rent")]
    texts = ""
    for k in range(0, len(cards), 12):  # hands of up to twelve cards (more show smaller, five a row)
        view["players"][0]["hand"] = cards[k:k + 12]
        texts += "".join(texts_for_hand(view, 0, lang))
    for c in kinds.values():
        if c.kind == "action":
            key = f"deal.effect.{c.action}"
        elif c.kind == "rent":
            key = "deal.effect.rent_two" if c.colours else "deal.effect.rent_any"
        else:
            assert effect_text(c.id, lang) == ""
            continue
        assert effect_text(c.id, lang) == t(lang, key) and "deal.effect" not in t(lang, key)
        assert t(lang, key) in texts.replace("\n", "") or all(part in texts for part in t(lang, key).split())


@pytest.mark.parametrize("lang", LANGS)
def test_every_effect_line_is_drawn_whole_in_a_hand_and_in_the_discard_pile(lang):
    """Not cut short with "…": a two-colour rent card's colour rows leave one line above the value
    disc, so its effect goes on beside the disc (issue 18: cards say what they do)."""
    view = DEAL.view(DEAL.new_game(2, "standard", 1), 0)
    kinds = {}
    for card in CARDS:
        kinds.setdefault(card.key, card)
    for c in kinds.values():
        effect = effect_text(c.id, lang)
        if not effect:
            continue
        view["players"][0]["hand"] = [c.id]
        for texts in (texts_for_hand(view, 0, lang), texts_for_discard([c.id], lang)):
            assert not [s for s in texts if s.endswith("…")], (c.key, texts)
            assert effect.replace(" ", "") in "".join(texts).replace(" ", ""), (c.key, texts)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("lang", LANGS)
def test_table_picture_stays_within_its_byte_budget(ruleset, lang):
    for players, actions in ((2, 15), (4, 60), (5, 120)):
        state = play(players, ruleset, 11 + players, actions)
        img = render_table(DEAL.view(state, None), lang, NAMES)
        assert img.mode == "P"
        assert len(png_bytes(img)) <= BUDGET


@pytest.mark.parametrize("lang", LANGS)
def test_hands_are_paletted_pictures_that_look_like_their_full_colour_drawing(lang):
    """A hand (and the discard pile) is written as an 8-bit PNG on the table's palette: every card
    face keeps its colours (under half a percent of the pixels off by more
    than a faint anti-aliasing shade) and the PNG is smaller than the full-colour one."""
    from render.deal_hand import _draw_hand

    view = DEAL.view(DEAL.new_game(2, "standard", 1), 0)
    view["players"][0]["hand"] = list(range(N_CARDS))
    drawn = _draw_hand(view, 0, lang).image
    hand = render_hand(view, 0, lang)
    assert hand.mode == "P" and hand.size == drawn.size
    off = ImageChops.difference(drawn, hand.convert("RGB")).convert("L").point(lambda v: 255 if v > 40 else 0)
    assert sum(off.histogram()[255:]) < 0.005 * hand.width * hand.height
    assert len(png_bytes(hand)) < 0.6 * len(png_bytes(drawn))
    assert render_discard(list(range(10)), lang).mode == "P"


@pytest.mark.parametrize("lang", LANGS)
def test_D18_discard_pile_picture_shows_the_pile_newest_first(lang):
    state = play(4, "tournament", 6, 40)
    current = DEAL.view(state, None)["current"]
    assert DEAL.view(state, None)["discard"] is None  # the group sees only the top card
    cards = DEAL.view(state, current)["discard"]
    assert cards
    texts = texts_for_discard(cards, lang)
    assert texts[0] == t(lang, "deal.ui.discard_view", count=len(cards))
    names = [s for s in texts if s in {card_name(c, lang) for c in cards}]
    assert names[0] == card_name(cards[-1], lang)  # the top of the pile first
    assert no_missing(texts, lang) == set()
    img = render_discard(cards, lang)
    assert img.width <= WIDTH
    empty = texts_for_discard([], lang)
    assert t(lang, "deal.ui.empty") in empty


def test_the_png_of_every_table_of_a_game_is_the_picture_drawn():
    """Each panel's rows are deflated once for what it shows (render/png.py): move after move the
    PNG decodes to the table drawn, panels kept or not, and most PNGs reuse some."""
    import io

    from PIL import Image

    from render import png

    state = DEAL.new_game(4, "standard", 12)
    reused = 0
    for k in range(240):
        if state.phase == "over":
            break
        if k % 3 == 0:
            img = render_table(DEAL.view(state, None), "en", NAMES, [f"move {k}"])
            kept = sum(1 for start, stop, key in img.info["static_rows"]
                       if (key, img.width, start, stop, stop == img.height) in png._STATIC)
            back = Image.open(io.BytesIO(png_bytes(img)))
            back.load()
            assert back.tobytes() == img.tobytes(), f"move {k}"
            reused += kept > 0
        seat = DEAL.waiting_for(state)[0].seat
        DEAL.apply(state, seat, choose(state, seat))
    assert reused > 20
