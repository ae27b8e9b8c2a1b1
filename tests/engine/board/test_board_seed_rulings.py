"""The 地产大亨 rulings of issue 16 (seeds 000 and 002): the doubles lock (B-02), a short auction
winner raising money (B-05), rent by claim (B-06), income tax on landing (B-08) and what a time-out
resolves before the valuation (B-17). Each in both rule sets where it applies."""

from __future__ import annotations

import msgspec
import pytest

from engine.board import BOARD, ai
from engine.board import model as m
from engine.board.data import board
from engine.board.rules import legal_actions, max_raisable, resolve_options, valuation, waiting_for
from engine.core.values import SYSTEM
from tests.board_builders import Dice, act, kinds, own, place, rejects, set_cash, table
from words import board_text
from words.i18n import t

RULESETS = ("china", "classic")
BROWN = (1, 3)
GREEN = (31, 32, 34)


def cash(s, seat):
    return s.players[seat].cash


def money(ruleset):
    return board(ruleset).money


def of_type(actions, kind):
    return [a for a in actions if isinstance(a, kind)]


# -- B-02 the doubles lock ------------------------------------------------------------------------


def _doubles_then_wait(ruleset):
    """Seat 0 owns brown (and a mortgaged station), seat 1 a mortgaged street; seat 0 rolls doubles
    from 8 to just visiting (10) and the table waits for the extra roll."""
    s = table(2, ruleset)
    own(s, 0, *BROWN)
    own(s, 0, 5, mortgaged=True)
    own(s, 1, 13, mortgaged=True)
    own(s, 1, 39)
    place(s, 0, 8)
    dice = Dice(s, (1, 1))
    act(s, 0, m.Roll())
    assert s.stage == "roll" and not s.rolled and s.players[0].position == 10
    return s, dice


def test_B02_no_building_between_doubles_and_extra_roll():
    s, dice = _doubles_then_wait("china")
    mine, theirs = legal_actions(s, 0), legal_actions(s, 1)
    assert m.Roll() in mine
    assert not of_type(mine, (m.BuildHouse, m.BuildRound, m.LiftMortgage))
    assert not of_type(theirs, m.LiftMortgage)
    rejects(s, 0, m.BuildHouse(square=1), "B-02")
    rejects(s, 0, m.BuildRound(group="brown"), "B-02")
    rejects(s, 0, m.LiftMortgage(square=5), "B-02")
    rejects(s, 1, m.LiftMortgage(square=13), "B-02")  # everyone, not only the roller
    err = rejects(s, 1, m.LiftMortgage(square=13), "B-02")
    assert err.key == "board.err.doubles_lock"
    # raising money stays open in the window
    assert m.Mortgage(square=39) in theirs
    act(s, 1, m.Mortgage(square=39))
    # the extra roll closes the window: 10 -> 13 (seat 1's, mortgaged: no rent), the turn passes
    dice.add((1, 2))
    act(s, 0, m.Roll())
    assert s.stage == "roll" and s.order[s.turn_index] == 1
    assert m.BuildHouse(square=1) in legal_actions(s, 0)
    act(s, 0, m.BuildHouse(square=1))
    act(s, 1, m.LiftMortgage(square=13))
    assert s.houses[1] == 1 and not s.mortgaged[13]


def test_B02_the_window_covers_the_doubles_roll_being_resolved():
    s = table(2, "china")
    own(s, 0, *BROWN)
    place(s, 0, 8)
    Dice(s, (2, 2))  # 8 -> 12, an unowned utility: the purchase decision
    act(s, 0, m.Roll())
    assert s.stage == "buy"
    act(s, 0, m.DeclineToBuy())
    act(s, 1, m.PassAuction())
    act(s, 0, m.PassAuction())
    assert s.stage == "roll" and not s.rolled
    rejects(s, 0, m.BuildHouse(square=1), "B-02")


