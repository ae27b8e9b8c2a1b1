"""The terminal game, Deal and 地产大亨: it plays to the end, survives bad input and lost input,
hides AI draws, and puts the answers to the board's current question first."""

from __future__ import annotations

import re

import pytest

import bot.console.frontend as console
from bot.console.frontend import run_console
from engine.board import BOARD
from engine.board import ai as board_ai
from engine.board.model import (
    AcceptTrade,
    Bid,
    Buy,
    DeclareBankruptcy,
    DeclineShortage,
    DeclineToBuy,
    JoinShortage,
    PassAuction,
    PayDebt,
    PayJailFine,
    PayTax,
    RaiseMoney,
    RejectTrade,
    Roll,
    UseJailCard,
)
from engine.deal.model import Drew
from words.board_text import decision_first
from words.deal_text import card_name
from words.i18n import LANGS, t


@pytest.fixture(autouse=True)
def _data_folder(tmp_path, monkeypatch):
    """Games without --db live in the user's data folder: each test has its own."""
    monkeypatch.setenv("TYCOON_DATA_DIR", str(tmp_path / "data"))


KEY_LINE = re.compile(r"^ +(\S+)  \S")


def first_key(out: list[str]) -> str:
    """The first key of the list printed last (the key lines end the output before a prompt)."""
    key = None
    lines = out[:-1] if out and out[-1].startswith("⏱") else out  # a clock line may follow the keys
    for line in reversed(lines):
        match = KEY_LINE.match(line)
        if match is None:
            break
        key = match.group(1)
    assert key is not None, out[-5:]
    return key


def answer_first(out: list[str]):
    """An ``input`` stand-in that takes the first listed key and says yes when asked again."""
    def read(prompt: str = "") -> str:
        return "y" if "(y/n)" in prompt else first_key(out)
    return read


def _scripted(*answers, prompts: list[str] | None = None):
    """An ``input`` stand-in: the given answers, then end of input."""
    queue = list(answers)

    def read(prompt: str = "") -> str:
        if prompts is not None:
            prompts.append(prompt)
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def test_all_ai_game_finishes_with_a_winner():
    out: list[str] = []
    assert run_console("deal", 3, 3, 5, "en", "standard", output=out.append) == 0
    text = "\n".join(out)
    assert t("en", "deal.ui.game_over") in text
    assert "Winner: AI" in text or "Winners: AI" in text


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
def test_bad_input_reprompts_then_eof_hands_over_to_the_ai(lang):
    out: list[str] = []
    prompts: list[str] = []
    rc = run_console("deal", 3, 2, 5, lang, "standard", input_fn=_scripted("abc", "999", prompts=prompts),
                     output=out.append)
    assert rc == 0
    # each mistake is answered with what to do instead, then the seat is handed over
    first = out.index(t(lang, "console.unknown_key", text="abc"))
    assert KEY_LINE.match(out[first - 1])  # the keys were listed just before
    names = console.seat_names(3, 2, lang)
    assert out[first:first + 3] == [
        t(lang, "console.unknown_key", text="abc"),
        t(lang, "console.unknown_key", text="999"),
        t(lang, "ui.takeover", seat=names[0]),
    ]
    assert prompts == [t(lang, "console.enter_key")] * 3  # asked again after each mistake
    text = "\n".join(out)
    assert t(lang, "deal.ui.game_over") in text
    assert "{" not in text


def test_unknown_game_is_refused():
    out: list[str] = []
    assert run_console("chess", 3, 3, 1, "zh-CN", "standard", output=out.append) == 2
    assert out == [t("zh-Hans", "ui.unknown_game", game="chess", choices="deal, board")]


def test_ai_draws_stay_hidden_from_the_human(monkeypatch):
    from words import deal_text

    seen: list[tuple] = []
    original = deal_text.describe_event

    def spy(event, lang, names, viewer):
        text = original(event, lang, names, viewer)
        seen.append((event, viewer, text))
        return text

    monkeypatch.setattr(deal_text, "describe_event", spy)  # what the presenter words every event with
    out: list[str] = []
    run_console("deal", 3, 2, 11, "en", "standard", input_fn=_scripted(), output=out.append)
    ai_draws = [(e, txt) for e, v, txt in seen if isinstance(e, Drew) and e.seat != 0]
    own_draws = [(e, txt) for e, v, txt in seen if isinstance(e, Drew) and e.seat == 0 and e.cards]
    assert ai_draws and own_draws
    assert all(v == 0 for _, v, _ in seen)  # one human: the log is worded for that seat
    # the cards an AI seat drew never reach the terminal: its view carries the draw without them
    assert all(not event.cards and text in out for event, text in ai_draws)
    for event, text in own_draws:
        assert all(card_name(c, "en") in text for c in event.cards)


# -- 地产大亨 --------------------------------------------------------------------------------------


def test_all_ai_board_game_finishes_with_a_winner():
    out: list[str] = []
    assert run_console("board", 3, 3, 5, "en", "china", output=out.append) == 0
    text = "\n".join(out)
    assert f"== {t('en', 'board.ui.game_over')} ==" in text
    assert out[-1].startswith(("Winner: AI", "Winners: AI"))
    assert "¥" in text and "{" not in text


