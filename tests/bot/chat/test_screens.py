"""Screens drawn from the service's views: the public one never shows a hand, buttons carry
working tokens, the board's answers are given in front of everyone."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.chat.screens import private_screen, public_screen, refusal_text
from engine.deal.cards import CARDS
from engine.games import GAMES
from engine.service.tables import GameService
from engine.service.updates import Snapshot
from engine.service.views import asks_of, private_views, public_view


@dataclass
class Screens:
    public: object
    private: dict


def table_screens(service: GameService, table: int, events=(), lang: str = "zh-Hans", lang_of=None,
                  pictures: bool = False) -> Screens:
    """The screens of the table as its copy in this process stands now (its state as a test left it)."""
    live = service.cache.peek(table)
    snap = Snapshot(table, live.row.version, live.row, live.rules, live.state)
    asks = asks_of(snap)
    public = public_view(service.keys.secret, snap, asks, events)
    own = private_views(service.keys.secret, snap, asks, events)
    return Screens(public_screen(public, lang, service.clock(), pictures=pictures),
                   {s: private_screen(v, public.names, lang_of(s) if lang_of else lang, pictures=pictures)
                    for s, v in own.items()})


async def _table(tmp_path, game: str, humans: int, ais: int, seed: int):
    service = await GameService.open(f"sqlite:///{tmp_path / 'p.db'}")
    out = await service.lobby.new_table("chat:p", game, None, "u0", "Ann")
    for i in range(1, humans):
        await service.lobby.join(out.table, f"u{i}", f"P{i}")
    for _ in range(ais):
        await service.lobby.add_ai(out.table, "u0")
    await service.lobby.start(out.table, "u0", seed=seed)
    return service, out.table


async def _move(service, table):
    """A press by the first person who must act (the service's loop has moved the AI seats)."""
    await service.idle()
    rules = GAMES[service.cache.row(table).game].rules
    state = service.cache.state(table)
    decision = rules.waiting_for(state)[0]
    action = GAMES[rules.name].choose_listed(state, decision.seat)
    info = service.cache.row(table).seats[decision.seat]
    assert not info["ai"]
    token = next(t for a, t in service.buttons(table, decision.seat) if a == action)
    outcome = await service.act(info["user"], token)
    await service.idle()
    return outcome


async def test_public_screen_is_the_same_whatever_the_hands_hold(tmp_path):
    service, table = await _table(tmp_path, "deal", humans=3, ais=0, seed=3)
    try:
        r = random.Random(1)
        checked = 0
        for _ in range(60):
            outcome = await _move(service, table)
            if service.cache.row(table).status != "running":
                break
            state = service.cache.state(table)  # answer windows included: nothing public tells who holds what
            before = table_screens(service, table, outcome.events, "en").public
            hidden = [c for p in state.players for c in p.hand] + state.draw_pile
            r.shuffle(hidden)
            saved = [list(p.hand) for p in state.players], list(state.draw_pile)
            for p in state.players:
                p.hand, hidden = hidden[:len(p.hand)], hidden[len(p.hand):]
            state.draw_pile = hidden
            after = table_screens(service, table, outcome.events, "en").public
            assert after.text == before.text
            assert [b.label for b in after.buttons] == [b.label for b in before.buttons]
            for p, hand in zip(state.players, saved[0], strict=True):
                p.hand = hand
            state.draw_pile = saved[1]
            checked += 1
        assert checked > 10
    finally:
        await service.close()


async def test_private_screens_show_the_own_hand_with_working_buttons(tmp_path):
    service, table = await _table(tmp_path, "deal", humans=2, ais=1, seed=4)
    try:
        state = service.cache.state(table)
        screens = table_screens(service, table, (), "en", lang_of=lambda seat: "zh-Hant")
        assert set(screens.private) == {0, 1}
        for seat, screen in screens.private.items():
            hand = state.players[seat].hand
            assert any(CARDS[c].names["zh-Hant"] in screen.text for c in hand)
            for button in screen.buttons:
                assert len(button.token.encode()) <= 64 and button.seat == seat
        current = GAMES["deal"].rules.waiting_for(state)[0].seat
        button = screens.private[current].buttons[0]
        assert (await service.act(service.cache.row(table).seats[current]["user"], button.token)).ok
    finally:
        await service.close()


async def test_board_decisions_are_answered_on_the_public_screen(tmp_path):
    service, table = await _table(tmp_path, "board", humans=2, ais=1, seed=5)
    try:
        kinds = set()
        for _ in range(120):
            await service.idle()  # the AI seat answers first
            if service.cache.row(table).status != "running":
                break
            screens = table_screens(service, table, (), "zh-Hans")
            current = GAMES["board"].rules.view(service.cache.state(table), None)["current"]
            head = screens.public.text.split("\n", 1)[0]
            assert head.startswith("== ") and ["Ann", "P1", "AI 1"][current] in head  # whose turn, first
            decision = GAMES["board"].rules.waiting_for(service.cache.state(table))[0]
            if not service.cache.row(table).seats[decision.seat]["ai"]:
                mine = [b for b in screens.public.buttons if b.seat == decision.seat]
                assert mine, decision
                kinds.add(decision.kind)
                user = service.cache.row(table).seats[decision.seat]["user"]
                assert (await service.act(user, mine[0].token)).ok
            else:
                await _move(service, table)
        assert "roll" in kinds
    finally:
        await service.close()


async def test_refusals_become_short_private_alerts(tmp_path):
    from engine.board.model import Buy

    service, table = await _table(tmp_path, "board", humans=2, ais=0, seed=5)
    try:
        state = service.cache.state(table)
        seat = GAMES["board"].rules.waiting_for(state)[0].seat
        other = 1 - seat
        names = {0: "Ann", 1: "P1"}
        token = service.buttons(table, seat)[0][1]
        refused = await service.act(service.cache.row(table).seats[other]["user"], token)
        for lang in ("en", "zh-Hans", "zh-Hant"):
            text = refusal_text(refused, lang, "board", "china", names)
            assert text and "{" not in text and "service." not in text
        rule = await service.act_as(table, seat, Buy())  # nothing to buy before the roll
        assert not rule.ok and rule.rule == "B-02"
        assert "B-02" in refusal_text(rule, "en", "board", "china", names)
    finally:
        await service.close()


async def test_screens_carry_pictures_drawn_off_the_event_loop(tmp_path):
    import io

    from PIL import Image

    for game in ("deal", "board"):
        (tmp_path / game).mkdir()
        service, table = await _table(tmp_path / game, game, humans=2, ais=0, seed=2)
        try:
            screens = await _drawn(service, table)
            width = 1040 if game == "board" else 880  # render.board.SIZE, render.deal.WIDTH
            assert Image.open(io.BytesIO(screens.public.picture)).size[0] == width
            if game == "deal":
                for screen in screens.private.values():
                    assert Image.open(io.BytesIO(screen.picture)).size[0] > 0
        finally:
            await service.close()


async def test_a_timed_board_match_shows_its_clock(tmp_path):
    import io

    from PIL import Image, ImageChops

    now = [1_000_000.0]
    service = await GameService.open(f"sqlite:///{tmp_path / 'c.db'}", clock=lambda: now[0])
    try:
        out = await service.lobby.new_table("chat:c", "board", None, "u0", "Ann")
        await service.lobby.join(out.table, "u1", "Bob")
        await service.lobby.start(out.table, "u0", seed=3, match_minutes=30)
        assert await service.clocks.match_ends_at(out.table) == now[0] + 30 * 60
        first = await _drawn(service, out.table)
        now[0] += 65
        later = await _drawn(service, out.table)
        a = Image.open(io.BytesIO(first.public.picture)).convert("RGB")
        b = Image.open(io.BytesIO(later.public.picture)).convert("RGB")
        assert ImageChops.difference(a, b).getbbox() is not None  # 30:00, then 28:55
    finally:
        await service.close()


async def _drawn(service: GameService, table: int) -> Screens:
    """The table's screens with their pictures, drawn from the views the service gives on request."""
    import asyncio

    public, own = await service.views(table)
    return Screens(await asyncio.to_thread(public_screen, public, "zh-Hans", service.clock()),
                   {s: await asyncio.to_thread(private_screen, v, public.names, "zh-Hans") for s, v in own.items()})


async def test_B15_a_declined_offer_is_told_to_its_proposer_alone(tmp_path):
    """The group's log never shows the haggling (B-15), so the proposer of an offer that was
    declined is told in their own message (a chat's private message, the web's moves), and nobody
    else is; the next update no longer says it."""
    from bot.chat import trade_builder
    from bot.web.messages import own_part
    from engine.board.model import ProposeTrade, RejectTrade, Roll
    from words.board_text import trade_terms
    from words.i18n import t

    service, table = await _table(tmp_path, "board", humans=2, ais=0, seed=5)
    updates = []

    async def heard(update):
        updates.append(update)

    service.subscribe(heard, private=True)
    try:
        for _ in range(200):  # both play on until each owns a deed and the first is to roll
            state = service.cache.state(table)
            seat = GAMES["board"].rules.waiting_for(state)[0].seat
            owners = set(state.owner)
            if {0, 1} <= owners and state.stage == "roll" and not state.rolled:
                break
            await _move(service, table)
        other = 1 - seat
        theirs = next(sq for sq, o in enumerate(state.owner) if o == other)
        assert (await service.act_as(table, seat, ProposeTrade(target=other, get=(theirs,), give_cash=10))).ok
        offer = service.cache.state(table).trades[0].id
        assert await trade_builder.still_open(service, table, offer)  # the web shows its receipt
        assert (await service.act_as(table, other, RejectTrade(trade=offer))).ok
        assert not await trade_builder.still_open(service, table, offer)  # no receipt: the news says
        await service.idle()
        last = updates[-1]
        names = last.public.names
        for lang in ("en", "zh-Hans", "zh-Hant"):
            news = t(lang, "board.news.rejected", target=names[other], trade=offer,
                     give=trade_terms((), 10, 0, lang, "china"), get=trade_terms((theirs,), 0, 0, lang, "china"))
            said = private_screen(last.private[seat], names, lang, pictures=False).text
            assert news in said.splitlines(), (lang, said)
            assert news not in private_screen(last.private[other], names, lang, pictures=False).text
            assert news not in table_screens(service, table, last.public.events, lang).public.text
        web = own_part(last.public, last.private[seat], "en")
        assert len(web["news"]) == 1 and f"#{offer}" in web["news"][0] and names[other] in web["news"][0]
        assert own_part(last.public, last.private[other], "en")["news"] == []
        assert (await service.act_as(table, seat, Roll())).ok
        await service.idle()
        assert own_part(updates[-1].public, updates[-1].private[seat], "en")["news"] == []
    finally:
        await service.close()


async def test_a_private_message_never_shows_two_buttons_of_one_label(tmp_path):
    """Two "Wild: Pink/Orange" in one pile: moving either to a new pile does the same, and the
    chats show it once (each token still works, the web shows each card's own moves)."""
    from engine.deal.cards import KEY
    from engine.deal.model import Group, MoveProperty

    service, table = await _table(tmp_path, "deal", humans=2, ais=0, seed=4)
    try:
        state = service.cache.state(table)
        seat = GAMES["deal"].rules.waiting_for(state)[0].seat
        me = state.players[seat]
        twins = [c for c in state.draw_pile if KEY[c] == "wild_pink_orange"]
        for p in state.players:  # both wilds out of wherever they were, into one pink pile of the seat
            p.hand = [c for c in p.hand if c not in twins]
        state.draw_pile = [c for c in state.draw_pile if c not in twins]
        me.groups.append(Group(colour="pink", cards=twins))
        assert len(twins) == 2
        screen = table_screens(service, table, (), "en").private[seat]
        labels = [b.label for b in screen.buttons]
        assert len(labels) == len(set(labels))
        both = [a for a, _tok in service.buttons(table, seat) if isinstance(a, MoveProperty) and a.card in twins
                and a.group is None and a.colour == "orange"]
        assert len(both) == 2  # the rules offer each card; the message shows the move once
        shown = [c for c in screen.choices if c.path == ("Rearrange properties", "Wild: Pink/Orange",
                                                          "To a new Orange set")]
        assert len(shown) == 1
    finally:
        await service.close()
