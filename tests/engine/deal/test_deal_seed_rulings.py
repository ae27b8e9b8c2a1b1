"""Where the user's two rule documents differ (seed 003 standard, seed 004 tournament), each rule set
plays its own: paying with buildings and where they go (D-14), re-arranging after the last play
(D-06), who may look through the discard pile (D-18), when the draw pile is rebuilt (D-02), and
the clocks the table message shows (D-16)."""

from __future__ import annotations

import re

import pytest

from bot.chat.presenter import discard_pile_answer
from bot.chat.screens import Button, clock_line, private_screen, public_screen
from engine.deal import DEAL
from engine.deal.ai import choose
from engine.deal.cards import KEY, N_CARDS, VALUE
from engine.deal.model import (
    AutoPay,
    BankCard,
    BuildingPlaced,
    ConfirmPayment,
    EndTurn,
    MoveProperty,
    PlaceBuilding,
    PlayDebtCollector,
    PlayPassGo,
    Reshuffled,
    TogglePayment,
    TurnStarted,
)
from engine.deal.rules import current_seat, discard_pile_for, timeout_action, view, waiting_for
from engine.service.storage.rows import TableRow
from engine.service.updates import Snapshot
from engine.service.views import Ask, asks_of, private_view, private_views, public_view
from tests.builders import Table, accept_windows, card_of, legal, rejects
from words import deal_text
from words.i18n import t

# -- D-14 paying with buildings ---------------------------------------------------------------------


def _built_debtor(ruleset: str) -> Table:
    """Seat 1 owes 5M with an empty bank and a green set carrying a House and a Hotel."""
    return (Table(2, ruleset)
            .group(1, "green", "property_pacific", "property_north_carolina", "property_pennsylvania_ave",
                   house=True, hotel=True)
            .hand(0, "debt_collector"))


def _collect(s) -> object:
    DEAL.apply(s, 0, PlayDebtCollector(card=card_of(s, 0, "debt_collector"), target=1))
    accept_windows(s)
    return s.pending[0]


def test_D14_standard_pays_hotel_then_house_when_bank_empty():
    s = _built_debtor("standard").state()
    d = _collect(s)
    g = s.players[1].groups[0]
    hotel, house = g.hotel, g.house
    pacific = card_of(s, 1, "property_pacific", where="area")
    # a property while the Hotel and the House still stand is refused; so is the House before the Hotel
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=pacific))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=hotel))
    rejects(s, 1, ConfirmPayment(demand=d.id), "D-14")
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=pacific))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=hotel))
    DEAL.apply(s, 1, TogglePayment(demand=d.id, card=house))
    rejects(s, 1, ConfirmPayment(demand=d.id), "D-12")
    DEAL.apply(s, 1, AutoPay(demand=d.id))
    # 4M + 3M for 5M: the Hotel, then the House; the set is kept
    assert sorted(s.players[0].bank) == sorted([hotel, house])
    assert len(s.players[1].groups[0].cards) == 3 and g.house is None and g.hotel is None


def test_D14_standard_pays_from_the_bank_before_properties():
    s = (Table(2).bank(1, "money_5", "money_2").group(1, "red", "property_kentucky")
         .hand(0, "debt_collector").state())
    d = _collect(s)
    for card in (card_of(s, 1, "money_2", where="bank"), card_of(s, 1, "property_kentucky", where="area")):
        DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card))  # 2 + 3 = 5M, but the 5M stays
    err = rejects(s, 1, ConfirmPayment(demand=d.id), "D-14")
    assert err.key == "deal.err.pay_order"


def test_D14_standard_property_paid_when_the_bank_is_short_joins_the_receivers_area():
    s = (Table(2).bank(1, "money_2").group(1, "red", "property_kentucky", "property_indiana")
         .hand(0, "debt_collector").state())
    d = _collect(s)
    kentucky = card_of(s, 1, "property_kentucky", where="area")
    for card in (card_of(s, 1, "money_2", where="bank"), kentucky):
        DEAL.apply(s, 1, TogglePayment(demand=d.id, card=card))
    DEAL.apply(s, 1, ConfirmPayment(demand=d.id))  # 2 + 3 = 5M: the bank alone could not cover it
    assert any(kentucky in g.cards for g in s.players[0].groups)


