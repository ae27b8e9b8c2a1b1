"""The 106-card Deal deck, loaded once from ``data/deal/deck.json`` and checked.

Card ids are positions in the expanded deck (0…105). The rules look cards up in flat tuples
indexed by id (``VALUE[c]``, ``KIND[c]``) because they do so on every action; the JSON stays the
single source of what the deck holds, with names in zh-Hans, zh-Hant and en.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import NamedTuple

LANGS = ("zh-Hans", "zh-Hant", "en")
KINDS = ("money", "action", "rent", "property", "wild")
ACTIONS = (
    "deal_breaker", "just_say_no", "sly_deal", "forced_deal", "debt_collector",
    "birthday", "pass_go", "house", "hotel", "double_rent",
)


class Colour(NamedTuple):
    key: str
    set_size: int
    rent: tuple[int, ...]
    buildable: bool
    names: dict[str, str]


class Card(NamedTuple):
    id: int
    key: str  # identical cards share a key (the ten Pass Go cards are all "pass_go")
    kind: str
    action: str | None
    value: int
    colours: tuple[str, ...]  # property: (c,); two-colour wild/rent: (a, b); multicolour wild and wild rent: ()
    names: dict[str, str]


class Deck(NamedTuple):
    colours: dict[str, Colour]
    cards: tuple[Card, ...]


def read_deck_document(text: str | None = None) -> dict:
    if text is None:
        text = files("data").joinpath("deal/deck.json").read_text(encoding="utf-8")
    return json.loads(text)


def validate_deck_document(doc: dict) -> list[str]:
    """Every problem found in a deck document; empty when it is sound."""
    problems: list[str] = []
    colours = doc.get("colours", {})
    for key, col in colours.items():
        if len(col["rent"]) != col["set_size"]:
            problems.append(f"colour {key}: {len(col['rent'])} rent steps for a set of {col['set_size']}")
        if col["rent"] != sorted(col["rent"]):
            problems.append(f"colour {key}: rent must not fall as the set grows")
        for lang in LANGS:
            if not col["names"].get(lang):
                problems.append(f"colour {key}: no {lang} name")
    total = 0
    keys = set()
    for card in doc.get("cards", []):
        key = card.get("key")
        if key in keys:
            problems.append(f"card {key}: key used twice")
        keys.add(key)
        kind = card.get("kind")
        if kind not in KINDS:
            problems.append(f"card {key}: unknown kind {kind!r}")
        if kind == "action" and card.get("action") not in ACTIONS:
            problems.append(f"card {key}: unknown action {card.get('action')!r}")
        for c in card.get("colours", []):
            if c not in colours:
                problems.append(f"card {key}: unknown colour {c}")
        if kind == "property" and len(card.get("colours", [])) != 1:
            problems.append(f"card {key}: a property has exactly one colour")
        if kind in ("wild", "rent") and len(card.get("colours", [])) not in (0, 2):
            problems.append(f"card {key}: a wild or rent card has two colours or none")
        if kind == "wild" and not card.get("colours") and card.get("value") != 0:
            problems.append(f"card {key}: the multicolour wild has no money value (D-06)")
        if not isinstance(card.get("count"), int) or card["count"] < 1:
            problems.append(f"card {key}: count must be a positive integer")
        for lang in LANGS:
            if not card.get("names", {}).get(lang):
                problems.append(f"card {key}: no {lang} name")
        total += card.get("count", 0)
    if total != doc.get("total"):
        problems.append(f"deck holds {total} cards, document says {doc.get('total')}")
    per_colour: dict[str, int] = {}
    for card in doc.get("cards", []):
        if card.get("kind") == "property":
            per_colour[card["colours"][0]] = per_colour.get(card["colours"][0], 0) + card["count"]
    for key, col in colours.items():
        if per_colour.get(key, 0) < col["set_size"]:
            have = per_colour.get(key, 0)
            problems.append(f"colour {key}: only {have} property cards for a set of {col['set_size']}")
    return problems


def build_deck(doc: dict) -> Deck:
    problems = validate_deck_document(doc)
    if problems:
        raise ValueError("invalid deck: " + "; ".join(problems))
    colours = {
        k: Colour(k, v["set_size"], tuple(v["rent"]), v["buildable"], dict(v["names"]))
        for k, v in doc["colours"].items()
    }
    cards: list[Card] = []
    for spec in doc["cards"]:
        for _ in range(spec["count"]):
            cards.append(Card(
                id=len(cards), key=spec["key"], kind=spec["kind"], action=spec.get("action"),
                value=spec["value"], colours=tuple(spec.get("colours", ())), names=dict(spec["names"]),
            ))
    return Deck(colours, tuple(cards))


DECK = build_deck(read_deck_document())
CARDS = DECK.cards
COLOURS = DECK.colours
COLOUR_KEYS = tuple(COLOURS)
SET_SIZE = {k: c.set_size for k, c in COLOURS.items()}
RENT_TABLE = {k: c.rent for k, c in COLOURS.items()}
BUILDABLE = {k: c.buildable for k, c in COLOURS.items()}
N_CARDS = len(CARDS)

# Flat lookups by card id, for the hot paths.
KIND = tuple(c.kind for c in CARDS)
ACTION = tuple(c.action for c in CARDS)
VALUE = tuple(c.value for c in CARDS)
KEY = tuple(c.key for c in CARDS)
IS_PROPERTY = tuple(c.kind in ("property", "wild") for c in CARDS)
IS_MULTI = tuple(c.kind == "wild" and not c.colours for c in CARDS)  # multicolour wild
IS_SINGLE = tuple(c.kind == "property" for c in CARDS)  # single-colour property card
PLACEABLE = tuple(  # colours a property card may take (None: the multicolour wild, any)
    (None if (c.kind == "wild" and not c.colours) else c.colours) if c.kind in ("property", "wild") else ()
    for c in CARDS
)
RENT_COLOURS = tuple(  # a rent card's colours: its pair, or None for the wild rent (any colour)
    (c.colours or None) if c.kind == "rent" else () for c in CARDS
)