def test_B02_classic_builds_between_doubles_and_extra_roll():
    s, _ = _doubles_then_wait("classic")
    assert m.BuildHouse(square=1) in legal_actions(s, 0)
    assert m.LiftMortgage(square=13) in legal_actions(s, 1)
    act(s, 0, m.BuildHouse(square=1))
    act(s, 1, m.LiftMortgage(square=13))
    assert s.houses[1] == 1 and not s.mortgaged[13]


def test_B02_doubles_out_of_jail_open_no_window():
    s = table(2, "china")
    own(s, 0, *BROWN)
    place(s, 0, 10)
    s.players[0].in_jail = True
    Dice(s, (3, 3))  # out on doubles to 16 (unowned): no extra roll follows
    act(s, 0, m.Roll())
    act(s, 0, m.DeclineToBuy())
    act(s, 1, m.PassAuction())
    act(s, 0, m.PassAuction())
    assert s.order[s.turn_index] == 1  # the turn passed
    act(s, 0, m.BuildHouse(square=1))


def test_B02_doubles_lock_is_the_china_default_and_an_option():
    assert resolve_options("china").doubles_lock is True
    assert resolve_options("classic").doubles_lock is False
    assert resolve_options(None).doubles_lock is True
    assert resolve_options({"ruleset": "china", "doubles_lock": False}).doubles_lock is False
    assert resolve_options({"ruleset": "classic", "doubles_lock": True}).doubles_lock is True
    assert resolve_options({"rent_claim": True}) == m.BoardOptions(ruleset="china", doubles_lock=True,
                                                                    rent_claim=True, received_mortgage_rulings=True)


def test_B02_old_snapshots_decode_without_the_new_fields():
    """A state stored before these options existed decodes, and plays as it did (no lock)."""
    s = table(3, "china")
    Dice(s, (1, 2))
    act(s, 0, m.Roll())
    act(s, 0, m.DeclineToBuy())
    doc = msgspec.json.decode(BOARD.encode_state(s))
    for key in ("doubles_lock", "rent_claim"):
        doc["options"].pop(key)
    doc.pop("rent_claims")
    doc["auction"].pop("settling")
    old = BOARD.decode_state(msgspec.json.encode(doc))
    assert old.options.doubles_lock is False and old.options.rent_claim is False
    assert old.rent_claims == [] and old.auction.settling is False
    assert msgspec.json.encode(m.Bid(amount=30)) == b'{"type":"bid","amount":30}'  # logs read as before


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("name", ["doubles_lock", "rent_claim"])
def test_B02_B06_options_have_toggle_labels(lang, name):
    for key in (f"opt.{name}", f"opt.{name}.help"):
        assert t(lang, key) != key


# -- B-05 a short auction winner raises money ----------------------------------------------------


