"""The terminal game: it plays to the end, survives bad input and lost input, hides AI draws."""

from __future__ import annotations

import pytest

import bot.console as console
from bot.console import run_console
from bot.deal_text import card_name
from bot.i18n import t
from engine.deal.model import Drew


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
    # the choices end with "  N. label"; both complaints follow, then the seat is handed over
    first = next(i for i, line in enumerate(out) if "abc" in line)
    choices = int(out[first - 1].split(".")[0])
    names = console.seat_names(3, 2, lang)
    assert out[first:first + 3] == [
        t(lang, "ui.not_a_number", text="abc", max=choices),
        t(lang, "ui.out_of_range", number=999, max=choices),
        t(lang, "ui.takeover", seat=names[0]),
    ]
    assert prompts == [t(lang, "ui.enter_number", max=choices)] * 3  # asked again after each mistake
    text = "\n".join(out)
    assert t(lang, "deal.ui.game_over") in text
    assert "{" not in text


def test_unknown_game_is_refused():
    out: list[str] = []
    assert run_console("board", 3, 3, 1, "zh-CN", "standard", output=out.append) == 2
    assert out == [t("zh-Hans", "ui.not_available", game="board")]


def test_ai_draws_stay_hidden_from_the_human(monkeypatch):
    seen: list[tuple] = []
    original = console.describe_event

    def spy(event, lang, names, viewer):
        text = original(event, lang, names, viewer)
        seen.append((event, viewer, text))
        return text

    monkeypatch.setattr(console, "describe_event", spy)
    out: list[str] = []
    run_console("deal", 3, 2, 11, "en", "standard", input_fn=_scripted(), output=out.append)
    ai_draws = [(e, txt) for e, v, txt in seen if isinstance(e, Drew) and e.seat != 0 and e.cards]
    own_draws = [(e, txt) for e, v, txt in seen if isinstance(e, Drew) and e.seat == 0 and e.cards]
    assert ai_draws and own_draws
    assert all(v == 0 for _, v, _ in seen)  # one human: the log is worded for that seat
    for event, text in ai_draws:
        assert text in out
        assert not any(card_name(c, "en") in text for c in event.cards), text
    for event, text in own_draws:
        assert all(card_name(c, "en") in text for c in event.cards)
