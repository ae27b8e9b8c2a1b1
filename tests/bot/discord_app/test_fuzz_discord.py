"""Hostile and careless input to the Discord bot, generated: forged and tampered button ids, the
buttons of another channel's game pressed here, slash commands with odd options, and players whose
names are full of markdown and mentions.

Whatever comes in: no handler fails (nothing is logged as an error), every interaction is answered
once, nothing a refusal touches changes, no message can mention anyone but the player it means,
and a name's markdown is shown as text.
"""

from __future__ import annotations

import asyncio
import logging
import re
import tempfile
from pathlib import Path

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.bot.discord_app.test_discord import click, dispatch, running_bot, slash
from tests.fakes.discord_api import text_of

OTHER_CHANNEL = 11
NAMES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["**Ann**", "@everyone", "<@&123>", "<@1>", "||spoiler||", "`code`", "# big", "> quote",
                     "\u202eevil", "x" * 200, "Ann"]),
)
IDS = st.one_of(
    st.builds(lambda p, body, mac: f"{p}:{body}" + (f".{mac}" if mac else ""), st.sampled_from(list("lhbesT")),
              st.text(alphabet="0123456789abcdefjoinlvstartcy:", min_size=1, max_size=20),
              st.none() | st.text(alphabet="0123456789abcdef", min_size=8, max_size=8)),
    st.builds(lambda body: f"g:{body}", st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.", min_size=1,
                                                max_size=40)),
)
EVENTS = st.one_of(
    st.tuples(st.just("click"), IDS, st.integers(1, 5), NAMES),
    st.tuples(st.just("tamper"), st.integers(0, 10_000), st.text(alphabet="0123456789abcdef", min_size=1,
                                                                  max_size=3), st.integers(1, 5), NAMES),
    st.tuples(st.just("other"), st.sampled_from(["join", "leave", "ai", "noai", "start", "cancel"]),
              st.integers(1, 5), NAMES),
    st.tuples(st.just("slash"), st.sampled_from(["join", "leave", "endgame", "hand", "rules", "stats", "help",
                                                 "standings"]), st.integers(1, 5), NAMES),
    st.tuples(st.just("schedule"), st.text(max_size=12) | st.sampled_from(["+30", "²", "20:30", "+99999999"]),
              st.integers(1, 1440), st.integers(1, 5), NAMES),
    st.tuples(st.just("team"), NAMES, st.integers(1, 5), NAMES),
)
MATCHES = [re.compile(r"(?P<data>[lhbesT]:[0-9a-z:]{1,40})(?:\.(?P<mac>[0-9a-f]{8}))?"),
           re.compile(r"g:(?P<token>[0-9a-z.]+)")]


def _named(payload: dict, name: str) -> dict:
    payload["member"]["user"]["global_name"] = name or None
    return payload


def _elsewhere(payload: dict, channel: int) -> dict:
    payload["channel_id"] = str(channel)
    payload["channel"] = {**payload["channel"], "id": str(channel)}
    if "message" in payload:
        payload["message"]["channel_id"] = str(channel)
    return payload