@pytest.mark.parametrize("ruleset", ["standard", "tournament"])
def test_D14_received_house_and_hotel_go_where_each_rule_set_says(ruleset):
    # the receiver has a complete set a House could go on
    s = _built_debtor(ruleset).group(0, "brown", "property_mediterranean", "property_baltic").state()
    d = _collect(s)
    hotel, house = s.players[1].groups[0].hotel, s.players[1].groups[0].house
    events = DEAL.apply(s, 1, AutoPay(demand=d.id))
    if ruleset == "standard":  # seed 003 FAQ 30: they become money in the receiver's bank
        assert sorted(s.players[0].bank) == sorted([hotel, house]) and s.pending == []
        assert [(e.card, e.group) for e in events if isinstance(e, BuildingPlaced)] == [(house, None), (hotel, None)]
        assert s.players[0].groups[0].house is None
    else:  # seed 004: the receiver may put them on a complete set or use them as cash
        assert d.stage == "place" and waiting_for(s)[0].seat == 0 and waiting_for(s)[0].kind == "place"
        assert legal(s, 0, PlaceBuilding(demand=d.id, card=house, group=0))
        assert legal(s, 0, PlaceBuilding(demand=d.id, card=house, group=None))
        DEAL.apply(s, 0, PlaceBuilding(demand=d.id, card=house, group=0))
        assert s.players[0].groups[0].house == house


def test_D14_standard_never_asks_where_a_received_building_goes():
    s = _built_debtor("standard").group(0, "brown", "property_mediterranean", "property_baltic").state()
    d = _collect(s)
    DEAL.apply(s, 1, AutoPay(demand=d.id))
    assert not any(isinstance(a, PlaceBuilding) for a in DEAL.legal_actions(s, 0))


# -- D-06 re-arranging after the last play ----------------------------------------------------------


def _three_plays(ruleset: str, wild: bool = True):
    t = Table(2, ruleset).hand(0, "money_1", "money_2", "money_3")
    if wild:
        t = t.group(0, "red", "wild_red_yellow")
    s = t.state()
    for key in ("money_1", "money_2", "money_3"):
        DEAL.apply(s, 0, BankCard(card=card_of(s, 0, key)))
    return s


def test_D06_standard_end_turn_after_third_play_allows_rearranging():
    s = _three_plays("standard")
    assert current_seat(s) == 0 and s.plays_left == 0 and s.phase == "play"
    (decision,) = waiting_for(s)
    assert (decision.seat, decision.kind, decision.policy, decision.timeout) == (0, "end_turn", "turn", EndTurn())
    assert timeout_action(s, 0) == EndTurn()  # the turn clock ends the turn
    wild = s.players[0].groups[0].cards[0]
    move = MoveProperty(card=wild, colour="yellow", group=None)
    assert legal(s, 0, move) and legal(s, 0, EndTurn())
    assert not any(isinstance(a, BankCard) for a in DEAL.legal_actions(s, 0))  # no fourth play
    DEAL.apply(s, 0, move)
    assert s.players[0].groups[0].colour == "yellow" and current_seat(s) == 0
    events = DEAL.apply(s, 0, EndTurn())
    assert current_seat(s) == 1 and any(isinstance(e, TurnStarted) for e in events)


def test_D06_standard_turn_ends_by_itself_when_nothing_can_be_rearranged():
    s = _three_plays("standard", wild=False)
    assert current_seat(s) == 1


