"""Keys at the terminal keep their meaning: letters per kind of move, numbers that name cards and
squares, aliases in three languages, confirmations for moves easy to regret, and help."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from bot.console import help as console_help
from bot.console import keys as console_keys
from bot.console.frontend import run_console
from bot.console.games import BOARD_KIT, DEAL_KIT, _board_label
from bot.console.turn import discard_pile
from engine.board import presentation as board_presentation
from engine.board.data import board
from engine.board.model import (
    AcceptTrade,
    Buy,
    LiftMortgage,
    Mortgage,
    PayJailFine,
    Roll,
    SellBuilding,
)
from engine.core.errors import RuleError
from engine.deal.model import BankCard, EndTurn, PlayRent
from tests.bot.console.test_console import KEY_LINE, _scripted
from words import board_text, deal_text
from words.board_text import money
from words.deal_text import discard_pile_text, explain_error
from words.i18n import LANGS, t


@pytest.fixture(autouse=True)
def _data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TYCOON_DATA_DIR", str(tmp_path / "data"))


def _key_table(out: list[str]) -> dict[str, str]:
    """The keys and labels printed last, before a prompt."""
    table: dict[str, str] = {}
    for line in reversed(out):
        match = KEY_LINE.match(line)
        if match is None:
            break
        table[match.group(1)] = line[match.end(1):].strip()
    return table


def test_keys_name_cards_so_they_do_not_renumber_after_a_move():
    out: list[str] = []
    tables: list[dict[str, str]] = []

    def read(prompt: str) -> str:
        tables.append(_key_table(out))
        if len(tables) == 1:
            return next(k for k in tables[0] if k.startswith("b"))  # bank a card
        raise EOFError

    run_console("deal", 3, 2, 5, "en", input_fn=read, output=out.append)
    first, second = tables
    banked = next(k for k in first if k.startswith("b"))
    card = banked[1:]
    assert "Player 1 banked" in "\n".join(out)
    # every other card keeps its key and its label; only the banked card's keys are gone
    kept = {k: v for k, v in first.items() if k.lstrip("bm").split(".")[0] != card}
    assert {k: v for k, v in second.items() if k in kept} == kept
    assert not any(k.lstrip("bm").split(".")[0] == card for k in second)


def test_one_key_for_several_actions_gets_suffixes_and_a_bare_key_asks_which():
    rents = [PlayRent(card=90, group=0), PlayRent(card=90, group=1), BankCard(card=90), EndTurn()]
    table = console_keys.keyed("deal", rents)
    assert [k for k, _ in table] == ["90.1", "90.2", "b90", "e"]
    assert console_keys.resolve("deal", "90", table) == (None, ["90.1", "90.2"])
    assert console_keys.resolve("deal", "90.2", table) == (rents[1], [])
    assert console_keys.resolve("deal", "9", table) == (None, [])


@pytest.mark.parametrize("typed", ["b12", "B 12", "bank 12", "存 12", "存入12", "12"])
def test_words_in_every_language_are_aliases_for_the_letters(typed):
    table = console_keys.keyed("deal", [BankCard(card=12), EndTurn()])
    assert console_keys.resolve("deal", typed, table)[0] == BankCard(card=12)


@pytest.mark.parametrize("typed, action", [("掷骰", Roll()), ("擲", Roll()), ("roll", Roll()), ("買", Buy()),
                                           ("抵押 5", Mortgage(square=5)), ("mortgage5", Mortgage(square=5))])
def test_board_aliases(typed, action):
    table = console_keys.keyed("board", [Roll(), Buy(), Mortgage(square=5), Mortgage(square=15)])
    assert console_keys.resolve("board", typed, table)[0] == action


def confirmation(lang, view, action, label):
    return DEAL_KIT.confirm(view, action, label, lang) or BOARD_KIT.confirm(view, action, label, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_moves_easy_to_regret_ask_again(lang):
    assert confirmation(lang, {"phase": "play", "plays_left": 2}, EndTurn(), "End turn") == t(
        lang, "console.confirm.end_turn", plays=2)
    assert confirmation(lang, {"phase": "play", "plays_left": 0}, EndTurn(), "End turn") is None
    assert confirmation(lang, {}, PayJailFine(), "Pay ¥500") == t(lang, "console.confirm.move", move="Pay ¥500")
    assert confirmation(lang, {}, AcceptTrade(trade=3), "Accept 3") == t(lang, "console.confirm.move", move="Accept 3")
    assert confirmation(lang, {}, Roll(), "Roll") is None


def test_ending_a_deal_turn_with_plays_left_waits_for_yes():
    out: list[str] = []
    prompts: list[str] = []
    run_console("deal", 3, 2, 5, "en", input_fn=_scripted("e", "n", "end", "y", prompts=prompts), output=out.append)
    question = t("en", "console.confirm.end_turn", plays=3)
    assert prompts[:4] == [t("en", "console.enter_key"), question + " ", t("en", "console.enter_key"), question + " "]
    refused = out.index(t("en", "console.not_done"))
    ended = out.index("Player 1 ended the turn.")
    assert refused < ended
    assert not any(line.startswith("Player 1 ") for line in out[refused:ended])  # nothing played meanwhile


@pytest.mark.parametrize("lang, word", [("en", "help"), ("zh-Hans", "帮助"), ("zh-Hant", "幫助")])
def test_help_lists_the_keys_and_tells_a_cards_text(lang, word):
    out: list[str] = []
    run_console("deal", 3, 2, 5, lang, input_fn=_scripted(word, f"{word} 49", f"{word} 999"), output=out.append)
    legend = console_help.legend("deal", lang)
    start = out.index(legend[0])
    assert out[start:start + len(legend)] == legend
    assert deal_text.card_help(49, lang) in out  # a House
    assert "#49" in deal_text.card_help(49, lang)
    assert t(lang, "console.help.no_card", number=999, max=105) in out


@pytest.mark.parametrize("lang, word", [("en", "pile"), ("zh-Hans", "弃牌堆"), ("zh-Hant", "棄牌堆")])
def test_D18_the_discard_pile_is_listed_at_the_terminal_when_the_seat_may_look(lang, word):
    out: list[str] = []
    run_console("deal", 2, 1, 5, lang, ruleset="tournament", input_fn=_scripted(word), output=out.append)
    listed = t(lang, "deal.ui.discard_list", count=0, cards="").split("0")[0]
    assert any(line == t(lang, "deal.ui.discard_empty") or line.startswith(listed) for line in out)
    assert word in console_help.legend("deal", lang)[-3]  # help names the word
    ctx = SimpleNamespace(lang=lang, names={0: "Ann", 1: "Bob"})
    assert discard_pile(ctx, {"discard": [49, 0]}) == discard_pile_text([49, 0], lang)
    refusal = explain_error(RuleError("D-18", "deal.err.discard_private"), lang, ctx.names)
    assert discard_pile(ctx, {"discard": None}) == refusal  # off one's turn at a tournament table


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_has_a_text(lang):
    for card in range(106):
        text = deal_text.card_help(card, lang)
        assert text.startswith(f"#{card} ") and "{" not in text


def test_the_buy_question_shows_the_streets_rents():
    out: list[str] = []
    answers = {"n": 0}
    index = {sq["names"]["en"]: i for i, sq in enumerate(board("china").squares)}

    def read(prompt: str) -> str:
        answers["n"] += 1
        if answers["n"] > 12:
            raise EOFError
        return "y" if "(y/n)" in prompt else next(iter(_key_table(out)))  # roll, then buy first

    run_console("board", 2, 1, 5, "en", input_fn=read, output=out.append)
    asked = [(i, m.group(1)) for i, line in enumerate(out) if (m := re.match(r"Player 1, buy (.+) for ", line))]
    assert asked
    for i, name in asked:
        assert out[i + 1] == board_text.square_text({}, index[name], "en", {}, "china")
        assert "rent" in out[i + 1]


def test_a_mortgage_lift_shows_its_cost():
    view = {"squares": [{"index": 1, "owner": 0, "houses": 0, "mortgaged": True, "lift_cost": 330}]}
    label = _board_label(view, LiftMortgage(square=1), "en", {0: "P1"}, "china")
    assert money("china", 330, "en") in label


def test_raising_money_suggests_mortgages_before_selling_buildings():
    b = board("china")
    built = b.groups[b.group[1]]  # a complete group with houses
    whole = b.groups[b.group[6]]  # a complete group without buildings
    station = b.stations[0]
    squares = [{"index": sq, "owner": 0, "houses": 3 if sq in built else 0, "mortgaged": False}
               for sq in (*built, *whole, station)]
    actions = [SellBuilding(square=built[0]), Mortgage(square=whole[0]), Mortgage(square=station), Roll()]
    order = board_presentation.raise_order({"squares": squares}, 0, actions, "china")
    assert order == [Mortgage(square=station), Mortgage(square=whole[0]), SellBuilding(square=built[0])]


def test_B16_in_a_debt_the_console_lists_and_suggests_a_mortgage_before_selling_houses():
    """The rules' RaiseMoney sells buildings before mortgaging complete groups (engine/board); the
    console's own list and suggestion put mortgages of unbuilt property first."""
    from types import SimpleNamespace

    from engine.board import BOARD
    from engine.board.model import Debt, DeclareBankruptcy, RaiseMoney

    state = BOARD.new_game(2, "china", 1)
    state.stage, state.debts = "debt", [Debt(debtor=0, creditor=1, amount=50000, reason="rent")]
    for sq in (1, 3, 5):
        state.owner[sq] = 0
    state.houses[1] = state.houses[3] = 1
    decision = next(d for d in BOARD.waiting_for(state) if d.seat == 0)
    actions = board_text.choice_order(BOARD.view(state, 0), decision, BOARD.legal_actions(state, 0))
    assert actions[:4] == [RaiseMoney(), DeclareBankruptcy(), Mortgage(square=5), SellBuilding(square=1)]
    ctx = SimpleNamespace(lang="en", names={0: "P1", 1: "P2"})
    lines = BOARD_KIT.extra_lines(BOARD.view(state, 0), decision, console_keys.keyed("board", actions, "china"), "en",
                         ctx.names, "china")
    label = _board_label(BOARD.view(state, 0), Mortgage(square=5), "en", ctx.names, "china")
    assert lines == [t("en", "console.suggest_raise", code="m5", move=label)]
