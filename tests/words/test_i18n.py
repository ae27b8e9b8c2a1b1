"""The message catalogues and the Deal text presenter: complete, consistent and readable.

Every refusal the engine can raise must read as a sentence in all three languages; a key that
exists only in the engine would show players a raw ``deal.err.…`` string.
"""

from __future__ import annotations

import ast

import pytest

from engine.board import BOARD
from engine.board.model import BuildHouse
from engine.core.errors import RuleError
from engine.deal import DEAL
from engine.deal.cards import CARDS
from engine.deal.model import Discarded, Drew, EndTurn
from engine.deal.rules import current_seat
from tests.paths import ROOT
from words import i18n
from words.board_text import explain_error as explain_board_error
from words.board_text import money, square_name
from words.deal_text import card_name, describe_action, describe_event, explain_error, render_table
from words.i18n import CATALOGUES, LANGS, normalise_lang, placeholders, t

ENGINE = ROOT / "engine"


def _rule_error_keys() -> set[str]:
    """String constants passed as the second positional argument of ``RuleError(...)``, plus any
    ``deal.err.*`` constant chosen into a variable first (``key = "a" if x else "b"``)."""
    keys: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name == "RuleError" and len(node.args) >= 2:
                    arg = node.args[1]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        keys.add(arg.value)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value.startswith("deal.err."):
                    keys.add(node.value)
    return keys


ERROR_KEYS = _rule_error_keys()

BOARD_STAGES = ("roll", "buy", "auction", "debt", "tax", "shortage", "over")


