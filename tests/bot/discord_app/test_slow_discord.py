"""A slow game over Discord (issue 48), the real discord.py client against the fake Discord and a
faked clock: the lobby's pace button, no channel message for a move or a turn once it runs, the
reminder in the player's DM at half time, and one summary a day in the channel, mentioning whom
the table waits for."""

from __future__ import annotations

from tests.bot.discord_app.test_discord import click, dispatch, play_one, running_bot, slash
from tests.fakes.discord_api import CHANNEL, DM_BASE, text_of
from words.i18n import t

HALF, DAY = 12 * 3600, 24 * 3600


def posts(fake, channel: int, since: int = 0) -> list[dict]:
    """The messages posted in ``channel`` (not edits) after the first ``since`` calls."""
    return [p for m, u, p in fake.calls[since:] if m == "POST" and u.endswith(f"/channels/{channel}/messages")]


async def test_a_slow_game_is_quiet_in_the_channel_reminds_by_dm_and_sums_up_once_a_day(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        now = [1_700_000_000.0]
        service.clock = lambda: now[0]
        start = now[0]
        await dispatch(client, slash("newgame", 1, game="deal"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        assert f"l:{table}:p:1" in fake.custom_ids()
        await dispatch(client, click(f"l:{table}:join", 2))
        await dispatch(client, click(f"l:{table}:p:24", 2))  # Bob did not open the table
        assert text_of(fake.last_reply()) == t("en", "opt.creator_only")
        for hours in (1, 8, 24):
            await dispatch(client, click(f"l:{table}:p:{hours}", 1))
        assert service.cache.row(table).options["pace"] == 24
        assert fake.has_shown(f"l:{table}:p:0")  # the button now offers the next pace: back to normal
        await dispatch(client, click(f"l:{table}:start", 1))
        assert service.cache.row(table).clocks["pace"] == DAY

        now[0] += 3600
        seen = len(fake.calls)
        turns = service.cache.state(table).turn_number
        for _ in range(8):
            await play_one(client, fake, service, table)
        assert service.cache.state(table).turn_number > turns
        assert posts(fake, CHANNEL, seen) == [], "no channel message for a move or a turn"

        waiting = service.cache.waiting_for(table)[0]
        uid = int(service.cache.row(table).seats[waiting.seat]["user"][3:])
        seen = len(fake.calls)
        now[0] += HALF + 1
        await service.sweep()
        await service.idle()
        mine = posts(fake, DM_BASE + uid, seen)
        assert len(mine) == 1 and text_of(mine[0]).startswith("⏰ ") and f"table {table}" in text_of(mine[0])
        assert posts(fake, CHANNEL, seen) == [], "the reminder is private"

        seen = len(fake.calls)
        now[0] = start + DAY + 1
        await service.sweep()
        await service.idle()
        await service.sweep()
        await service.idle()
        summary = posts(fake, CHANNEL, seen)
        assert len(summary) == 1, summary
        content = text_of(summary[0])
        assert t("en", "slow.summary.standings") in content and f"<@{uid}>" in content, content
        assert [int(u) for u in summary[0]["allowed_mentions"]["users"]] == [uid], "it pings exactly them"
