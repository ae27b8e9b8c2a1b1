"""What the service gives its subscribers: views, never the state, and a hand only to whoever shows
each person their own. A spy subscribes like any careless front end (or a log line) would and
watches whole games of both kinds: it never receives a state object nor anyone's hand, and the
group's view of every update is byte for byte the same whatever the hidden cards are."""

from __future__ import annotations

import random

import msgspec
import pytest

from engine.board.model import BoardState
from engine.deal.model import DealState
from engine.service.tables import GameService
from engine.service.updates import Snapshot
from engine.service.views import public_view
from tests.engine.service.test_service import play_out

STATES = (DealState, BoardState)


def _walk(node, seen: set[int] | None = None):
    """Every object reachable from ``node`` (structs, dataclasses, containers)."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    yield node
    if isinstance(node, dict):
        children = [*node.keys(), *node.values()]
    elif isinstance(node, (list, tuple, set, frozenset)):
        children = list(node)
    elif isinstance(node, msgspec.Struct):
        children = [getattr(node, f) for f in node.__struct_fields__]
    elif hasattr(node, "__dataclass_fields__"):
        children = [getattr(node, f) for f in node.__dataclass_fields__]
    else:
        children = []
    for child in children:
        yield from _walk(child, seen)


def _hidden_cards_shuffled(state: DealState, r: random.Random) -> DealState:
    """The same table with every hidden card (hands, draw pile) dealt otherwise."""
    other = msgspec.json.decode(msgspec.json.encode(state), type=DealState)
    hidden = [c for p in other.players for c in p.hand] + other.draw_pile
    r.shuffle(hidden)
    for p in other.players:
        p.hand, hidden = hidden[:len(p.hand)], hidden[len(p.hand):]
    other.draw_pile = hidden
    return other


@pytest.mark.parametrize("game", ["deal", "board"])
async def test_a_subscriber_gets_views_only_and_never_a_hand(tmp_path, game):
    service = await GameService.open(f"sqlite:///{tmp_path / 'spy.db'}")
    seen: list = []
    checked = 0
    r = random.Random(5)

    async def spy(update) -> None:
        nonlocal checked
        seen.append(update)
        assert update.private == {}, "a plain subscriber gets no private view"
        for node in _walk(update):
            assert not isinstance(node, STATES), "a state object reached a subscriber"
            if isinstance(node, dict):
                assert "hand" not in node, "a hand reached a subscriber"
        view = update.public
        if game == "deal" and view is not None and view.status == "running":
            # the group's view as it would be with every hidden card elsewhere: byte for byte the same
            live = service.cache.peek(update.table)
            state = live.rules.decode_state(live.row.snapshot)
            if state.phase != "over":
                shuffled = _hidden_cards_shuffled(state, r)
                snap = Snapshot(update.table, view.version, live.row, live.rules, shuffled)
                other = public_view(service.keys.secret, snap, view.asks, view.events, (), view.match_ends_at)
                for field in ("board", "events", "choices", "worth"):
                    assert msgspec.json.encode(getattr(other, field)) == msgspec.json.encode(getattr(view, field))
                checked += 1

    service.subscribe(spy)
    try:
        out = await service.lobby.new_table("chat:spy", game, None, "u0", "Ann")
        await service.lobby.join(out.table, "u1", "Bob")
        await service.lobby.add_ai(out.table, "u0")
        await service.lobby.start(out.table, "u0", seed=7, turn_cap=60)
        await play_out(service, out.table, 3000)
        assert len(seen) > 20 and seen[-1].public.over
        assert game == "board" or checked > 20
    finally:
        await service.close()


async def test_a_front_end_that_shows_each_person_their_own_gets_their_hands(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'own.db'}")
    got: list = []

    async def front(update) -> None:
        got.append(update)

    service.subscribe(front, private=True)
    try:
        out = await service.lobby.new_table("chat:own", "deal", None, "u0", "Ann")
        await service.lobby.join(out.table, "u1", "Bob")
        await service.lobby.start(out.table, "u0", seed=3)
        await service.idle()
        update = got[-1]
        assert set(update.private) == {0, 1}
        for seat, own in update.private.items():
            mine = next(p for p in own.board["players"] if p["seat"] == seat)
            others = [p for p in own.board["players"] if p["seat"] != seat]
            assert "hand" in mine and all("hand" not in p for p in others)
    finally:
        await service.close()