def _board_error_keys() -> tuple[set[str], set[str]]:
    """Every ``board.err.*`` string constant in engine/board (``_no(...)``, ``RuleError(...)`` or a
    variable), and the prefixes of f-string keys (``f"board.err.stage_{state.stage}"``)."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in (ENGINE / "board").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        in_fstring = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("board.err."):
                (prefixes if id(node) in in_fstring else keys).add(node.value)
    return keys, prefixes


BOARD_KEYS, BOARD_KEY_PREFIXES = _board_error_keys()
BOARD_STAGE_KEYS = {f"board.err.stage_{stage}" for stage in BOARD_STAGES}


def test_engine_keys_were_found():
    assert "deal.err.not_your_turn" in ERROR_KEYS
    assert "deal.err.pay_not_enough" in ERROR_KEYS  # raised in engine/deal/payment.py
    assert "deal.err.pay_multicolour" in ERROR_KEYS


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_error_key_is_translated(lang):
    missing = sorted(k for k in ERROR_KEYS if not CATALOGUES[lang].get(k))
    assert not missing, f"{lang} lacks {missing}"


def test_board_keys_were_found():
    assert {"board.err.build_evenly", "board.err.not_your_property", "board.err.bid_too_low"} <= BOARD_KEYS
    assert {"board.err.stage_"} == BOARD_KEY_PREFIXES  # the one f-string key: the stage keys cover it


def _board_refusal_params() -> list[tuple[str, set[str]]]:
    """(key, parameter names) of every ``_no(...)`` and ``RuleError(...)`` call in engine/board."""
    calls = []
    for path in (ENGINE / "board").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Call) and len(node.args) >= 2:
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                key = node.args[1]
                if name in ("_no", "RuleError") and isinstance(key, ast.Constant) and isinstance(key.value, str):
                    calls.append((key.value, {kw.arg for kw in node.keywords if kw.arg}))
    return calls


@pytest.mark.parametrize("lang", LANGS)
def test_board_messages_use_only_the_parameters_the_engine_passes(lang):
    calls = _board_refusal_params()
    assert len(calls) > 40
    for key, params in calls:
        extra = placeholders(CATALOGUES[lang].get(key, "")) - params
        assert not extra, f"{lang} {key}: {extra} is never passed by the engine"
    for key in BOARD_STAGE_KEYS:
        assert not placeholders(CATALOGUES[lang][key]), key


@pytest.mark.parametrize("lang", LANGS)
def test_every_board_error_key_is_translated(lang):
    missing = sorted(k for k in BOARD_KEYS | BOARD_STAGE_KEYS if not CATALOGUES[lang].get(k))
    assert not missing, f"{lang} lacks {missing}"


def test_catalogues_have_identical_keys():
    en = set(CATALOGUES["en"])
    for lang in LANGS:
        assert set(CATALOGUES[lang]) == en, lang


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match_english(lang):
    for key, text in CATALOGUES[lang].items():
        extra = placeholders(text) - placeholders(CATALOGUES["en"][key])
        assert not extra, f"{lang} {key}: {extra} not in the English string"


@pytest.mark.parametrize("code, expected", [
    (None, "en"), ("", "en"), ("en", "en"), ("en-US", "en"), ("en_GB", "en"), ("fr", "en"), ("ja-JP", "en"),
    ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-hans", "zh-Hans"),
    ("zh_Hans_CN", "zh-Hans"), ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"),
    ("zh-hant", "zh-Hant"), ("zh-Hant-HK", "zh-Hant"), ("ZH-tw", "zh-Hant"),
])
def test_normalise_lang(code, expected):
    assert normalise_lang(code) == expected


def test_t_falls_back_to_english_then_to_the_key(monkeypatch):
    key = "deal.err.not_in_hand"
    monkeypatch.delitem(i18n.CATALOGUES["zh-Hant"], key)
    assert t("zh-Hant", key, card="X") == CATALOGUES["en"][key].format(card="X")
    assert t("zh-Hant", "no.such.key") == "no.such.key"


def test_t_leaves_missing_params_visible_and_never_raises():
    assert "{card}" in t("en", "deal.err.not_in_hand")
    partly = t("en", "deal.err.pay_not_enough", total=3)
    assert "3M" in partly and "{amount}" in partly


def test_t_accepts_platform_codes():
    assert t("zh-TW", "deal.ui.game_over") == CATALOGUES["zh-Hant"]["deal.ui.game_over"]


@pytest.mark.parametrize("lang", LANGS)
def test_explain_a_real_error(lang):
    state = DEAL.new_game(3, "standard", 1)
    current = current_seat(state)
    other = (current + 1) % 3
    names = {0: "Ada", 1: "Bo", 2: "Cy"}
    with pytest.raises(RuleError) as caught:
        DEAL.apply(state, other, EndTurn())
    text = explain_error(caught.value, lang, names)
    assert text and "{" not in text
    assert names[current] in text  # the seat number became the player's name
    assert caught.value.rule in text


@pytest.mark.parametrize("lang", LANGS)
def test_card_params_become_card_names(lang):
    err = RuleError("D-03", "deal.err.not_in_hand", card=0)
    text = explain_error(err, lang, {})
    assert card_name(0, lang) in text and "{" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_someone_elses_draw_is_not_named(lang):
    names = {0: "Ada", 1: "Bo"}
    cards = [_card("property_vermont"), _card("sly_deal")]
    drawn = Drew(seat=1, count=2, cards=cards)
    for viewer in (0, None):
        text = describe_event(drawn, lang, names, viewer)
        assert "Bo" in text
        assert not any(card_name(c, lang) in text for c in cards), text
    own = describe_event(drawn, lang, names, 1)
    assert all(card_name(c, lang) in own for c in cards)


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_put_under_the_pile_is_not_named(lang):
    event = Discarded(seat=1, card=60, to_pile="draw_bottom")
    assert card_name(60, lang) not in describe_event(event, lang, {}, 0)
    assert card_name(60, lang) in describe_event(event, lang, {}, 1)


def _card(key: str) -> int:
    return next(c.id for c in CARDS if c.key == key)


def _one_of_each_action():
    from engine.deal import model as m

    ten, pass_go, house, jsn = _card("money_10"), _card("pass_go"), _card("house"), _card("just_say_no")
    vermont, conn, wild = _card("property_vermont"), _card("property_connecticut"), _card("wild_any")
    return [
        m.EndTurn(), m.BankCard(card=ten), m.BankCard(card=pass_go),
        m.LayProperty(card=vermont, colour="light_blue"), m.LayProperty(card=vermont, colour="light_blue", group=0),
        m.LayProperty(card=wild, colour=None), m.MoveProperty(card=vermont, colour="light_blue", group=0),
        m.MoveProperty(card=wild, colour=None),
        m.MoveProperty(card=vermont, colour="light_blue", group=0, replace=wild),
        m.PlayPassGo(card=pass_go), m.PlayBuilding(card=house, group=0),
        m.PlayDebtCollector(card=_card("debt_collector"), target=1), m.PlayBirthday(card=_card("birthday")),
        m.PlayRent(card=_card("rent_dark_blue_green"), group=0),
        m.PlayRent(card=_card("rent_wild"), group=0, target=1, doubles=(_card("double_rent"),)),
        m.PlaySlyDeal(card=_card("sly_deal"), target=1, take=vermont),
        m.PlayForcedDeal(card=_card("forced_deal"), give=vermont, target=1, take=conn),
        m.PlayDealBreaker(card=_card("deal_breaker"), target=1, group=0), m.JustSayNo(demand=1, card=jsn),
        m.Accept(demand=1), m.TogglePayment(demand=1, card=ten), m.ConfirmPayment(demand=1), m.AutoPay(demand=1),
        m.PlaceBuilding(demand=1, card=house, group=0), m.PlaceBuilding(demand=1, card=house, group=None),
        m.Discard(card=ten), m.EndMatch(),
    ]


def _one_of_each_event():
    from engine.deal import model as m

    ten, pass_go, house, rent = _card("money_10"), _card("pass_go"), _card("house"), _card("rent_dark_blue_green")
    vermont, conn, wild = _card("property_vermont"), _card("property_connecticut"), _card("wild_any")
    doubles = [c.id for c in CARDS if c.action == "double_rent"]
    return [
        m.GameStarted(order=[1, 0]), m.GameStarted(order=[0, 1], rolls=[[0, 3, 4], [1, 1, 2]]),
        m.TurnStarted(seat=0, turn=1), m.Drew(seat=0, count=2, cards=[ten, vermont]), m.Drew(seat=0, count=0),
        m.Reshuffled(count=30), m.Banked(seat=0, card=ten), m.Banked(seat=0, card=pass_go),
        m.PropertyLaid(seat=0, card=vermont, colour="light_blue", group=0),
        m.PropertyMoved(seat=0, card=wild, colour=None, group=1),
        m.ActionPlayed(seat=0, card=pass_go, action="pass_go"),
        m.ActionPlayed(seat=0, card=house, action="house", colour="red"),
        m.ActionPlayed(seat=0, card=_card("debt_collector"), action="debt_collector", targets=[1], amount=5),
        m.ActionPlayed(seat=0, card=_card("birthday"), action="birthday", targets=[1, 2], amount=2),
        m.ActionPlayed(seat=0, card=rent, action="rent", targets=[1], colour="green", amount=2),
        m.ActionPlayed(seat=0, card=rent, action="rent", targets=[1], colour="green", amount=8, doubles=doubles),
        m.ActionPlayed(seat=0, card=_card("sly_deal"), action="sly_deal", targets=[1]),
        m.ActionPlayed(seat=0, card=_card("forced_deal"), action="forced_deal", targets=[1]),
        m.ActionPlayed(seat=0, card=_card("deal_breaker"), action="deal_breaker", targets=[1], colour="red"),
        m.DemandOpened(demand=1, kind="rent", attacker=0, target=1, amount=4),
        m.DemandOpened(demand=1, kind="sly_deal", attacker=0, target=1),
        m.SaidNo(demand=1, seat=1, card=_card("just_say_no"), refusals=1), m.DemandCancelled(demand=1),
        m.Paid(demand=1, payer=1, payee=0, cards=[ten, vermont], total=11),
        m.Paid(demand=1, payer=1, payee=0, cards=[], total=0),
        m.PropertyTaken(demand=1, from_seat=1, to_seat=0, cards=[vermont, conn]),
        m.BuildingPlaced(seat=0, card=house, group=0), m.BuildingPlaced(seat=0, card=house, group=None),
        m.Discarded(seat=0, card=ten, to_pile="draw_bottom"), m.Discarded(seat=0, card=ten, to_pile="discard"),
        m.TurnEnded(seat=0), m.GameOver(winners=[0], reason="sets"), m.GameOver(winners=[0, 1], reason="time"),
        m.GameOver(winners=[], reason="turn_cap"),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_action_and_event_type_has_words(lang):
    from engine.deal.model import DealAction, DealEvent

    state = DEAL.new_game(3, "standard", 1)
    names = {0: "Ada", 1: "Bo", 2: "Cy"}
    actions = _one_of_each_action()
    assert {type(a) for a in actions} == set(DealAction.__args__)
    for action in actions:
        label = describe_action(DEAL.view(state, 0), action, lang, names)
        assert label and "{" not in label and label != type(action).__name__, (action, label)
        assert describe_action(state, action, lang, names)  # a raw state works too
    events = _one_of_each_event()
    assert {type(e) for e in events} == set(DealEvent.__args__)
    for event in events:
        line = describe_event(event, lang, names, 0)
        assert line and "{" not in line and line != type(event).__name__, (event, line)


@pytest.mark.parametrize("lang", LANGS)
def test_table_shows_a_hand_only_to_its_owner(lang):
    state = DEAL.new_game(3, "standard", 2)
    names = {0: "Ada", 1: "Bo", 2: "Cy"}
    hand_label = t(lang, "deal.ui.hand")
    own = render_table(DEAL.view(state, 0), lang, names)
    public = render_table(DEAL.view(state, None), lang, names)
    assert hand_label in own and hand_label not in public
    for name in names.values():
        assert name in own and name in public
    assert "{" not in own + public


@pytest.mark.parametrize("lang", LANGS)
def test_explain_a_real_board_error(lang):
    state = BOARD.new_game(2, "china", 1)
    with pytest.raises(RuleError) as caught:
        BOARD.apply(state, 0, BuildHouse(square=1))  # nobody owns 东山 yet
    err = caught.value
    assert err.key == "board.err.not_your_property"
    text = explain_board_error(err, lang, "china", {0: "Ada", 1: "Bo"})
    assert text and "{" not in text
    assert square_name("china", 1, lang) in text
    assert err.rule in text
    if lang == "zh-Hans":
        assert "东山" in text


@pytest.mark.parametrize("lang", LANGS)
def test_board_params_become_names_and_money(lang):
    names = {0: "Ada", 1: "Bo"}
    err = RuleError("B-04", "board.err.cannot_afford_buy", amount=2000, square=5)
    text = explain_board_error(err, lang, "china", names)
    assert square_name("china", 5, lang) in text and money("china", 2000, lang) in text and "{" not in text
    turn = explain_board_error(RuleError("B-02", "board.err.not_your_turn", current=1), lang, "classic", names)
    assert "Bo" in turn and "{" not in turn


@pytest.mark.parametrize("ruleset, lang, amount, expected", [
    ("china", "en", 2000, "¥2,000"), ("china", "zh-Hans", 2000, "2,000元"), ("china", "zh-Hant", 2000, "2,000元"),
    ("china", "zh-TW", 500, "500元"), ("classic", "en", 200, "$200"), ("classic", "zh-Hans", 1500, "$1,500"),
    ("classic", "zh-Hant", 200, "$200"),
])
def test_money(ruleset, lang, amount, expected):
    assert money(ruleset, amount, lang) == expected


def test_square_names_come_from_the_board_data():
    assert square_name("china", 1, "zh-Hans") == "东山"
    assert square_name("china", 1, "zh-Hant") == "東山"
    assert square_name("china", 1, "en") == "Dongshan"
    assert square_name("classic", 1, "en") == "Mediterranean Avenue"
    assert square_name("china", 40, "en") == "#40"  # no such square: still readable, never raises


# -- 地产大亨: labels, log lines and the text board -------------------------------------------------


BOARD_NAMES = {0: "Ada", 1: "Bo", 2: "Cy"}


def _board_mid_game(ruleset: str = "china", seed: int = 4, actions: int = 300):
    """A 3-player AI game stopped after ``actions`` moves, still running."""
    from engine.board import ai as board_ai

    state = BOARD.new_game(3, ruleset, seed)
    for _ in range(actions):
        decisions = BOARD.waiting_for(state)
        if not decisions or BOARD.result(state).over:
            break
        seat = decisions[0].seat
        BOARD.apply(state, seat, board_ai.choose(state, seat))
    assert not BOARD.result(state).over
    return state


def _busy_board_view(state) -> dict:
    """A view with everything a table can wait for at once (the rules hold one stage at a time;
    the presenter must word each of them): a purchase, an auction, a debt, offers, a shortage."""
    import msgspec

    from engine.board import model as m

    view = BOARD.view(state, 0)
    view["squares"] = [dict(s, houses=4) if s["index"] == 1 else s for s in view["squares"]]
    view["buy_square"] = 5
    view["auction"] = msgspec.to_builtins(m.Auction(kind="property", square=5, bidders=[0, 1], opening=10,
                                                    high_bid=200, high_bidder=1))
    view["min_bid"] = 210
    view["debts"] = [msgspec.to_builtins(m.Debt(debtor=0, creditor=1, amount=300, reason="rent"))]
    view["trades"] = [msgspec.to_builtins(m.Trade(id=7, proposer=1, target=0, give=[3], get=[6, 8],
                                                  give_cash=100, get_cards=1))]
    view["shortage"] = msgspec.to_builtins(m.Shortage(building="hotel", initiator=1, asked=[0], wanters={1: 3}))
    return view


def _one_of_each_board_action():
    from engine.board import model as m

    return [
        m.Roll(), m.PayJailFine(), m.UseJailCard(), m.Buy(), m.DeclineToBuy(), m.Bid(amount=220), m.PassAuction(),
        m.PayTax(choice="flat"), m.PayTax(choice="percent"), m.BuildHouse(square=1), m.BuildHouse(square=3),
        m.SellBuilding(square=1), m.SellGroupBuildings(group="brown"), m.BuildRound(group="brown"),
        m.Mortgage(square=5), m.LiftMortgage(square=5),
        m.ProposeTrade(target=1, give=(1,), get=(3,), give_cash=50, get_cards=2),
        m.ProposeTrade(target=2, give_cards=1, get_cash=500), m.AcceptTrade(trade=7), m.RejectTrade(trade=7),
        m.CancelTrade(trade=7), m.PayDebt(), m.RaiseMoney(), m.DeclareBankruptcy(), m.JoinShortage(street=3),
        m.DeclineShortage(), m.EndMatch(reason="turn_cap"), m.CollectRent(square=1), m.ForgoRent(square=1),
        m.Bid(amount=9000, beyond_reach=True),
    ]


def _one_of_each_board_event():
    from engine.board import model as m

    trade = m.Trade(id=3, proposer=0, target=1, give=[1], get_cash=700)
    return [
        m.GameStarted(order=[1, 0, 2]), m.GameStarted(order=[0, 1], rolls=[[0, 6, 5], [1, 2, 2]]),
        m.TurnStarted(seat=0, turn=1), m.DiceRolled(seat=0, dice=[3, 4]), m.DiceRolled(seat=0, dice=[2, 2]),
        m.Moved(seat=0, start=35, to=2, passed_go=True), m.SalaryPaid(seat=0, amount=2000),
        m.WentToJail(seat=0, reason="square"), m.WentToJail(seat=0, reason="card"),
        m.WentToJail(seat=0, reason="doubles"), m.LeftJail(seat=0, how="fine"), m.LeftJail(seat=0, how="card"),
        m.LeftJail(seat=0, how="doubles"), m.LeftJail(seat=0, how="third_try"), m.StayedInJail(seat=0, tries=2),
        m.CardDrawn(seat=0, deck="chance", card=0), m.CardDrawn(seat=0, deck="chest", card=3),
        m.Bought(seat=0, square=1, price=600),
        m.AuctionOpened(kind="property", square=1, opening=10, bidders=[0, 1, 2]),
        m.AuctionOpened(kind="house", square=-1, opening=500, bidders=[0, 1]), m.BidMade(seat=1, amount=30),
        m.AuctionPassed(seat=2), m.AuctionWon(seat=1, square=1, amount=30),
        m.AuctionWon(seat=1, square=3, amount=600, kind="hotel"), m.AuctionVoided(seat=1, amount=9000),
        m.AuctionUnsold(square=1), m.AuctionUnsold(square=-1),
        m.Paid(payer=0, payee=1, amount=50, reason="rent"), m.Paid(payer=-1, payee=0, amount=2000, reason="salary"),
        m.Paid(payer=0, payee=-1, amount=200, reason="something_new"),
        m.DebtOpened(debtor=0, creditor=-1, amount=1500, reason="repairs"), m.Built(seat=0, square=1, houses=1),
        m.Built(seat=0, square=1, houses=5), m.BuildingSold(seat=0, square=1, houses=0, refund=250),
        m.BuildingSold(seat=0, square=1, houses=3, refund=250), m.Mortgaged(seat=0, square=5, amount=1000),
        m.MortgageLifted(seat=0, square=5, amount=1100), m.TradeProposed(trade=trade),
        m.TradeClosed(trade=3, outcome="accepted"), m.TradeClosed(trade=3, outcome="rejected"),
        m.TradeClosed(trade=3, outcome="cancelled"), m.TradeClosed(trade=3, outcome="expired"),
        m.PropertyTransferred(square=1, from_seat=0, to_seat=1),
        m.ShortageCalled(building="house", initiator=0, asked=[1, 2], bank=2), m.WentBankrupt(seat=2, creditor=-1),
        m.WentBankrupt(seat=2, creditor=0), m.TurnEnded(seat=0),
        m.GameOver(winners=[1], reason="last_player"), m.GameOver(winners=[0, 1], reason="time", scores={0: 9, 1: 9}),
        m.GameOver(winners=[1], reason="turn_cap", scores={0: 5000, 1: 8000, 2: 0}),
        m.GameOver(winners=[], reason="turn_cap"),
        m.RentDue(owner=1, payer=0, square=1, amount=40), m.RentLapsed(owner=1, payer=0, square=1, amount=40),
    ]


@pytest.mark.parametrize("ruleset", ["china", "classic"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_board_action_and_event_type_has_words(lang, ruleset):
    from engine.board.model import BoardAction, BoardEvent
    from words import board_text

    state = BOARD.new_game(3, ruleset, 1)
    actions = _one_of_each_board_action()
    assert {type(a) for a in actions} == set(BoardAction.__args__)
    views = [_busy_board_view(state), BOARD.view(state, 0)]  # with and without the details to name
    for action in actions:
        for view in views:
            label = board_text.describe_action(view, action, lang, BOARD_NAMES, ruleset)
            assert label and "{" not in label and label != type(action).__name__, (action, label)
        assert board_text.describe_action(state, action, lang, BOARD_NAMES, ruleset)  # a raw state works too
    events = _one_of_each_board_event()
    assert {type(e) for e in events} == set(BoardEvent.__args__)
    for event in events:
        line = board_text.describe_event(event, lang, BOARD_NAMES, ruleset)
        assert line and "{" not in line and line != type(event).__name__, (event, line)


@pytest.mark.parametrize("lang", LANGS)
def test_board_labels_name_squares_money_and_people(lang):
    from engine.board import model as m
    from words import board_text

    view = _busy_board_view(BOARD.new_game(3, "china", 1))
    say = board_text.describe_action
    buy = say(view, m.Buy(), lang, BOARD_NAMES, "china")
    assert square_name("china", 5, lang) in buy and money("china", 2000, lang) in buy
    cost = money("china", 500, lang)
    assert say(view, m.BuildHouse(square=1), lang, BOARD_NAMES, "china") == t(  # 4 houses there: a hotel next
        lang, "board.act.build_hotel", square=square_name("china", 1, lang), amount=cost)
    assert say(view, m.BuildHouse(square=3), lang, BOARD_NAMES, "china") == t(
        lang, "board.act.build_house", square=square_name("china", 3, lang), amount=cost)
    offer = say(view, m.ProposeTrade(target=1, give=(1,), get=(3,), give_cash=50), lang, BOARD_NAMES, "china")
    assert all(x in offer for x in ("Bo", square_name("china", 1, lang), square_name("china", 3, lang),
                                    money("china", 50, lang)))
    accept = say(view, m.AcceptTrade(trade=7), lang, BOARD_NAMES, "china")
    assert "Bo" in accept and square_name("china", 8, lang) in accept
    group = say(view, m.SellGroupBuildings(group="brown"), lang, BOARD_NAMES, "china")
    assert {"en": "Brown", "zh-Hans": "棕色", "zh-Hant": "啡色"}[lang] in group
    debt = say(view, m.PayDebt(), lang, BOARD_NAMES, "china")
    assert "Bo" in debt and money("china", 300, lang) in debt


def test_the_log_leaves_out_payments_another_line_tells():
    from engine.board import model as m
    from words.board_text import log_lines

    events = [m.Paid(payer=0, payee=-1, amount=600, reason="purchase"), m.Bought(seat=0, square=1, price=600),
              m.Paid(payer=0, payee=1, amount=20, reason="rent")]
    lines = log_lines(events, "en", BOARD_NAMES, "china")
    assert lines == ["Ada buys Dongshan for ¥600", "Ada pays Bo ¥20 (rent)"]


def test_B16_the_interest_on_each_mortgaged_deed_taken_over_is_one_line():
    """A creditor who takes over a bankrupt's mortgaged deeds pays the interest on each (B-16): one
    line for the payments in a row of one kind between the same two, each of the others kept."""
    from engine.board import model as m
    from words.board_text import log_lines

    interest = [m.Paid(payer=1, payee=-1, amount=a, reason="mortgage_interest") for a in (100, 110, 80)]
    events = [*interest, m.WentBankrupt(seat=0, creditor=1), m.Paid(payer=1, payee=-1, amount=60,
                                                                   reason="mortgage_interest"),
              m.Paid(payer=2, payee=1, amount=20, reason="rent"), m.Paid(payer=2, payee=0, amount=20, reason="rent")]
    lines = log_lines(events, "en", BOARD_NAMES, "china")
    assert len(lines) == 5 and "¥290" in lines[0] and "¥60" in lines[2]
    assert "Bo" in lines[3] and "Ada" in lines[4]  # one payer, two payees: two lines
    assert events[0].amount == 100  # the events themselves are left as they were


@pytest.mark.parametrize("lang", LANGS)
def test_render_board_of_a_mid_game_view(lang):
    from words.board_text import render_board

    state = _board_mid_game()
    text = render_board(BOARD.view(state, None), lang, BOARD_NAMES, "china")
    assert "{" not in text
    for name in BOARD_NAMES.values():
        assert name in text
    owned = [sq for sq in range(40) if state.owner[sq] >= 0]
    assert owned and all(square_name("china", sq, lang) in text for sq in owned)
    assert t(lang, "board.ui.bank_stock", houses=state.bank_houses, hotels=state.bank_hotels) in text


@pytest.mark.parametrize("lang", LANGS)
def test_render_board_shows_what_the_table_waits_for(lang):
    from words.board_text import render_board

    view = _busy_board_view(_board_mid_game("classic", 2, 120))
    text = render_board(view, lang, BOARD_NAMES, "classic")
    assert "{" not in text
    assert money("classic", 210, lang) in text  # the minimum next bid
    assert money("classic", 300, lang) in text  # the debt
    assert "7" in text and square_name("classic", 8, lang) in text  # offer #7 asks for square 8
    assert t(lang, "board.ui.hotel") in text  # the shortage is about a hotel


def test_every_service_refusal_is_in_all_three_catalogues():
    import re

    from words.i18n import LANGS as CATALOGUE_LANGS
    from words.i18n import t as translate

    root = ROOT / "engine" / "service"
    keys = set()
    for path in root.glob("*.py"):
        keys |= set(re.findall(r'"(service\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    assert "service.out_of_date" in keys
    for lang in CATALOGUE_LANGS:
        for key in keys:
            text = translate(lang, key, table=3, max=5, min=2, game="chess", ruleset="x", choices="a, b", name="Ann",
                             by="Bob", policies="turn")
            assert text != key and "{" not in text, (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_moves_of_two_cards_of_one_name_in_two_piles_say_which_pile(lang):
    """Two "Wild: Pink/Orange" lie in two of a player's piles: their moves would read alike, so each
    says the pile it leaves; a card whose name is unique reads as before."""
    from engine.deal.model import MoveProperty
    from tests.builders import Table

    state = (Table(players=2).group(0, "pink", "wild_pink_orange", "property_virginia")
             .group(0, "orange", "wild_pink_orange", "property_st_james").state())
    names = {0: "Ada", 1: "Bo"}
    view = DEAL.view(state, 0)
    moves = [a for a in DEAL.legal_actions(state, 0) if isinstance(a, MoveProperty) and a.replace is None]
    wild = {a.card for a in moves if card_name(a.card, "en") == "Wild: Pink/Orange"}
    assert len(wild) == 2
    labels = {describe_action(view, a, lang, names) for a in moves if a.card in wild}
    assert len(labels) == len([a for a in moves if a.card in wild])  # no two alike
    assert any(t(lang, "deal.act.from_pile", group=1) in label for label in labels)
    assert any(t(lang, "deal.act.from_pile", group=2) in label for label in labels)
    plain = [a for a in moves if a.card not in wild]
    assert not plain or all(t(lang, "deal.act.from_pile", group=1) not in describe_action(view, a, lang, names)
                            for a in plain)
