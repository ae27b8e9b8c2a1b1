"""A terminal game's life: kept in the data folder and resumed with a summary, stopped by Ctrl-C
without a traceback, the AI seats' moves summed up before a prompt, rule options from the command
line, and the rule set's clocks (a fake clock: nothing here waits)."""

from __future__ import annotations

import dataclasses
import os
import signal

import pytest

from bot.console import options as console_options
from bot.console.frontend import run_console
from bot.process.cli import main
from engine.games import GAMES
from tests.bot.console.test_console import _scripted, answer_first, first_key
from tests.bot.console.test_console_keys import _key_table
from words.i18n import LANGS, t


@pytest.fixture()
def data(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("TYCOON_DATA_DIR", str(folder))
    return folder


def test_data_folder_follows_xdg_when_not_set(tmp_path):
    assert console_options.data_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "tycoon"
    assert console_options.data_dir({"TYCOON_DATA_DIR": str(tmp_path / "x")}) == tmp_path / "x"


def test_without_db_the_game_is_kept_in_the_data_folder_and_resumes_with_a_summary(data):
    out: list[str] = []
    presses = {"n": 0}

    def then_ctrl_c(prompt):
        presses["n"] += 1
        if presses["n"] > 3:
            raise KeyboardInterrupt
        return answer_first(out)(prompt)

    assert run_console("deal", 3, 2, 7, "en", input_fn=then_ctrl_c, output=out.append) == 0
    db = data / "console.db"
    assert out[-1] == t("en", "ui.saved", db=str(db))  # one line, where the game is
    assert db.exists()

    again: list[str] = []
    assert run_console("deal", 3, 2, 99, "en", input_fn=_scripted(), output=again.append) == 0
    resumed = next(i for i, line in enumerate(again) if line.startswith("Resuming the saved game"))
    standing = again[resumed + 1:resumed + 4]
    assert [line.split(":")[0].strip() for line in standing] == ["Player 1", "AI 1", "AI 2"]
    assert all("in the bank" in line and "in hand" in line for line in standing)
    assert "Winner" in again[-1]


def test_ctrl_c_while_the_ai_moves_stops_after_the_move_and_the_game_resumes(data, monkeypatch):
    plug = GAMES["deal"]
    calls = {"n": 0}

    def choose_then_ctrl_c(state, seat):
        calls["n"] += 1
        if calls["n"] == 25:
            os.kill(os.getpid(), signal.SIGINT)  # arrives in the middle of an AI move
        return plug.choose(state, seat)

    monkeypatch.setitem(GAMES, "deal", dataclasses.replace(plug, choose=choose_then_ctrl_c))
    out: list[str] = []
    assert run_console("deal", 4, 4, 3, "en", output=out.append) == 0
    assert out[-1] == t("en", "ui.saved", db=str(data / "console.db"))
    assert not any("Winner" in line for line in out)

    monkeypatch.setitem(GAMES, "deal", plug)
    again: list[str] = []
    assert run_console("deal", 4, 4, 3, "en", output=again.append) == 0  # every stored move replays
    assert any(line.startswith("Resuming the saved game") for line in again)
    assert again[-1].startswith(("Winner", "Winners"))


@pytest.mark.parametrize("lang", LANGS)
def test_what_the_ai_seats_did_is_summed_up_before_the_prompt(data, lang):
    out: list[str] = []
    run_console("deal", 3, 2, 5, lang, input_fn=_scripted(), output=out.append)
    since = out.index(t(lang, "console.since"))
    ai = [t(lang, "ui.ai_name", n=1), t(lang, "ui.ai_name", n=2)]
    assert [out[since + 1].split(":")[0].strip(), out[since + 2].split(":")[0].strip()] == ai
    question = t(lang, "deal.ui.prompt.play", seat=t(lang, "ui.player_name", n=1))
    assert out[since + 3] == question
    assert len(out[since + 1]) > len(ai[0]) + 5  # it says what AI 1 did


def test_unknown_and_bad_options_are_refused_with_the_valid_ones(data):
    out: list[str] = []
    assert run_console("board", 2, 2, 1, "en", output=out.append, options=["nope=on"]) == 2
    names = console_options.option_names("board")
    assert out == [t("en", "console.opt.unknown", option="nope", game="board", choices=", ".join(names),
                     example=names[0])]
    assert "no_trading" in out[0] and "match_minutes" in out[0]
    out.clear()
    assert run_console("board", 2, 2, 1, "en", output=out.append, options=["no_trading=maybe"]) == 2
    assert out == [t("en", "console.opt.bad_value", option="no_trading", value="maybe")]
    out.clear()
    assert run_console("deal", 2, 2, 1, "en", output=out.append, options=["card_seconds=x"]) == 2
    assert out == [t("en", "console.opt.bad_number", option="card_seconds", value="x", max=600)]


def test_cli_option_exit_status_2(data, capsys):
    assert main(["play", "board", "--option", "nope=1", "--lang", "en"]) == 2
    assert "no_trading" in capsys.readouterr().out


def test_B15_typed_options_are_played_and_shown(data):
    out: list[str] = []
    rc = run_console("board", 2, 2, 1, "en", output=out.append, max_turns=3,
                     options=["no_trading=on", "match_minutes=30"])
    assert rc == 0
    import msgspec

    from engine.board.rules import resolve_options

    chosen = resolve_options({"ruleset": "china", "no_trading": True, "match_minutes": 30})
    on = console_options.options_on(msgspec.to_builtins(chosen))
    assert ("no_trading", True) in on and ("match_minutes", 30) in on
    shown = ", ".join(name if value is True else f"{name}={value}" for name, value in on)
    assert out[0] == t("en", "console.rules", ruleset="china", options=shown)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_D16_card_clock_runs_out_at_the_terminal(data):
    clock = FakeClock()
    out: list[str] = []
    prompts = {"n": 0}

    def slow(prompt: str) -> str:
        prompts["n"] += 1
        if prompts["n"] > 1:
            raise EOFError
        assert out[-1].startswith("⏱") and t("en", "console.clock.card", seconds=10) in out[-1]
        assert t("en", "console.clock.match", time="45:00") in out[-1]
        clock.now += 11  # the player thinks too long
        assert first_key(out) == "e"
        return next(k for k in _key_table(out[:-1]) if k.startswith("b"))  # bank a card: too late

    run_console("deal", 2, 1, 4, "en", "tournament", input_fn=slow, output=out.append, clock=clock)
    ran_out = out.index(t("en", "console.clock.card_out", action="End turn"))
    assert out[ran_out + 1] == "Player 1 ended the turn."  # the rules' timeout action, not the key typed
    assert not any(line.startswith("Player 1 banked") for line in out[:ran_out + 2])


def test_B17_match_clock_ends_a_board_game_by_valuation(data):
    clock = FakeClock()
    out: list[str] = []

    def slow(prompt: str) -> str:
        assert t("en", "console.clock.match", time="1:00") in out[-1]
        clock.now += 61
        return "r"

    assert run_console("board", 2, 1, 4, "en", input_fn=slow, output=out.append, clock=clock,
                       options=["match_minutes=1"]) == 0
    over = out.index(t("en", "console.clock.match_over"))
    assert not any(line.startswith("Player 1 rolls") for line in out[over:])  # the typed roll was not made
    assert out[-2] == f"== {t('en', 'board.ui.game_over')} =="
    assert out[-1].startswith(("Winner", "Winners"))


def test_b15_the_terminal_trade_builder_sends_an_offer_the_ai_takes(data):
    """``trade`` at a board question opens the builder: a deed of mine ticked by its key, cash asked
    with ``get``, ``send``; the AI seat takes the offer and the log says the trade was made."""
    import re

    out: list[str] = []
    script = {"phase": "play", "prompts": 0, "after": 0}
    trade_prompt = t("en", "console.trade_prompt")
    hint = t("en", "console.trade_hint")

    def read(prompt: str = "") -> str:
        script["prompts"] += 1
        if script["prompts"] > 600 or script["after"] > 15:
            raise EOFError
        if "(y/n)" in prompt:
            return "y"
        phase = script["phase"]
        if prompt == trade_prompt:
            deeds = [m.group(1) for line in out[-60:] if (m := re.match(r"\s+(m\d+)\s", line))]
            if phase == "open":
                if not deeds:
                    script["phase"] = "play"
                    return ""
                script["phase"] = "cash"
                return deeds[0]
            if phase == "cash":
                script["phase"] = "send"
                return "get 10"
            script["phase"] = "done"
            return "send"
        if phase == "play" and hint in out[-12:] and script["prompts"] % 3 == 0:
            script["phase"] = "open"
            return "trade"
        script["after"] += phase == "done"
        return first_key(out)

    run_console("board", 2, 1, 21, "en", input_fn=read, output=out.append)
    text = "\n".join(out)
    assert script["phase"] == "done", "the builder was opened, filled and sent"
    assert "Your trade offer to" in text and "Offer sent to" in text
    assert "made a trade" in text


def test_ctrl_c_before_the_game_is_open_is_one_line_without_a_traceback(data, monkeypatch, capsys):
    """Ctrl-C while the terminal is still starting (the console's own handler not yet set): exit
    status 130, one line, no traceback; the line says where the game is once one is kept."""
    import bot.console.frontend

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bot.console.frontend, "run_console", interrupted)
    assert main(["play", "deal", "--ai", "2", "--lang", "en"]) == 130
    assert capsys.readouterr().out.splitlines() == [t("en", "console.stopped")]
    data.mkdir(parents=True, exist_ok=True)
    (data / "console.db").write_bytes(b"")
    assert main(["play", "deal", "--ai", "2", "--lang", "en"]) == 130
    assert capsys.readouterr().out.splitlines() == [t("en", "ui.saved", db=str(data / "console.db"))]