def test_board_ruleset_defaults_to_china():
    out: list[str] = []
    assert run_console("board", 2, 2, 1, "en", output=out.append, max_turns=3) == 0
    assert "¥" in "\n".join(out)


def test_classic_board_game_plays_too():
    out: list[str] = []
    assert run_console("board", 2, 2, 3, "en", "classic", output=out.append) == 0
    text = "\n".join(out)
    assert "$" in text and "¥" not in text and "{" not in text
    assert out[-1].startswith(("Winner: AI", "Winners: AI"))


@pytest.mark.parametrize("lang", LANGS)
def test_board_bad_input_then_eof_hands_over_to_the_ai(lang):
    out: list[str] = []
    prompts: list[str] = []
    rc = run_console("board", 3, 2, 5, lang, "china", input_fn=_scripted("x", "0", prompts=prompts),
                     output=out.append)
    assert rc == 0
    first = out.index(t(lang, "console.unknown_key", text="x"))
    assert KEY_LINE.match(out[first - 1])
    names = console.seat_names(3, 2, lang)
    assert out[first:first + 3] == [
        t(lang, "console.unknown_key", text="x"),
        t(lang, "console.unknown_key", text="0"),  # a number names a square or a bid, never a list place
        t(lang, "board.ui.takeover", seat=names[0]),
    ]
    assert prompts == [t(lang, "console.enter_key")] * 3
    text = "\n".join(out)
    assert f"== {t(lang, 'board.ui.game_over')} ==" in text
    assert "{" not in text


def test_board_turn_cap_ends_by_valuation():
    out: list[str] = []
    assert run_console("board", 4, 4, 2, "en", "china", output=out.append, max_turns=12) == 0
    text = "\n".join(out)
    assert "The turn limit is reached" in text  # board.ev.game_over_turn_cap, with the values
    assert out[-1].startswith(("Winner: AI", "Winners: AI"))


# The actions that answer each kind of board decision (its timeout and its siblings).
ANSWERS = {
    "roll": (Roll, PayJailFine, UseJailCard), "buy": (Buy, DeclineToBuy), "bid": (Bid, PassAuction),
    "tax": (PayTax,), "debt": (PayDebt, RaiseMoney, DeclareBankruptcy),
    "shortage": (JoinShortage, DeclineShortage), "trade": (AcceptTrade, RejectTrade),
}


def test_a_board_decisions_own_actions_come_first():
    seen: set[str] = set()
    for seed in (1, 2, 3):
        state = BOARD.new_game(4, "china", seed)
        for _ in range(600):
            decisions = BOARD.waiting_for(state)
            if not decisions:
                break
            decision = decisions[0]
            legal = BOARD.legal_actions(state, decision.seat)
            ordered = decision_first(legal, decision)
            assert sorted(map(repr, ordered)) == sorted(map(repr, legal))  # the same actions, reordered
            answers = ANSWERS[decision.kind]
            lead = [a for a in ordered if isinstance(a, answers)
                    and getattr(a, "trade", None) == getattr(decision.timeout, "trade", None)]
            assert ordered[:len(lead)] == lead, (decision.kind, ordered[:5])
            assert decision.timeout in lead
            seen.add(decision.kind)
            BOARD.apply(state, decision.seat, board_ai.choose(state, decision.seat))
    assert {"roll", "buy", "bid"} <= seen


def test_with_a_db_an_interrupted_game_resumes_where_it_stopped(tmp_path):
    """Ctrl-C in the middle, the same command again: the game goes on and ends as if never stopped."""
    import asyncio

    from engine.games import GAMES
    from engine.service.tables import GameService

    def final_state(db):
        async def read():
            service = await GameService.open(f"sqlite:///{db}")
            try:
                row = await service.lobby.table_in_chat("console:deal")
                assert row is None  # nothing running any more: the game is over
                from sqlmodel import select
                from sqlmodel.ext.asyncio.session import AsyncSession

                from engine.service.storage.rows import TableRow

                async with AsyncSession(service.db) as session:
                    done = (await session.exec(select(TableRow).where(TableRow.status == "over"))).one()
                return done.snapshot, done.version
            finally:
                await service.close()
        return asyncio.run(read())

    lines: list[str] = []
    straight = tmp_path / "straight.db"
    assert run_console("deal", 3, 2, 21, "en", input_fn=answer_first(lines), output=lines.append,
                       db=str(straight)) == 0

    interrupted = tmp_path / "interrupted.db"
    presses = {"n": 0}
    out: list[str] = []

    def then_ctrl_c(prompt):
        presses["n"] += 1
        if presses["n"] > 4:
            raise KeyboardInterrupt
        return answer_first(out)(prompt)

    assert run_console("deal", 3, 2, 21, "en", input_fn=then_ctrl_c, output=out.append, db=str(interrupted)) == 0
    assert any("run the same command again" in line for line in out)
    again: list[str] = []
    assert run_console("deal", 3, 2, 21, "en", input_fn=answer_first(again), output=again.append,
                       db=str(interrupted)) == 0
    assert any("Resuming" in line for line in again)
    assert final_state(straight) == final_state(interrupted)
    assert GAMES["deal"].rules.decode_state(final_state(straight)[0].encode()).phase == "over"