def _auction_on_3(ruleset, players=3):
    s = table(players, ruleset)
    Dice(s, (1, 2))
    act(s, 0, m.Roll())
    act(s, 0, m.DeclineToBuy())
    assert s.stage == "auction"
    return s


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B05_auction_winner_may_raise_money(ruleset):
    s = _auction_on_3(ruleset)
    b = board(ruleset)
    set_cash(s, 2, 0)
    own(s, 2, 5)  # a station: its mortgage covers the bid
    bid = b.mortgage[5]
    act(s, 2, m.Bid(amount=bid))
    act(s, 0, m.PassAuction())
    events = act(s, 1, m.PassAuction())
    assert "AuctionVoided" not in kinds(events)
    assert s.stage == "debt" and s.debts[0].debtor == 2 and s.debts[0].amount == bid
    assert s.owner[3] == m.BANK and s.auction.settling  # not theirs before it is paid
    assert m.PayDebt() not in legal_actions(s, 2)
    rejects(s, 2, m.Mortgage(square=3), "B-14")  # the lot itself cannot pay for itself
    act(s, 2, m.Mortgage(square=5))
    events = act(s, 2, m.PayDebt())
    assert "AuctionWon" in kinds(events)
    assert s.owner[3] == 2 and s.auction is None and cash(s, 2) == 0 and s.stage == "roll"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B05_auction_winner_raises_money_automatically(ruleset):
    s = _auction_on_3(ruleset)
    b = board(ruleset)
    set_cash(s, 2, 10)
    own(s, 2, 5)
    act(s, 2, m.Bid(amount=b.mortgage[5]))
    act(s, 0, m.PassAuction())
    act(s, 1, m.PassAuction())
    assert waiting_for(s)[0].timeout == m.RaiseMoney()
    act(s, 2, m.RaiseMoney())
    assert s.mortgaged[5] and s.owner[3] == 2 and cash(s, 2) == 10


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B05_auction_void_only_when_even_raising_cannot_cover(ruleset):
    s = _auction_on_3(ruleset)
    b = board(ruleset)
    set_cash(s, 2, 0)
    own(s, 2, 5)
    act(s, 2, m.Bid(amount=b.mortgage[5] + b.money["min_bid_step"]))
    act(s, 0, m.PassAuction())
    events = act(s, 1, m.PassAuction())
    assert "AuctionVoided" in kinds(events)
    assert s.stage == "auction" and s.auction.excluded == [2] and sorted(s.auction.bidders) == [0, 1]
    assert not s.debts and not s.mortgaged[5]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B05_no_bid_beyond_reach_is_offered(ruleset):
    """A bidder is offered only bids it could pay (B-05 would void the auction); a bid beyond reach
    from an older game's log still reads with its warning."""
    s = _auction_on_3(ruleset)
    b = board(ruleset)
    set_cash(s, 2, 0)
    own(s, 2, 5)
    reach = max_raisable(s, 2)
    act(s, 1, m.Bid(amount=reach))
    assert of_type(legal_actions(s, 2), m.Bid) == [] and m.PassAuction() in legal_actions(s, 2)
    fine = of_type(legal_actions(s, 0), m.Bid)
    assert fine and all(x.amount <= max_raisable(s, 0) and not x.beyond_reach for x in fine)
    assert BOARD.view(s, 2)["bid_reach"][2] == reach
    beyond = m.Bid(amount=reach + b.money["min_bid_step"], beyond_reach=True)
    for lang in ("en", "zh-Hans", "zh-Hant"):
        warned = board_text.describe_action(BOARD.view(s, 2), beyond, lang, {}, ruleset)
        plain = board_text.describe_action(BOARD.view(s, 2), m.Bid(amount=beyond.amount), lang, {}, ruleset)
        assert "⚠" in warned and "⚠" not in plain
    act(s, 2, beyond)  # typed in (or from an old log): never refused, the bidder's risk (B-05 then voids)
    assert s.auction.high_bidder == 2


def test_B04_a_2000_station_auction_between_two_ends_within_ten_bids_at_the_offered_steps():
    """Both want the station up to its printed price and always press the least bid offered: the
    bids are scaled to the price (a tenth of it a step), so it is sold within ten bids, not two hundred."""
    s = table(2, "china")
    b = board("china")
    assert b.price[5] == 2000
    Dice(s, (2, 3))
    act(s, 0, m.Roll())
    act(s, 0, m.DeclineToBuy())
    bids, events = 0, []
    while s.stage == "auction":
        seat = waiting_for(s)[0].seat
        offered = of_type(legal_actions(s, seat), m.Bid)
        assert all(x.amount <= max_raisable(s, seat) for x in offered)  # nothing it could not pay
        fit = [x for x in offered if x.amount <= b.price[5]]
        if not fit:
            events += act(s, seat, m.PassAuction())
            continue
        events += act(s, seat, fit[0])
        bids += 1
    assert bids <= 10 and "AuctionWon" in kinds(events)


