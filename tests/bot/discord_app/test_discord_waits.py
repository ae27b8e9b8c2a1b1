"""Issue 44 on Discord: a channel Discord makes wait (a 429 with ``retry_after`` on its messages)
holds up its own table only (``bot/discord_app/waits.py``). Three board tables in three channels;
one channel is refused for a few seconds while all three play on:

- the other two channels are written to meanwhile, and every press anywhere is answered;
- in the waiting channel, a press on what the player was shown (the table message as it was
  before the wait, or their "My options" reply) is taken against the newest state, never refused
  as stale because an edit was held back;
- the channel is not written to again during its wait (one 429, not a retry a second), and when
  the wait ends its table shows the newest state, each message edited once.

The wait is real seconds (short); nothing here measures speed.
"""

from __future__ import annotations

import time

from engine.games import GAMES
from engine.service import tokens
from engine.service.storage import queries
from engine.service.views import digests
from tests.bot.discord_app.test_discord import SERVERS, click, dispatch, running_bot
from tests.fakes.discord_api import CHANNEL, GUILD, command_payload

WAIT = 3.0
CHANNELS = (CHANNEL, CHANNEL + 1, CHANNEL + 2)
PENALISED = CHANNELS[1]


def _in(payload: dict, channel: int) -> dict:
    payload["channel_id"] = payload["channel"]["id"] = str(channel)
    return payload


async def _open(client, fake, service, channel: int, first: int) -> int:
    """A board table in ``channel``: ``first`` opens it, ``first + 1`` joins, ``first`` starts."""
    await dispatch(client, _in(command_payload("newgame", first, game="board"), channel))
    table = (await service.lobby.table_in_chat(f"dc:{GUILD}:{channel}")).id
    await dispatch(client, _in(click(f"l:{table}:join", first + 1, channel=channel), channel))
    await dispatch(client, _in(click(f"l:{table}:start", first, channel=channel), channel))
    assert service.cache.row(table).status == "running"
    return table


def _offered(fake, service, uid: int, channel: int, table: int, digest: str):
    """The newest button ``uid`` can press that makes the move named ``digest`` at ``table``."""
    for key, component in fake.pressable(uid, (channel,)):
        if not component["custom_id"].startswith("g:"):
            continue
        token = tokens.decode(service.keys.secret, component["custom_id"][2:])
        if token.table == table and token.digest == digest:
            return key, component
    return None


async def _press_what_was_shown(client, fake, service, table: int, channel: int) -> tuple[bool, bool]:
    """The player to act presses the AI's pick among what they can see (the table message, their
    DM, their "My options" reply, newest first), opening "My options" first when it is shown
    nowhere. (Whether the press moved the table, whether the player had moved since the version
    of the button pressed.)"""
    rules, state = GAMES["board"].rules, service.cache.state(table)
    decision = rules.waiting_for(state)[0]
    uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
    wanted = digests(rules, state, [GAMES["board"].choose_listed(state, decision.seat)])[0]
    found = _offered(fake, service, uid, channel, table, wanted)
    if found is None:
        await dispatch(client, _in(click(f"h:{table}", uid, channel=channel), channel))
        found = _offered(fake, service, uid, channel, table, wanted)
    assert found is not None, "every choice is shown somewhere (at worst in My options)"
    pressed = tokens.decode(service.keys.secret, found[1]["custom_id"][2:])
    own_since = decision.seat in await queries.movers_since(service.db, table, pressed.version)
    version = service.cache.row(table).version
    await dispatch(client, fake.press_payload(found[0], found[1], uid))
    return service.cache.row(table).version > version, own_since


async def test_a_channel_in_a_429_wait_holds_up_its_own_table_only(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        server = SERVERS[id(client)]
        tables = {ch: await _open(client, fake, service, ch, 10 * n + 1) for n, ch in enumerate(CHANNELS)}
        shown_before = {ch: dict(service.cache.row(tables[ch]).messages) for ch in CHANNELS}
        flooded_at = time.monotonic()
        server.flood(PENALISED, WAIT)
        moved = {ch: 0 for ch in CHANNELS}
        refused: list[tuple[int, bool]] = []  # (channel, whether the presser had moved since)
        while time.monotonic() < flooded_at + WAIT - 1.0 and min(moved.values()) < 4:
            for ch in CHANNELS:
                took, own_since = await _press_what_was_shown(client, fake, service, tables[ch], ch)
                if took:
                    moved[ch] += 1
                else:
                    refused.append((ch, own_since))
                    # the refusal came with the presser's choices as they are now (ephemeral)
                    now = service.cache.row(tables[ch]).version
                    reply = fake.last_reply("POST")
                    assert reply.get("flags") == 64 and any(
                        tokens.decode(service.keys.secret, i[2:]).version == now
                        for i in fake.custom_ids([("POST", "", reply)]) if i.startswith("g:")), reply
        during, seen = time.monotonic(), len(server.requests)
        assert during < flooded_at + WAIT, "the presses were made during the wait (else the test proves nothing)"
        assert moved[PENALISED] >= 3, moved
        # a press is refused only when its player had moved since the button's version (the same
        # button twice cannot be told from a double tap), never because an edit was held back
        assert all(own_since for _ch, own_since in refused), refused
        assert client.front.tables.behind(tables[PENALISED]), "the penalised table waits for its channel"
        # the other channels were written to during the wait: their tables show their newest state
        for ch in (CHANNELS[0], CHANNELS[2]):
            row = service.cache.row(tables[ch])
            assert row.messages.get("dc_v") == row.version, (ch, row.messages.get("dc_v"), row.version)
        assert {p.split("/")[2] for _w, _m, p in server.rate_limited} == {str(PENALISED)}
        assert len(server.rate_limited) == 1, "a channel in its wait is not written to again until it ends"
        wait_ended = flooded_at + WAIT
        await client.front.tables.caught_up()
        row = service.cache.row(tables[PENALISED])
        assert row.messages.get("dc_v") == row.version, "the table shows the newest state once the wait ends"
        assert row.messages.get("dc_v") != shown_before[PENALISED].get("dc_v")
        after = [(m, p) for m, p, _tok in server.requests[seen:] if f"/channels/{PENALISED}/messages" in p]
        edits = [p for m, p in after if m == "PATCH"]
        assert len(edits) == len(set(edits)), ("each message edited once when the wait ended", edits)
        assert time.monotonic() >= wait_ended
        assert fake.identical == [], fake.identical[:3]