class _Failures(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot", "engine", "discord")):
            self.records.append(record)


def _state(service, tables: list[int]) -> list:
    rows = [service.cache.row(t) for t in tables]
    return [(r.version, r.status, [(s["user"], s["ai"]) for s in r.seats]) if r else None for r in rows]


def _answers(fake, since: int) -> int:
    return sum(1 for m, u, _ in fake.calls[since:] if m == "POST" and u.endswith("/callback"))


async def _scenario(tmp: str, players: tuple[str, str], events: list) -> None:
    failures = _Failures()
    logging.getLogger().addHandler(failures)
    try:
        with pytest.MonkeyPatch.context() as monkeypatch:
            async with running_bot(Path(tmp), monkeypatch) as (client, fake, service):
                await dispatch(client, _named(slash("newgame", 1, game="deal"), players[0]))
                game = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
                await dispatch(client, _named(click(f"l:{game}:join", 2), players[1]))
                await dispatch(client, _named(click(f"l:{game}:start", 1), players[0]))
                await dispatch(client, _elsewhere(slash("newgame", 3, game="board"), OTHER_CHANNEL))
                other = (await service.lobby.table_in_chat(f"dc:20:{OTHER_CHANNEL}")).id
                tables = [game, other]
                for event in events:
                    before, calls, kind = _state(service, tables), len(fake.calls), event[0]
                    if kind == "click":
                        if not any(m.fullmatch(event[1]) for m in MATCHES):
                            continue  # Discord only delivers presses of buttons the bot made (their ids match)
                        await dispatch(client, _named(click(event[1], event[2], signed=False), event[3]))
                    elif kind == "tamper":
                        shown = fake.custom_ids() or ["l:1:join"]
                        real = shown[event[1] % len(shown)]
                        real = service.sign(real) if real[:2] in ("l:", "h:", "b:", "e:", "s:", "T:") else real
                        at = event[1] % len(real)
                        forged = real[:at] + event[2] + real[at + len(event[2]):]
                        if forged == real or not any(m.fullmatch(forged) for m in MATCHES):
                            continue
                        await dispatch(client, _named(click(forged, event[3], signed=False), event[4]))
                    elif kind == "other":  # a real lobby button of the other channel, pressed in this one
                        await dispatch(client, _named(click(f"l:{other}:{event[1]}", event[2]), event[3]))
                    elif kind == "slash":
                        await dispatch(client, _named(slash(event[1], event[2]), event[3]))
                    elif kind == "schedule":
                        await dispatch(client, _named(slash("schedule", event[3], game="deal", start=event[1],
                                                            minutes=event[2]), event[4]))
                    else:  # /team <name>: the option is called "name" too
                        payload = slash("team", event[2])
                        payload["data"]["options"] = [{"name": "name", "type": 3, "value": event[1][:40] or "x"}]
                        await dispatch(client, _named(payload, event[3]))
                    assert not failures.records, [r.getMessage() for r in failures.records]
                    assert _answers(fake, calls) == 1, "every interaction is answered, once"
                    if kind in ("click", "tamper", "other"):
                        assert _state(service, tables) == before, "a refused press changes nothing"
                seated = {1, 2}
                # names with markdown that works anywhere in a line (emphasis, strike, spoilers, code)
                escaped = [(n, discord.utils.escape_markdown(n)) for n in players if any(c in n for c in "*_~|`")]
                for _, _, payload in fake.calls:  # everything the bot wrote, the game's start included
                    data = payload.get("data") if isinstance(payload.get("data"), dict) else payload
                    mentions = data.get("allowed_mentions")
                    content = text_of(data)  # a Components v2 message's text displays too
                    if mentions is not None:
                        assert not mentions.get("parse"), "never @everyone, roles or every user named"
                        assert {int(u) for u in mentions.get("users", [])} <= seated
                    elif "<@" in content:
                        pytest.fail(f"a mention without allowed_mentions: {content[:80]!r}")
                    # a name written like a mention shows as text: the only mentions are the bot's own
                    shown = {int(u) for u in re.findall(r"<@!?(\d+)>", content)}
                    assert shown <= {int(u) for u in (mentions or {}).get("users", [])}, content[:120]
                    assert not re.search(r"<@&\d+>|<#\d+>", content), content[:120]
                    for name, safe in escaped:
                        if safe != name and len(name) > 2:  # shown escaped wherever it appears
                            assert name not in content.replace(safe, ""), "a name's markdown is shown as text"
    finally:
        logging.getLogger().removeHandler(failures)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(NAMES, NAMES), st.lists(EVENTS, min_size=1, max_size=10))
def test_nothing_from_outside_breaks_the_discord_bot(players, events):
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_scenario(tmp, players, events))