def test_B05_bid_steps_reach_what_a_property_can_raise():
    s = _auction_on_3("china")
    set_cash(s, 2, 0)
    own(s, 2, 39)  # mortgage 2,000
    amounts = [x.amount for x in of_type(legal_actions(s, 2), m.Bid)]
    assert max(amounts) > 0 and all(a <= 2000 for a in amounts) and len(amounts) > 1


# -- B-06 rent by claim (seed 000) ----------------------------------------------------------------


def _land_on_claim(ruleset, players=3, dice=(1, 2)):
    """Seat 1 owns brown; seat 0 lands on 3 with rent by claim on."""
    s = table(players, {"ruleset": ruleset, "rent_claim": True})
    own(s, 1, *BROWN)
    d = Dice(s, dice)
    events = act(s, 0, m.Roll())
    return s, d, events


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B06_rent_claim_owner_collects(ruleset):
    s, _, events = _land_on_claim(ruleset)
    rent = board(ruleset).rent[3][0] * 2
    assert "Paid" not in kinds(events) and "RentDue" in kinds(events)
    assert s.rent_claims == [m.RentClaim(owner=1, payer=0, square=3, amount=rent)]
    first = waiting_for(s)[0]
    assert (first.seat, first.kind, first.timeout) == (1, "rent", m.ForgoRent(square=3))
    assert BOARD.answers(first, legal_actions(s, 1)) == [m.CollectRent(square=3), m.ForgoRent(square=3)]
    before = cash(s, 0), cash(s, 1)
    act(s, 1, m.CollectRent(square=3))
    assert (cash(s, 0), cash(s, 1)) == (before[0] - rent, before[1] + rent)
    assert not s.rent_claims
    rejects(s, 1, m.CollectRent(square=3), "B-06")  # once only


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B06_rent_claim_lapses_when_next_player_rolls(ruleset):
    s, dice, _ = _land_on_claim(ruleset)
    assert s.order[s.turn_index] == 1  # seat 0's turn is over, the claim still open
    dice.add((2, 3))
    events = act(s, 1, m.Roll())
    assert "RentLapsed" in kinds(events) and not s.rent_claims
    before = cash(s, 0)
    rejects(s, 1, m.CollectRent(square=3), "B-06")
    assert cash(s, 0) == before


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B06_rent_claim_survives_the_payers_extra_roll(ruleset):
    s = table(3, {"ruleset": ruleset, "rent_claim": True})
    own(s, 1, *BROWN)
    place(s, 0, 1)
    Dice(s, (1, 1), (3, 4))  # 1 -> 3 on doubles: rent due; the extra roll 3 -> 10
    act(s, 0, m.Roll())
    assert len(s.rent_claims) == 1 and s.order[s.turn_index] == 0
    act(s, 0, m.Roll())
    assert len(s.rent_claims) == 1  # the payer's own extra roll does not end it
    act(s, 1, m.CollectRent(square=3))
    assert not s.rent_claims


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B06_rent_claim_forgone_by_the_owner_or_its_clock(ruleset):
    s, _, _ = _land_on_claim(ruleset)
    assert BOARD.timeout_action(s, 1) == m.ForgoRent(square=3)
    before = cash(s, 0)
    events = act(s, 1, m.ForgoRent(square=3))
    assert "RentLapsed" in kinds(events) and cash(s, 0) == before and not s.rent_claims


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B06_ai_owner_claims_at_once(ruleset):
    s, _, _ = _land_on_claim(ruleset)
    assert ai.choose(s, 1) == m.CollectRent(square=3)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B06_rent_claimed_from_a_short_payer_opens_a_debt(ruleset):
    s, _, _ = _land_on_claim(ruleset)
    set_cash(s, 0, 0)
    own(s, 0, 39)
    act(s, 1, m.CollectRent(square=3))
    assert s.stage == "debt" and s.debts[0].debtor == 0 and s.debts[0].creditor == 1