def test_D06_tournament_turn_ends_once_the_third_play_resolved():
    s = _three_plays("tournament")
    assert current_seat(s) == 1
    s2 = Table(2, "tournament").group(0, "red", "wild_red_yellow").state()
    s2.plays_left = 0
    rejects(s2, 0, MoveProperty(card=s2.players[0].groups[0].cards[0], colour="yellow", group=None), "D-06")


def test_D06_standard_waits_for_end_turn_only_after_answers_are_settled():
    # the third play is a Debt Collector: the turn waits for the payment, then for End turn
    s = (Table(2).group(0, "red", "wild_red_yellow").bank(1, "money_5", "money_1")
         .hand(0, "money_1", "money_2", "debt_collector").state())
    DEAL.apply(s, 0, BankCard(card=card_of(s, 0, "money_1")))
    DEAL.apply(s, 0, BankCard(card=card_of(s, 0, "money_2")))
    d = _collect(s)
    rejects(s, 0, EndTurn(), "D-13")
    DEAL.apply(s, 1, AutoPay(demand=d.id))
    assert current_seat(s) == 0 and waiting_for(s)[0].kind == "end_turn"


def test_D06_the_ai_ends_its_standard_turns():
    s = DEAL.new_game(3, "standard", 5)
    for _ in range(3000):
        if s.phase == "over":
            break
        seat = waiting_for(s)[0].seat
        DEAL.apply(s, seat, choose(s, seat))
    assert s.phase == "over"


# -- D-18 the discard pile ---------------------------------------------------------------------------


def _snap(state, status: str = "running") -> Snapshot:
    row = TableRow(id=7, chat_key="tg:1", game="deal", ruleset=state.options.ruleset, status=status,
                         seats=[{"user": f"u{i}", "name": f"P{i}", "ai": False} for i in range(len(state.players))])
    return Snapshot(7, 1, row, DEAL, state)


def test_D18_only_current_player_sees_discard_pile():
    s = Table(3, "tournament").discard("pass_go", "birthday", "debt_collector").state()
    assert discard_pile_for(s, 0) == s.discard_pile
    assert discard_pile_for(s, 1) is None and discard_pile_for(s, None) is None
    public = view(s, 2)
    assert public["discard"] is None and public["discard_top"] == s.discard_pile[-1] and public["discard_count"] == 3
    s.turn_index = 1  # the next turn: the pile is the next player's to look through
    assert discard_pile_for(s, 1) == s.discard_pile and discard_pile_for(s, 0) is None
    st = Table(3).discard("pass_go").state()
    assert all(discard_pile_for(st, seat) == st.discard_pile for seat in (0, 1, 2, None))


SECRET = b"s" * 32


def _own(snap: Snapshot, seat: int):
    return private_view(SECRET, snap, seat, asks_of(snap))


def test_D18_a_press_gets_the_pile_or_a_clear_refusal():
    s = Table(3, "tournament").discard("pass_go", "birthday").state()
    snap = _snap(s)
    names = {i: f"P{i}" for i in range(3)}
    cards, text = discard_pile_answer(_own(snap, 0), names, "en")
    assert cards == s.discard_pile and "Pass Go" in text and "2" in text
    cards, text = discard_pile_answer(_own(snap, 1), names, "en")
    assert cards is None and "D-18" in text and "Pass Go" not in text
    assert discard_pile_answer(None, names, "en")[0] is None  # not a player


def _screens(snap: Snapshot):
    asks = asks_of(snap)
    public = public_view(SECRET, snap, asks)
    return (public_screen(public, "en", 0.0, pictures=False),
            {seat: private_screen(v, public.names, "en", pictures=False)
             for seat, v in private_views(SECRET, snap, asks).items()})


def test_D18_the_discard_pile_button_is_on_the_own_screen_only_when_allowed():
    s = Table(3, "tournament").discard("pass_go").state()
    public, private = _screens(_snap(s))
    pile = [b for b in private[0].buttons if b.token == "p:7"]
    assert pile == [Button("🗂 Discard pile", "p:7", 0)]
    assert not any(b.token == "p:7" for seat in (1, 2) for b in private[seat].buttons)
    assert not any(b.token == "p:7" for b in public.buttons)
    _, standard = _screens(_snap(Table(3).discard("pass_go").state()))
    assert all(any(b.token == "p:7" for b in standard[seat].buttons) for seat in (0, 1, 2))


