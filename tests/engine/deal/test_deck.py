"""data/deal/deck.json: the 106 cards of docs/reference.md, loaded and validated."""

from __future__ import annotations

import copy
from collections import Counter

from engine.deal.cards import (
    CARDS,
    COLOURS,
    LANGS,
    build_deck,
    read_deck_document,
    validate_deck_document,
)


def test_the_shipped_deck_is_valid():
    assert validate_deck_document(read_deck_document()) == []


def test_106_cards_by_kind():
    kinds = Counter(c.kind for c in CARDS)
    assert len(CARDS) == 106
    assert kinds == {"money": 20, "action": 34, "rent": 13, "property": 28, "wild": 11}


def test_money_cards():
    assert Counter(c.value for c in CARDS if c.kind == "money") == {10: 1, 5: 2, 4: 3, 3: 3, 2: 5, 1: 6}


def test_action_cards_counts_and_values():
    got = Counter((c.action, c.value) for c in CARDS if c.kind == "action")
    assert got == {
        ("deal_breaker", 5): 2, ("just_say_no", 4): 3, ("sly_deal", 3): 3, ("forced_deal", 3): 3,
        ("debt_collector", 3): 3, ("birthday", 2): 3, ("pass_go", 1): 10, ("house", 3): 3, ("hotel", 4): 2,
        ("double_rent", 1): 2,
    }


def test_rent_cards():
    got = Counter((c.colours, c.value) for c in CARDS if c.kind == "rent")
    assert got == {
        (("light_blue", "brown"), 1): 2, (("pink", "orange"), 1): 2, (("red", "yellow"), 1): 2,
        (("dark_blue", "green"), 1): 2, (("railroad", "utility"), 1): 2, ((), 3): 3,
    }


def test_properties_and_rent_tables():
    expected = {  # colour: (cards, value, set size, rent)
        "brown": (2, 1, 2, (1, 2)), "light_blue": (3, 1, 3, (1, 2, 3)), "pink": (3, 2, 3, (1, 2, 4)),
        "orange": (3, 2, 3, (1, 3, 5)), "red": (3, 3, 3, (2, 3, 6)), "yellow": (3, 3, 3, (2, 4, 6)),
        "green": (3, 4, 3, (2, 4, 7)), "dark_blue": (2, 4, 2, (3, 8)), "railroad": (4, 2, 4, (1, 2, 3, 4)),
        "utility": (2, 2, 2, (1, 2)),
    }
    for colour, (n, value, size, rent) in expected.items():
        cards = [c for c in CARDS if c.kind == "property" and c.colours == (colour,)]
        assert len(cards) == n and {c.value for c in cards} == {value}
        assert COLOURS[colour].set_size == size and COLOURS[colour].rent == rent


def test_wildcards():
    got = Counter((c.colours, c.value) for c in CARDS if c.kind == "wild")
    assert got == {
        (("dark_blue", "green"), 4): 1, (("green", "railroad"), 4): 1, (("light_blue", "railroad"), 4): 1,
        (("railroad", "utility"), 2): 1, (("light_blue", "brown"), 1): 1, (("pink", "orange"), 2): 2,
        (("red", "yellow"), 3): 2, ((), 0): 2,
    }


def test_every_card_and_colour_is_named_in_three_languages():
    for c in CARDS:
        assert all(c.names[lang].strip() for lang in LANGS), c.key
    for col in COLOURS.values():
        assert all(col.names[lang].strip() for lang in LANGS), col.key


def test_validation_catches_broken_documents():
    doc = read_deck_document()
    bad = copy.deepcopy(doc)
    bad["cards"][0]["count"] += 1
    assert any("107" in p for p in validate_deck_document(bad))
    bad = copy.deepcopy(doc)
    next(c for c in bad["cards"] if c["key"] == "wild_any")["value"] = 1
    assert any("D-06" in p for p in validate_deck_document(bad))
    bad = copy.deepcopy(doc)
    bad["cards"][-1]["names"].pop("zh-Hant")
    assert any("zh-Hant" in p for p in validate_deck_document(bad))
    bad = copy.deepcopy(doc)
    bad["colours"]["red"]["rent"] = [2, 3]
    assert any("red" in p for p in validate_deck_document(bad))


def test_the_other_printing_can_be_loaded_as_data():
    # some printed lists give Forced Deal x4 and Hotel x3 (docs/reference.md): only counts change
    doc = copy.deepcopy(read_deck_document())
    for c in doc["cards"]:
        if c["key"] == "forced_deal":
            c["count"] = 4
        if c["key"] == "hotel":
            c["count"] = 3
    doc["total"] = 108
    deck = build_deck(doc)
    assert len(deck.cards) == 108