def test_B06_rent_is_charged_at_once_without_the_option():
    s = table(2, "china")
    own(s, 1, *BROWN)
    Dice(s, (1, 2))
    events = act(s, 0, m.Roll())
    assert "Paid" in kinds(events) and not s.rent_claims and "RentDue" not in kinds(events)


# -- B-08 income tax on landing only -------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B08_income_tax_on_landing_not_on_passing(ruleset):
    s = table(2, ruleset)
    place(s, 0, 3)
    Dice(s, (1, 1), (1, 2))  # 3 -> 5 passes the tax square (4); then 5 -> 8
    start = cash(s, 0)
    act(s, 0, m.Roll())
    assert cash(s, 0) == start and s.stage == "buy"
    s2 = table(2, ruleset)
    place(s2, 0, 2)
    Dice(s2, (1, 1))  # 2 -> 4: landing
    act(s2, 0, m.Roll())
    assert cash(s2, 0) == start - money(ruleset)["income_tax"]


# -- B-17 what a time-out resolves first ---------------------------------------------------------


def _rent_debt(ruleset, players=2):
    """Seat 1 owns green whole (double rent); seat 0, with 220 (classic 22) cash and a street to
    mortgage, lands on 31 and owes more than its cash (the case scored 220 / 1,900)."""
    s = table(players, ruleset)
    own(s, 1, *GREEN)
    set_cash(s, 0, money(ruleset)["start"] // 68)  # 220 in china
    own(s, 0, 39)
    place(s, 0, 28)
    Dice(s, (1, 2))
    act(s, 0, m.Roll())
    assert s.stage == "debt"
    return s


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_rent_debt_settled_before_valuation(ruleset):
    s = _rent_debt(ruleset, players=3)
    rent = s.debts[0].amount
    creditor_before = cash(s, 1)
    events = act(s, SYSTEM, m.EndMatch())
    assert s.stage == "over" and s.end_reason == "time"
    assert "WentBankrupt" not in kinds(events)
    assert cash(s, 1) == creditor_before + rent
    over = next(e for e in events if isinstance(e, m.GameOver))
    assert over.scores == valuation(s) and over.scores[1] >= creditor_before + rent


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_unpayable_debt_bankrupts_to_the_creditor_before_valuation(ruleset):
    s = _rent_debt(ruleset, players=3)
    s.owner[39] = m.BANK  # nothing left to raise money with
    left = cash(s, 0)
    creditor_before = cash(s, 1)
    events = act(s, SYSTEM, m.EndMatch())
    assert "WentBankrupt" in kinds(events) and s.players[0].bankrupt
    assert cash(s, 1) == creditor_before + left
    assert 0 not in s.winners and set(valuation(s)) == {1, 2}


def test_B17_last_debt_leaving_one_player_ends_by_last_player():
    s = _rent_debt("china", players=2)
    s.owner[39] = m.BANK
    act(s, SYSTEM, m.EndMatch())
    assert s.end_reason == "last_player" and s.winners == [1]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_running_auction_decided_with_the_standing_bid(ruleset):
    s = _auction_on_3(ruleset)
    bid = 10 * money(ruleset)["min_bid_step"]
    act(s, 1, m.Bid(amount=bid))  # seats 0 and 2 are still in when time runs out
    before = cash(s, 1)
    events = act(s, SYSTEM, m.EndMatch())
    assert "AuctionWon" in kinds(events) and s.owner[3] == 1 and cash(s, 1) == before - bid
    over = next(e for e in events if isinstance(e, m.GameOver))
    assert over.scores[1] == before - bid + board(ruleset).price[3]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_auction_high_bidder_raises_money_at_time_out(ruleset):
    s = _auction_on_3(ruleset)
    set_cash(s, 1, 0)
    own(s, 1, 5)
    act(s, 1, m.Bid(amount=board(ruleset).mortgage[5]))
    act(s, SYSTEM, m.EndMatch())
    assert s.owner[3] == 1 and s.mortgaged[5] and s.end_reason == "time"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_auction_nobody_can_pay_leaves_the_lot_with_the_bank(ruleset):
    s = _auction_on_3(ruleset)
    set_cash(s, 1, 0)
    act(s, 1, m.Bid(amount=money(ruleset)["min_bid_step"] * 5))
    events = act(s, SYSTEM, m.EndMatch())
    assert "AuctionVoided" in kinds(events) and "AuctionUnsold" in kinds(events)
    assert s.owner[3] == m.BANK and s.stage == "over"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_auction_winner_settling_at_time_out_pays_or_gives_up(ruleset):
    s = _auction_on_3(ruleset)
    set_cash(s, 2, 0)
    own(s, 2, 5)
    act(s, 2, m.Bid(amount=board(ruleset).mortgage[5]))
    act(s, 0, m.PassAuction())
    act(s, 1, m.PassAuction())
    assert s.stage == "debt" and s.auction.settling
    act(s, SYSTEM, m.EndMatch())
    assert s.owner[3] == 2 and s.mortgaged[5]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_unclaimed_rent_lapses_at_time_out(ruleset):
    s, _, _ = _land_on_claim(ruleset)
    before = cash(s, 0)
    events = act(s, SYSTEM, m.EndMatch())
    assert "RentLapsed" in kinds(events) and cash(s, 0) == before and not s.rent_claims


@pytest.mark.parametrize("ruleset", RULESETS)
def test_B17_income_tax_awaiting_the_choice_is_charged_flat(ruleset):
    s = table(2, {"ruleset": ruleset, "income_tax_choice": True})
    place(s, 0, 2)
    Dice(s, (1, 1))
    act(s, 0, m.Roll())
    assert s.stage == "tax"
    before = cash(s, 0)
    act(s, SYSTEM, m.EndMatch())
    assert cash(s, 0) == before - money(ruleset)["income_tax"]


async def test_B06_the_owner_gets_a_collect_rent_button_on_the_table_message(tmp_path):
    """With ``rent_claim`` switched on in the lobby, a chat's table message carries the owner's
    "Collect … rent" button (and the forgo one) while the claim is open, in every language."""
    from engine.games import GAMES
    from engine.service.tables import GameService
    from tests.bot.chat.test_screens import table_screens

    service = await GameService.open(f"sqlite:///{tmp_path / 'claim.db'}")
    try:
        out = await service.lobby.new_table("chat:claim", "board", None, "u0", "Ann", options={"rent_claim": True})
        await service.lobby.join(out.table, "u1", "Bob")
        assert (await service.lobby.start(out.table, "u0", seed=3)).ok
        table = out.table
        claim = None
        for _ in range(600):
            await service.idle()
            state = service.cache.state(table)
            claim = next((d for d in BOARD.waiting_for(state) if d.kind == "rent"), None)
            if claim is not None or service.cache.row(table).status != "running":
                break
            decision = BOARD.waiting_for(state)[0]
            action = GAMES["board"].choose_listed(state, decision.seat)
            token = next(tok for a, tok in service.buttons(table, decision.seat) if a == action)
            assert (await service.act(service.cache.row(table).seats[decision.seat]["user"], token)).ok
        assert claim is not None, "somebody landed on an owned street"
        (rent,) = service.cache.state(table).rent_claims
        names = {i: s["name"] for i, s in enumerate(service.cache.row(table).seats)}
        view = BOARD.view(service.cache.state(table), None)
        for lang in ("en", "zh-Hans", "zh-Hant"):
            labels = [b.label for b in table_screens(service, table, (), lang).public.buttons if b.seat == claim.seat]
            for action in (m.CollectRent(square=rent.square), m.ForgoRent(square=rent.square)):
                label = board_text.describe_action(view, action, lang, names, "china")
                assert f"{names[claim.seat]}: {label}" in labels
    finally:
        await service.close()