# -- D-02 rebuilding the draw pile ------------------------------------------------------------------


def _low_pile(ruleset: str, left: int):
    """Seat 0 holds a Pass Go; the draw pile holds ``left`` cards, the discard pile all the rest."""
    s = Table(2, ruleset).hand(0, "pass_go").state(draw_pile=False)
    s.draw_pile = [s.discard_pile.pop() for _ in range(left)]
    return s


def _all_cards(s) -> list[int]:
    cards = s.draw_pile + s.discard_pile
    for p in s.players:
        cards += p.hand + p.bank
        for g in p.groups:
            cards += g.cards + [b for b in (g.house, g.hotel) if b is not None]
    return sorted(cards)


def test_D02_tournament_rebuilds_draw_pile_at_one_card():
    s = _low_pile("tournament", 1)
    last = s.draw_pile[0]
    discards = len(s.discard_pile) + 1  # the Pass Go goes on the pile before the draw
    events = DEAL.apply(s, 0, PlayPassGo(card=card_of(s, 0, "pass_go")))
    (shuffle,) = [e for e in events if isinstance(e, Reshuffled)]
    assert shuffle.count == discards + 1  # the last card is shuffled in with the discards
    assert s.discard_pile == [] and len(s.draw_pile) == discards + 1 - 2 and len(s.players[0].hand) == 2
    assert last in s.draw_pile + s.players[0].hand
    assert _all_cards(s) == list(range(N_CARDS))


def test_D02_standard_rebuilds_only_when_the_draw_pile_is_empty():
    s = _low_pile("standard", 1)
    last = s.draw_pile[0]
    discards = len(s.discard_pile) + 1
    events = DEAL.apply(s, 0, PlayPassGo(card=card_of(s, 0, "pass_go")))
    (shuffle,) = [e for e in events if isinstance(e, Reshuffled)]
    assert shuffle.count == discards and s.players[0].hand[0] == last  # the last card is drawn first
    s2 = _low_pile("standard", 2)
    assert not any(isinstance(e, Reshuffled) for e in DEAL.apply(s2, 0, PlayPassGo(card=card_of(s2, 0, "pass_go"))))


def test_D02_tournament_with_two_cards_left_draws_one_then_rebuilds():
    s = _low_pile("tournament", 2)
    top = s.draw_pile[-1]
    events = DEAL.apply(s, 0, PlayPassGo(card=card_of(s, 0, "pass_go")))
    assert s.players[0].hand[0] == top and sum(isinstance(e, Reshuffled) for e in events) == 1


def test_D02_the_rebuilt_pile_comes_from_the_seeded_generator():
    orders = []
    for _ in range(2):
        s = _low_pile("tournament", 1)
        DEAL.apply(s, 0, PlayPassGo(card=card_of(s, 0, "pass_go")))
        orders.append((list(s.draw_pile), list(s.players[0].hand)))
    assert orders[0] == orders[1]
    assert orders[0][0] != sorted(orders[0][0])  # shuffled, not left in order


# -- D-16 the clocks on the table message ----------------------------------------------------------


def _ask(seat: int, kind: str, policy: str, due: float | None, ai: bool) -> Ask:
    return Ask(seat, kind, "private", policy, due, ai, None)


def test_D16_table_shows_the_card_clock_and_the_match_clock():
    names = {0: "Ann", 1: "Bo"}
    waiting = [_ask(0, "play", "card", 1008.4, False), _ask(1, "respond", "response", 1020.0, False)]
    line = clock_line("en", names, waiting, 0, 1000.0 + 44 * 60 + 5, 1000.0)
    assert line == "⏱ Ann's card: 8 s · ⏱ Match: 44:05 left"
    relative = clock_line("en", names, waiting, 0, None, 1000.0, when=lambda due: f"<t:{int(due)}:R>")
    assert relative == "⏱ Ann's card: <t:1008:R>"


