"""Every malformed action is refused with a ``RuleError`` (both games), never a crash.

A hypothesis property over the rules contract: at a random point of an AI-played game, an action
of any type of the game's union, its fields filled with values of their declared types but biased
towards hostile ones (negative and huge numbers, card/square/demand/trade ids just outside their
ranges, unknown strings, empty and huge tuples), or a near miss of a legal action, or a legal
action of another seat, is applied as any seat (out-of-range ones and ``SYSTEM`` included). Either
it is accepted, and then it was in ``legal_actions`` (open amounts aside), or ``RuleError`` is raised
and the state is byte-identical. Anything else (``IndexError``, ``KeyError``, ``TypeError``...) is a bug.
"""

from __future__ import annotations

import random
import types
import typing
from functools import cache, lru_cache

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.core.values import EndMatch
from engine.deal.cards import COLOUR_KEYS, N_CARDS
from engine.games import GAMES
from tests.engine.deal.test_deal_properties import canonical
from words.board_text import explain_error as explain_board
from words.deal_text import explain_error as explain_deal
from words.i18n import CATALOGUES, LANGS

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
SYSTEM = -1

HOSTILE_INTS = [
    -(2**63) - 1, -(2**63), -(10**30), -1000, -106, -41, -2, -1, 0, 1, 2, 3, 5, 7, 8, 10, 39, 40, 41, 99, 105,
    N_CARDS, N_CARDS + 1, 200, 255, 1000, 10**6, 10**9, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, 10**30,
]
HOSTILE_STRINGS = [
    "", " ", "x", "purple", "None", "null", "红", "time", "turn_cap", "flat", "percent", "none", "house", "hotel",
    "station", "utility", "brown", "red", "dark_blue", "railroad", "multicolour", "RED", "red ", "\x00", "x" * 10_000,
    *COLOUR_KEYS,
]
HOSTILE_SEATS = [-(2**63), -2, -1, 5, 6, 8, 99, 2**63]


def action_types(game: str) -> tuple[type, ...]:
    return typing.get_args(GAMES[game].rules.action_type)


@cache
def _hints(cls: type) -> dict[str, typing.Any]:
    return typing.get_type_hints(cls)


@lru_cache(maxsize=512)
def _played(game: str, players: int, ruleset: str, seed: int, moves: int, wander: int, seek: bool) -> bytes:
    """The encoded state after ``moves`` decisions of an AI game (``wander``: how often, in ten, a
    random legal action is played instead, to reach states the AI avoids, such as odd trades;
    ``seek``: then play on, up to 60 decisions, until someone other than the player on turn must
    answer: a Just Say No window, a payment, an auction, a debt...)."""
    rules, plug = GAMES[game].rules, GAMES[game]
    r = random.Random(seed * 31 + wander)
    state = rules.new_game(players, ruleset, seed)
    for step in range(moves + (60 if seek else 0)):
        waiting = rules.waiting_for(state)
        if not waiting or (step >= moves and _answering(game, state)):
            break
        seat = waiting[r.randrange(len(waiting))].seat
        legal = rules.legal_actions(state, seat)
        action = r.choice(legal) if r.randrange(10) < wander else plug.choose(state, seat, legal)
        rules.apply(state, seat, action)
    return rules.encode_state(state)


def _answering(game: str, state) -> bool:
    if game == "deal":
        return bool(state.pending) or state.phase == "discard"
    return state.stage != "roll" or bool(state.trades)


def _context(game: str, state, seat: int) -> dict[str, list]:
    """Values that mean something in this state, by the field names that take them: ids in use
    (and the next ones), the cards of the seat and of everyone, group indices, squares owned..."""
    n = len(state.players)
    seats = list(range(n))
    if game == "deal":
        everyone = [c for p in state.players for c in p.hand + p.bank]
        everyone += [c for p in state.players for g in p.groups for c in [*g.cards, g.house, g.hotel] if c is not None]
        mine = state.players[seat] if 0 <= seat < n else None
        own = ([*mine.hand, *mine.bank, *(c for g in mine.groups for c in g.cards)] if mine else []) or everyone
        demands = [d.id for d in state.pending] + [state.next_demand, 0]
        groups = list(range(max(len(p.groups) for p in state.players) + 1))
        cards = own + everyone + [x for d in state.pending for x in (d.take, d.give, *d.to_place) if x is not None]
        return {"card": cards, "take": cards, "give": cards, "replace": cards, "doubles": own, "demand": demands,
                "group": groups, "target": seats, "": cards + demands + groups + seats}
    owned = [sq for sq, owner in enumerate(state.owner) if owner >= 0] or [1, 3]
    trades = [t.id for t in state.trades] + [state.next_trade, 0]
    money = [p.cash for p in state.players] + [p.cash + 10 for p in state.players] + [10, 50, 500]
    if state.auction is not None:
        money += [state.auction.high_bid, state.auction.high_bid + 10, state.auction.opening]
    return {"square": owned, "street": owned, "give": owned, "get": owned, "trade": trades, "target": seats,
            "amount": money, "give_cash": money, "get_cash": money, "give_cards": [0, 1, 2], "get_cards": [0, 1, 2],
            "": owned + trades + money + seats}


