"""Boards and card decks for 地产大亨, loaded once from ``data/board/<ruleset>.json`` and checked.

The rules read squares through flat tuples indexed by square number (``PRICE[i]``, ``KIND[i]``)
of a ``Board``; the JSON stays the one source of names (zh-Hans, zh-Hant, en), prices and cards.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from operator import itemgetter
from typing import NamedTuple

LANGS = ("zh-Hans", "zh-Hant", "en")
SQUARE_KINDS = ("go", "street", "station", "utility", "chance", "chest", "tax", "jail", "free_parking", "go_to_jail")
PROPERTY_KINDS = ("street", "station", "utility")
EFFECTS = ("advance", "advance_nearest", "back", "go_to_jail", "jail_free", "money", "repairs", "pay_each",
           "collect_each")
RULESETS = ("china", "classic")
STREET_GROUP_SIZES = {"brown": 2, "light_blue": 3, "pink": 3, "orange": 3, "red": 3, "yellow": 3, "green": 3,
                      "dark_blue": 2}


class Card(NamedTuple):
    key: str
    effect: str
    params: dict
    names: dict


class Board(NamedTuple):
    ruleset: str
    names: dict
    money: dict
    squares: tuple[dict, ...]
    kind: tuple[str, ...]
    group: tuple[str | None, ...]
    price: tuple[int, ...]
    mortgage: tuple[int, ...]
    house_cost: tuple[int, ...]
    rent: tuple[tuple[int, ...], ...]  # street: base..hotel; station: 1..4 owned; utility: multipliers
    groups: dict[str, tuple[int, ...]]  # group -> its squares
    group_list: tuple[tuple[str, tuple[int, ...], bool], ...]  # (group, squares, is a street group)
    group_getters: tuple  # (group, squares, is a street group, itemgetter of its squares) for hot loops
    group_names: dict[str, dict]
    group_colours: dict[str, str]
    chance: tuple[Card, ...]
    chest: tuple[Card, ...]
    stations: tuple[int, ...]
    utilities: tuple[int, ...]
    properties: tuple[int, ...]

    def deck(self, name: str) -> tuple[Card, ...]:
        return self.chance if name == "chance" else self.chest


def validate_board_document(doc: dict) -> list[str]:
    """Every problem in a board document; empty when it is sound."""
    problems: list[str] = []
    squares = doc.get("squares", [])
    if len(squares) != 40:
        problems.append(f"{len(squares)} squares instead of 40")
    for i, sq in enumerate(squares):
        if sq.get("index") != i:
            problems.append(f"square {i}: index {sq.get('index')}")
        kind = sq.get("kind")
        if kind not in SQUARE_KINDS:
            problems.append(f"square {i}: unknown kind {kind!r}")
        for lang in LANGS:
            if not sq.get("names", {}).get(lang):
                problems.append(f"square {i}: no {lang} name")
        if kind in PROPERTY_KINDS:
            if sq.get("group") not in doc.get("groups", {}):
                problems.append(f"square {i}: unknown group {sq.get('group')!r}")
            if sq.get("mortgage") * 2 != sq.get("price"):
                problems.append(f"square {i}: mortgage is not half the price")
        if kind == "street":
            rent = sq.get("rent", [])
            if len(rent) != 6 or rent != sorted(rent) or len(set(rent)) != 6:
                problems.append(f"square {i}: a street needs 6 rising rents (base, 1-4 houses, hotel)")
            if not sq.get("house_cost"):
                problems.append(f"square {i}: no house cost")
        if kind == "station" and len(sq.get("rent", [])) != 4:
            problems.append(f"square {i}: a station needs 4 rents")
        if kind == "utility" and len(sq.get("multipliers", [])) != 2:
            problems.append(f"square {i}: a utility needs 2 multipliers")
    kinds = [sq.get("kind") for sq in squares]
    for kind, n in (("street", 22), ("station", 4), ("utility", 2), ("chance", 3), ("chest", 3), ("tax", 2)):
        if kinds.count(kind) != n:
            problems.append(f"{kinds.count(kind)} {kind} squares instead of {n}")
    if len(squares) == 40 and [kinds[i] for i in (0, 10, 20, 30)] != ["go", "jail", "free_parking", "go_to_jail"]:
        problems.append("corners must be go, jail, free_parking, go_to_jail at 0, 10, 20, 30")
    sizes: dict[str, int] = {}
    for sq in squares:
        if sq.get("kind") == "street":
            sizes[sq["group"]] = sizes.get(sq["group"], 0) + 1
    if sizes != STREET_GROUP_SIZES:
        problems.append(f"street groups {sizes} differ from {STREET_GROUP_SIZES}")
    for deck in ("chance", "chest"):
        cards = doc.get(deck, [])
        if len(cards) != 16:
            problems.append(f"{deck}: {len(cards)} cards instead of 16")
        keys = [c.get("key") for c in cards]
        if len(set(keys)) != len(keys):
            problems.append(f"{deck}: duplicate card keys")
        for c in cards:
            if c.get("effect") not in EFFECTS:
                problems.append(f"{deck} {c.get('key')}: unknown effect {c.get('effect')!r}")
            if c.get("effect") == "advance" and not 0 <= c.get("to", -1) < 40:
                problems.append(f"{deck} {c.get('key')}: bad square {c.get('to')}")
            if c.get("effect") == "advance_nearest" and c.get("kind") not in ("station", "utility"):
                problems.append(f"{deck} {c.get('key')}: nearest what?")
            for lang in LANGS:
                if not c.get("names", {}).get(lang):
                    problems.append(f"{deck} {c.get('key')}: no {lang} text")
    for key in ("start", "salary", "jail_fine", "income_tax", "income_tax_percent", "luxury_tax",
                "jail_card_max_price", "opening_bid", "min_bid_step", "houses", "hotels"):
        if not isinstance(doc.get("money", {}).get(key), int):
            problems.append(f"money: no integer {key}")
    return problems


def build_board(doc: dict) -> Board:
    problems = validate_board_document(doc)
    if problems:
        raise ValueError(f"invalid board {doc.get('ruleset')}: " + "; ".join(problems))
    squares = tuple(doc["squares"])
    groups: dict[str, list[int]] = {}
    for sq in squares:
        if sq["kind"] in PROPERTY_KINDS:
            groups.setdefault(sq["group"], []).append(sq["index"])

    def cards(deck: str) -> tuple[Card, ...]:
        out = []
        for c in doc[deck]:
            params = {k: v for k, v in c.items() if k not in ("key", "effect", "names")}
            out.append(Card(c["key"], c["effect"], params, dict(c["names"])))
        return tuple(out)

    return Board(
        ruleset=doc["ruleset"],
        names=dict(doc["names"]),
        money=dict(doc["money"]),
        squares=squares,
        kind=tuple(sq["kind"] for sq in squares),
        group=tuple(sq.get("group") for sq in squares),
        price=tuple(sq.get("price", 0) for sq in squares),
        mortgage=tuple(sq.get("mortgage", 0) for sq in squares),
        house_cost=tuple(sq.get("house_cost", 0) for sq in squares),
        rent=tuple(tuple(sq.get("rent") or sq.get("multipliers") or ()) for sq in squares),
        groups={g: tuple(v) for g, v in groups.items()},
        group_list=tuple((g, tuple(v), squares[v[0]]["kind"] == "street") for g, v in groups.items()),
        group_getters=tuple(
            (g, tuple(v), squares[v[0]]["kind"] == "street", itemgetter(*v)) for g, v in groups.items()
        ),
        group_names={g: dict(v["names"]) for g, v in doc["groups"].items()},
        group_colours={g: v.get("colour", "#888888") for g, v in doc["groups"].items()},
        chance=cards("chance"),
        chest=cards("chest"),
        stations=tuple(sq["index"] for sq in squares if sq["kind"] == "station"),
        utilities=tuple(sq["index"] for sq in squares if sq["kind"] == "utility"),
        properties=tuple(sq["index"] for sq in squares if sq["kind"] in PROPERTY_KINDS),
    )


def read_board_document(ruleset: str) -> dict:
    if ruleset not in RULESETS:
        raise ValueError(f"unknown board rule set {ruleset!r}; choose one of {', '.join(RULESETS)}")
    return json.loads(files("data").joinpath(f"board/{ruleset}.json").read_text(encoding="utf-8"))


@cache
def board(ruleset: str) -> Board:
    return build_board(read_board_document(ruleset))