def test_D16_table_shows_the_turn_clock_of_the_player_on_turn_only():
    names = {0: "Ann", 1: "Bo"}
    assert clock_line("zh-Hans", names, [_ask(1, "end_turn", "turn", 160.0, False)], 1, None, 100.0) == \
        "⏱ Bo 的回合时限：60 秒"
    # an AI seat has no clock, and an answer out of turn has its own prompt
    assert clock_line("en", names, [_ask(0, "play", "turn", None, True)], 0, None, 100.0) is None
    assert clock_line("en", names, [_ask(1, "pay", "payment", 130.0, False)], 0, None, 100.0) is None


def test_D14_values_of_the_buildings_used_above():
    # the arithmetic the payment tests rely on: a Hotel is worth 4M, a House 3M (the printed cards)
    assert {KEY[c]: VALUE[c] for c in range(N_CARDS) if KEY[c] in ("house", "hotel")} == {"house": 3, "hotel": 4}


# -- D-16 the clocks reach the chats' table messages (issue 16 item 11) -----------------------------


async def test_D16_telegram_table_message_shows_the_card_and_match_clocks(tmp_path):
    """A Deal tournament table opened in a Telegram group: its table message carries the card clock
    of the player on turn and the match clock, counted from the service's clock."""
    from engine.service.tables import GameService
    from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI, _app, caption_of

    now = [1_700_000_000.0]
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}", clock=lambda: now[0])
    app = _app(service, api, lang="en", seed=0)
    try:
        async with app:
            table = await _telegram_tournament_table(app, api)
            on_turn = current_seat(service.cache.state(table))
            name = service.cache.row(table).seats[on_turn]["name"]
            shown = [caption_of(p) for api_name, p in api.calls
                     if api_name in ("sendPhoto", "editMessageMedia") and int(p["chat_id"]) == GROUP]
            assert shown, "the table message was posted in the group"
            card = t("en", "ui.clock.card", name=name, when=t("en", "ui.clock.seconds", seconds=10))
            assert card in shown[-1] and t("en", "ui.clock.match", left="45:00") in shown[-1]
    finally:
        await service.close()


async def test_D16_discord_table_message_counts_the_clocks_down_live(tmp_path, monkeypatch):
    """On Discord the card clock is a live ``<t:…:R>`` countdown next to the match clock."""
    from tests.bot.discord_app.test_discord import CHANNEL, click, dispatch, running_bot, slash
    from tests.fakes.discord_api import text_of

    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", 1, game="deal", ruleset="tournament"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        await dispatch(client, click(f"l:{table}:join", 2))
        await dispatch(client, click(f"l:{table}:start", 1))
        on_turn = current_seat(service.cache.state(table))
        name = service.cache.row(table).seats[on_turn]["name"]
        tables = [text_of(m) for (channel, _), m in fake.messages.items()
                  if channel == CHANNEL and t("en", "ui.clock.match", left="").split(":")[0] in text_of(m)]
        assert tables, "the table message shows the match clock"
        text = tables[-1]
        assert t("en", "ui.clock.card", name=name, when="<t:").split("<t:")[0] + "<t:" in text
        match = re.escape(t("en", "ui.clock.match", left="@")).replace("@", r"\d\d:\d\d")
        assert text.count(":R>") >= 1 and re.search(match, text)  # mm:ss left (the service runs on the real clock here)