def value_of(draw, hint, context: list):
    """A value of the declared type ``hint``: one that means something here, or a hostile one."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return value_of(draw, draw(st.sampled_from(args)), context)
    if hint is type(None):
        return None
    if hint is bool:
        return draw(st.booleans())
    if hint is int:
        source = draw(st.sampled_from(["context", "context", "hostile", "near", "any"]))
        if source == "context" and context:
            return draw(st.sampled_from(context))
        if source == "near" and context:
            return draw(st.sampled_from(context)) + draw(st.sampled_from([-1, 1, -N_CARDS, N_CARDS, 40, -40]))
        if source == "any":
            return draw(st.integers())
        return draw(st.sampled_from(HOSTILE_INTS))
    if hint is str:
        return draw(st.one_of(st.sampled_from(HOSTILE_STRINGS), st.text(max_size=12)))
    if origin is tuple:
        item = args[0]
        size = draw(st.sampled_from([0, 0, 1, 1, 2, 3, 5, 40, 2000]))
        if size > 5:  # a huge tuple: one value repeated, or a run of ids
            first = value_of(draw, item, context)
            step = draw(st.sampled_from([0, 1])) if isinstance(first, int) else 0
            return tuple(first + i * step if step else first for i in range(size))
        return tuple(value_of(draw, item, context) for _ in range(size))
    if origin is list:
        return list(value_of(draw, tuple[args[0], ...], context))
    raise AssertionError(f"no strategy for {hint!r}")  # a new field type: teach the test about it


def _field(draw, cls: type, name: str, context: dict[str, list]):
    return value_of(draw, _hints(cls)[name], context.get(name, context[""]))


@st.composite
def situations(draw, game: str):
    rules = GAMES[game].rules
    players = draw(st.integers(rules.min_players, min(rules.max_players, 6)))
    ruleset = draw(st.sampled_from(rules.rulesets))
    seed = draw(st.integers(0, 40))
    moves = draw(st.integers(0, 90 if game == "deal" else 400))
    wander = draw(st.sampled_from([0, 0, 3]))
    seek = draw(st.booleans())
    state = rules.decode_state(_played(game, players, ruleset, seed, moves, wander, seek))
    n = len(state.players)
    seats = list(range(n))
    waiting = [d.seat for d in rules.waiting_for(state)] or seats
    who = draw(st.sampled_from(["waiting", "waiting", "waiting", "any", "hostile"]))
    if who == "waiting":
        seat = draw(st.sampled_from(waiting))
    elif who == "any":
        seat = draw(st.sampled_from([SYSTEM, *seats]))
    else:
        seat = draw(st.one_of(st.sampled_from(HOSTILE_SEATS), st.integers()))
    context = _context(game, state, seat)
    how = draw(st.sampled_from(["random", "random", "near_miss", "near_miss", "other_seat"]))
    action = None
    if how in ("near_miss", "other_seat"):
        owner = seat if how == "near_miss" and draw(st.booleans()) else draw(st.sampled_from([SYSTEM, *seats]))
        legal = rules.legal_actions(state, owner)
        if legal:
            action = draw(st.sampled_from(legal))
            fields = [f for f in action.__struct_fields__ if f != "type"]
            if how == "near_miss" and fields:
                for name in draw(st.lists(st.sampled_from(fields), min_size=1, max_size=2, unique=True)):
                    value = getattr(action, name)
                    if isinstance(value, int) and not isinstance(value, bool) and draw(st.booleans()):
                        new = value + draw(st.sampled_from([-1, 1, -2, 2, 10, N_CARDS, -(2**63), 2**63]))
                    else:
                        new = _field(draw, type(action), name, context)
                    action = msgspec.structs.replace(action, **{name: new})
    if action is None:
        offered = sorted({type(a) for a in rules.legal_actions(state, seat)}, key=lambda t: t.__name__) if (
            0 <= seat < n or seat == SYSTEM) else []
        kinds = st.sampled_from(action_types(game))
        cls = draw(st.one_of(st.sampled_from(offered), kinds) if offered else kinds)
        action = cls(**{name: _field(draw, cls, name, context) for name in cls.__struct_fields__})
    return state, seat, action


def accepted_is_legal(game: str, state, seat: int, action) -> bool:
    """``apply`` took ``action``: was it offered? (open amounts are offered as a few steps)"""
    rules = GAMES[game].rules
    legal = rules.legal_actions(state, seat)
    if isinstance(action, EndMatch):
        return seat == SYSTEM and any(isinstance(a, EndMatch) for a in legal)  # the clock's reason is free
    if game == "deal":
        return canonical(state, seat, action) in legal
    from engine.board import model as bm

    if isinstance(action, bm.Bid):
        return any(isinstance(a, bm.Bid) for a in legal)
    if isinstance(action, bm.ProposeTrade):
        return 0 <= seat < len(state.players) and (
            any(isinstance(a, bm.ProposeTrade) for a in legal) or not state.options.no_trading)
    return action in legal


def explained(game: str, state, error: RuleError) -> None:
    """The refusal names a rule and reads as a sentence in every language (never a raw key)."""
    assert error.rule[:2] == ("D-" if game == "deal" else "B-"), error
    for lang in LANGS:
        assert CATALOGUES[lang].get(error.key), f"{lang} lacks {error.key}"
        if game == "deal":
            text = explain_deal(error, lang, {})
        else:
            text = explain_board(error, lang, state.options.ruleset, {})
        assert error.key not in text and error.rule in text


def check(game: str, state, seat: int, action) -> None:
    rules, plug = GAMES[game].rules, GAMES[game]
    before = rules.encode_state(state)
    twin = rules.decode_state(before)
    rules.legal_actions(state, seat)  # any seat may ask
    try:
        rules.apply(state, seat, action)
    except RuleError as e:
        assert rules.encode_state(state) == before, f"refused {action!r} ({e}) changed the state"
        explained(game, state, e)
        return
    assert accepted_is_legal(game, twin, seat, action), f"accepted unlisted {action!r} from seat {seat}"
    assert plug.violations(state) == [], (action, plug.violations(state))
    rules.decode_state(rules.encode_state(state))  # still plain data


@SETTINGS
@given(data=st.data())
def test_deal_every_malformed_action_is_refused_with_a_rule_error(data):
    state, seat, action = data.draw(situations("deal"))
    check("deal", state, seat, action)


@SETTINGS
@given(data=st.data())
def test_board_every_malformed_action_is_refused_with_a_rule_error(data):
    state, seat, action = data.draw(situations("board"))
    check("board", state, seat, action)


def test_D14_a_payment_toggle_with_a_card_outside_the_deck_is_refused():
    """The issue report: ``TogglePayment(card=106)`` raised IndexError, ``card=-1`` named the wrong rule."""
    from engine.deal import model as m
    from tests.builders import Table

    t = Table(players=2).hand(0, "debt_collector").bank(1, "money_1", "money_2").group(1, "red", "property_kentucky")
    s = t.state()
    rules = GAMES["deal"].rules
    rules.apply(s, 0, m.PlayDebtCollector(card=s.players[0].hand[0], target=1))
    demand = s.pending[0]
    if demand.stage != "pay":
        rules.apply(s, 1, m.Accept(demand=demand.id))
    before = rules.encode_state(s)
    for card in (N_CARDS, -1, -(2**63), 2**63, 10**30):
        try:
            rules.apply(s, 1, m.TogglePayment(demand=demand.id, card=card))
        except RuleError as e:
            assert (e.rule, e.key) == ("D-14", "deal.err.no_such_card"), (card, e)
        else:
            raise AssertionError(f"card {card} accepted")
        assert rules.encode_state(s) == before


def test_D06_no_replacement_in_a_built_set_that_is_no_longer_complete():
    """``apply`` took a swap ``legal_actions`` never offers: a wild out of a built set that lost a
    card (D-17). Refused now, under D-06 like every other bad replacement; the red card may still
    simply join the set."""
    from engine.deal import model as m
    from tests.builders import Table, card_of

    s = (Table(2).group(0, "red", "wild_red_yellow", "property_kentucky", house=True)
         .group(0, "red", "property_indiana").state())
    wild = card_of(s, 0, "wild_red_yellow", where="area")
    indiana = card_of(s, 0, "property_indiana", where="area")
    rules = GAMES["deal"].rules
    swap = m.MoveProperty(card=indiana, colour="red", group=0, replace=wild)
    assert swap not in rules.legal_actions(s, 0)
    before = rules.encode_state(s)
    try:
        rules.apply(s, 0, swap)
    except RuleError as e:
        assert (e.rule, e.key) == ("D-06", "deal.err.bad_replacement")
    else:
        raise AssertionError("the swap was accepted")
    assert rules.encode_state(s) == before
    join = m.MoveProperty(card=indiana, colour="red", group=0)
    assert join in rules.legal_actions(s, 0)
    rules.apply(s, 0, join)
    assert sorted(s.players[0].groups[0].cards) == sorted([wild, indiana, card_of(s, 0, "property_kentucky", "area")])