@pytest.mark.parametrize("lang", LANGS)
def test_the_summary_of_ai_moves_keeps_what_changed_hands_and_leaves_out_routine(data, lang):
    """Compact: no dice, no "turn ends" (the log above has them); a payment counts as the payer's
    move, so an AI seat paying the person at the terminal is in its line."""
    from engine.board.model import DiceRolled
    from engine.core.values import TurnEnded
    from words import board_text

    out: list[str] = []
    run_console("board", 4, 3, 5, lang, input_fn=_scripted(), output=out.append, max_turns=6)
    since = out.index(t(lang, "console.since"))
    lines = [line.strip() for line in out[since + 1:since + 4] if line.startswith("  ")]
    names = {0: t(lang, "ui.player_name", n=1), **{n: t(lang, "ui.ai_name", n=n) for n in (1, 2, 3)}}
    assert [line.split(":")[0] for line in lines] == [names[1], names[2], names[3]]
    rolled, ended = (board_text.log_lines([e], lang, names, "china")[0]
                     for e in (DiceRolled(seat=1, dice=[3, 4]), TurnEnded(seat=1)))
    rolled = rolled.removeprefix(names[1]).strip().split("3")[0]  # "rolls ", "掷出 "
    for line in lines:
        for item in line.split(": ", 1)[1].split("; "):
            assert item and not item.startswith(rolled) and item != ended.rstrip("。."), item
    # seed 5: AI 1 draws "pay each player ¥500" on the first turn: its line says it paid Player 1
    assert any(line.startswith(names[1]) and names[0] in line and "500" in line for line in out[:since])
    assert names[0] in lines[0] and "500" in lines[0]


def test_ctrl_c_while_the_program_is_still_loading_is_one_line_without_a_traceback():
    """Ctrl-C in the first fraction of a second, while ``tycoon`` imports its modules (before
    ``bot.process.cli`` exists): the entry point (``bot.process.entry``) ends with status 130 and one line. The
    interrupt is raised by the import itself, in a real process."""
    import subprocess
    import sys as _sys

    script = (
        "import sys\n"
        "class Interrupting:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'bot.process.cli':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupting())\n"
        "from bot.process.entry import main\n"
        "sys.exit(main())\n")
    done = subprocess.run([_sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Stopped before anything started" in done.stderr