async def test_D18_the_discard_pile_arrives_as_a_picture_in_the_private_chat_over_telegram(tmp_path):
    """D-18 over the Telegram fakes (tournament rules): on her own turn Ann presses "Discard pile"
    in her private chat and gets the pile as a picture with its list as the caption; Bob, whose
    turn it is not, gets the refusal as an alert and no picture."""
    from engine.service.tables import GameService
    from tests.bot.telegram_app.test_telegram import SIGNER, FakeBotAPI, _app, _send, press

    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=5)
    try:
        async with app:
            table = await _telegram_tournament_table(app, api)
            state = await _play_until_a_card_is_discarded(service, table)
            uid = {0: 1, 1: 2}[current_seat(state)]
            other = 3 - uid
            calls = len(api.calls)
            pile = SIGNER["sign"](f"p:{table}")  # the button on a player's private message
            await _send(app, press(pile, uid, chat=uid))
            photos = [p for name, p in api.calls[calls:] if name == "sendPhoto" and int(p["chat_id"]) == uid]
            assert len(photos) == 1, api.calls[calls:]
            names = deal_text.discard_pile_text(state.discard_pile, "en")
            assert photos[0]["caption"] == names
            calls = len(api.calls)
            await _send(app, press(pile, other, chat=other))
            assert not [p for name, p in api.calls[calls:] if name == "sendPhoto"]
            alerts = [p for name, p in api.calls[calls:] if name == "answerCallbackQuery"]
            assert alerts and alerts[-1].get("show_alert") and "D-18" in alerts[-1]["text"]
    finally:
        await service.close()


async def test_D18_the_discard_pile_arrives_as_a_picture_only_its_presser_sees_over_discord(tmp_path, monkeypatch):
    """D-18 over the Discord fakes (tournament rules): the player whose turn it is presses
    "Discard pile" and gets an ephemeral reply with the pile's picture attached and its list; the
    other player gets the refusal, ephemeral, with no picture."""
    from tests.bot.discord_app.test_discord import click, dispatch, running_bot, slash

    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", 1, game="deal", ruleset="tournament"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        await dispatch(client, click(f"l:{table}:join", 2))
        await dispatch(client, click(f"l:{table}:start", 1))
        assert service.cache.row(table).ruleset == "tournament"
        state = await _play_until_a_card_is_discarded(service, table)
        uid = int(service.cache.row(table).seats[current_seat(state)]["user"][3:])
        calls = len(fake.calls)
        await dispatch(client, click(f"p:{table}", uid))
        replies = [p for m, u, p in fake.calls[calls:] if m == "POST" and "/webhooks/" in u]
        assert len(replies) == 1 and replies[0]["flags"] & 64  # ephemeral: only the presser sees it
        assert [a["filename"] for a in replies[0]["attachments"]] == ["discard.png"]
        assert replies[0]["content"].startswith(deal_text.discard_pile_text(state.discard_pile, "en")[:40])
        calls = len(fake.calls)
        await dispatch(client, click(f"p:{table}", 3 - uid))
        replies = [p for m, u, p in fake.calls[calls:] if m == "POST" and "/webhooks/" in u]
        assert replies and not replies[-1].get("attachments") and "D-18" in replies[-1]["content"]


async def _telegram_tournament_table(app, api) -> int:
    """/newgame deal tournament by Ann in the group, Bob joins, Ann starts: the table's id."""
    from tests.bot.telegram_app.test_telegram import GROUP, _send, command, press

    await _send(app, command("/newgame deal tournament", 1))
    table = int(api.keyboards(GROUP)[0].split(":")[1])
    await _send(app, press(f"l:{table}:join", 2))
    await _send(app, press(f"l:{table}:start", 1))
    return table


async def _play_until_a_card_is_discarded(service, table: int):
    """Both seats play the AI's moves until a card lies on the discard pile and the turn's player
    is free to act: that state."""
    from engine.deal import ai as deal_ai

    for _ in range(400):
        state = service.cache.state(table)
        if state.discard_pile and state.phase == "play" and not state.pending:
            return state
        decision = DEAL.waiting_for(state)[0]
        assert (await service.act_as(table, decision.seat, deal_ai.choose(state, decision.seat))).ok
        await service.idle()
    raise AssertionError("no card was discarded in 400 moves")
