"""Tournaments in the Discord bot, offline, with the harness of tests/bot/discord_app/test_discord.py: sign-up by
button (also after a restart), a round's start (tables in threads, or in the channel when threads
are refused), the standings picture, permission checks, and the leftovers of the /schedule work
(the calendar event of a called-off match is deleted; rule sets offered as choices)."""

from __future__ import annotations

import discord
import pytest

from engine.games import GAMES
from engine.service.storage import keyvalue
from tests.bot.discord_app.test_discord import (
    CHANNEL,
    DM_BASE,
    GUILD,
    MANAGE_EVENTS,
    MANAGE_GUILD,
    FakeDiscord,
    _base,
    _member,
    click,
    dispatch,
    running_bot,
    slash,
)
from tests.fakes.discord_api import text_of
from words.i18n import game_name, t

NOW = 1_700_000_000.0


class ThreadedDiscord(FakeDiscord):
    """Also makes threads, or refuses to like a channel where the bot lacks Create Public Threads."""

    def __init__(self, threads_forbidden: bool = False) -> None:
        super().__init__()
        self.threads_forbidden = threads_forbidden

    def threads(self) -> list[dict]:
        return [p for m, u, p in self.calls if m == "POST" and u.endswith(f"/channels/{CHANNEL}/threads")]

    def posted(self, channel: int, since: int = 0) -> list[dict]:
        return [p for m, u, p in self.calls[since:] if m == "POST" and u.endswith(f"/channels/{channel}/messages")]


def _option(name: str, value) -> dict:
    kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 6 if isinstance(value, discord.Object) \
        else 3
    return {"name": name, "type": kind, "value": str(value.id) if kind == 6 else value}


def tour(sub: str, uid: int, permissions: int = 0, channel: dict | None = None, /, **options) -> dict:
    """``/tournament <sub> …`` (a sub-command: its options nest under it); users as ``discord.Object``."""
    return _command("tournament", uid, permissions, channel, [{"name": sub, "type": 1, "options": [
        _option(k, v) for k, v in options.items()]}], options)


def command(cmd: str, uid: int, permissions: int = 0, channel: dict | None = None, /, **options) -> dict:
    return _command(cmd, uid, permissions, channel, [_option(k, v) for k, v in options.items()], options)


def _command(name, uid, permissions, channel, opts, options) -> dict:
    data = {"id": str(abs(hash(name))), "name": name, "type": 1, "options": opts}
    users = [v for v in options.values() if isinstance(v, discord.Object)]
    if users:  # a user option comes with the user resolved
        data["resolved"] = {"users": {str(u.id): _member(u.id)["user"] for u in users},
                            "members": {str(u.id): {k: v for k, v in _member(u.id).items() if k != "user"}
                                        for u in users}}
    payload = {**_base(uid, 2, permissions), "data": data}
    if channel is not None:
        payload["channel"], payload["channel_id"] = channel, channel["id"]
    return payload


def thread_channel(thread: int) -> dict:
    return {"id": str(thread), "type": 11, "guild_id": str(GUILD), "parent_id": str(CHANNEL), "name": "T1",
            "owner_id": "99", "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 0, "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                                   "archive_timestamp": "2026-01-01T00:00:00+00:00", "locked": False}}


def _clock(service, now: list[float]) -> None:
    service.clock = lambda: now[0]


@pytest.mark.parametrize("threads", [True, False])
async def test_sign_up_round_start_in_threads_and_standings(tmp_path, monkeypatch, threads):
    now = [NOW]
    async with running_bot(tmp_path, monkeypatch, ThreadedDiscord(not threads)) as (client, fake, service):
        _clock(service, now)
        tours = service.tournaments
        key = f"dc:{GUILD}:{CHANNEL}"
        await dispatch(client, tour("create", 2, game="deal", rounds=2, start="+30", minutes=20))
        reply = fake.last_reply()  # Bob manages nothing: refused, and only Bob sees it
        assert reply["flags"] == 64 and text_of(reply) == t("en", "dc.tour_perm")
        assert await tours.in_chat(key) == []

        await dispatch(client, tour("create", 1, MANAGE_EVENTS, game="deal", rounds=2, start="+30", minutes=20,
                                    name="Spring Cup"))
        reply = fake.last_reply()
        assert not (reply.get("flags") or 0) & 64 and "sign up now" in text_of(reply)
        assert f"<t:{int(NOW) + 1800}:R>" in text_of(reply)
        [row] = await tours.in_chat(key)
        assert row.name == "Spring Cup" and row.match_minutes == 20 and row.rounds == 2
        signup = next(c for c in fake.custom_ids() if c.startswith("T:"))
        assert signup == f"T:{row.id}:s"

        for uid in range(1, 8):
            await dispatch(client, click(signup, uid))
        reply = fake.last_reply()
        assert text_of(reply) == t("en", "tour.signed_up") and reply["flags"] == 64
        edit = next(p for m, u, p in reversed(fake.calls) if u.endswith("/callback") and p.get("type") == 7)
        assert "Entered (7)" in edit["data"]["content"] and "Ann" in edit["data"]["content"]
        # each press entered its presser and nobody else
        assert sorted(e.captain for e in await tours.entrants(row.id)) == [f"dc:{u}" for u in range(1, 8)]
        await dispatch(client, click(signup, 2))  # twice
        reply = fake.last_reply()
        assert reply["flags"] == 64 and text_of(reply) == t("en", "tour.already_entered")
        assert len(await tours.entrants(row.id)) == 7

        now[0] += 25 * 60  # five minutes before: the reminder
        seen = len(fake.calls)
        outcomes = await service.sweep()
        assert [o.key for o in outcomes] == ["tour.round_soon"]
        await service.idle()  # the notices and the tables' updates are out
        assert text_of(fake.posted(CHANNEL, seen)[0]) == t("en", "tour.round_soon", round=1, minutes=5, entrants=7)
        now[0] += 5 * 60  # the first round: seven players, two Deal tables (4 + 3)
        seen = len(fake.calls)
        outcomes = await service.sweep()
        assert [o.key for o in outcomes] == ["tour.round_started"]
        await service.idle()  # the notices and the tables' updates are out
        announce = fake.posted(CHANNEL, seen)[0]
        assert "Round 1 of 2" in text_of(announce) and "Table 2:" in text_of(announce)
        matches = await tours.matches(row.id, 1)
        tables = [m.table_id for m in matches]
        assert len(tables) == 2 and all(service.cache.row(x).status == "running" for x in tables)
        assert not [i for ids in fake.live(CHANNEL).values() for i in ids if i.startswith("T:")], \
            "sign-up is over: its message lost the buttons"
        made = fake.threads()
        if threads:
            assert [p["name"] for p in made] == [f"Spring Cup · R1 · T{n}" for n in (1, 2)]
            assert all(p["type"] == 11 for p in made)
            homes = [service.cache.row(x).messages["dc_thread"] for x in tables]
            for home, table in zip(homes, tables, strict=True):
                [post] = fake.posted(home, seen)
                assert post["files"] == ["table.png"] and f"h:{table}" in fake.custom_ids([("", "", post)])
            assert all("table.png" not in p["files"] for p in fake.posted(CHANNEL, seen)), "not in the channel"
        else:
            assert len(made) == 1, "refused once, not tried again for every table"
            assert [p["files"] for p in fake.posted(CHANNEL, seen)[1:]] == [["table.png"], ["table.png"]]
            assert all("dc_thread" not in service.cache.row(x).messages for x in tables)
            homes = [CHANNEL, CHANNEL]

        # a move at a tournament table is shown at that table (its thread), not in the channel
        table = tables[0]
        seat = GAMES["deal"].rules.waiting_for(service.cache.state(table))[0].seat
        uid = int(service.cache.row(table).seats[seat]["user"][3:])
        token = service.buttons(table, seat)[0][1]
        version, seen = service.cache.row(table).version, len(fake.calls)
        await dispatch(client, click(f"g:{token}", uid))
        assert service.cache.row(table).version > version
        shown = [u for m, u, p in fake.calls[seen:] if "/messages" in u and "/channels/" in u
                 and int(u.split("/channels/")[1].split("/")[0]) < DM_BASE]  # hands by DM aside
        assert shown and all(f"/channels/{homes[0]}/messages" in u for u in shown), shown
        if threads:  # /hand typed in the table's thread finds that table
            await dispatch(client, command("hand", uid, 0, thread_channel(homes[0])))
            reply = fake.last_reply()
            assert reply["flags"] == 64 and t("en", "deal.ui.hand_line", count=0, cards="").split("(")[0] in reply[
                "content"]
            await dispatch(client, command("rules", uid, 0, thread_channel(homes[0])))
            rules = text_of(fake.last_reply())
            # that table's game only, then its rule set and options
            assert rules.startswith(t("en", "ch.rules.deal")) and t("en", "ch.rules.board") not in rules
            assert t("en", "opt.single_double_rent") in rules
            # and /standings typed there is about the channel's tournament
            await dispatch(client, command("standings", 3, 0, thread_channel(homes[0])))
            assert "Spring Cup — standings" in text_of(fake.last_reply())

        now[0] += 20 * 60 + 1  # both match clocks run out
        seen = len(fake.calls)
        await service.sweep()
        await service.idle()
        assert all(service.cache.row(x).status == "over" for x in tables)
        [posted] = [p for p in fake.posted(CHANNEL, seen) if "standings.png" in p["files"]]  # once, in the channel
        assert text_of(posted).startswith(t("en", "tour.round_over", round=1))
        await dispatch(client, command("standings", 3))
        reply = fake.last_reply()
        standing = await tours.standings(row.id)
        first = standing["rows"][0]
        assert "Spring Cup — standings" in text_of(reply)
        assert f"#{first['entrant']} {first['name']}" in text_of(reply)
        assert [a["filename"] for a in reply["attachments"]] == ["standings.png"]
        assert sum(e["played"] for e in standing["rows"]) == 7

        await dispatch(client, tour("pause", 2))
        reply = fake.last_reply()
        assert reply["flags"] == 64 and text_of(reply) == t("en", "tour.admins_only")
        assert (await tours.get(row.id)).status == "running"
        await dispatch(client, tour("pause", 3, MANAGE_GUILD))
        assert text_of(fake.last_reply()) == t("en", "tour.paused")
        assert (await tours.get(row.id)).status == "paused"
        await dispatch(client, tour("resume", 3, MANAGE_GUILD))
        assert (await tours.get(row.id)).status == "running"


async def test_sign_up_buttons_work_after_a_restart_and_admins_replace_and_correct(tmp_path, monkeypatch):
    now = [NOW]
    async with running_bot(tmp_path, monkeypatch, ThreadedDiscord()) as (client, fake, service):
        _clock(service, now)
        await dispatch(client, tour("create", 1, MANAGE_GUILD, game="board", rounds=2, start="+10", minutes=30,
                                    no_trading=True))
        signup = next(c for c in fake.custom_ids() if c.startswith("T:"))
    async with running_bot(tmp_path, monkeypatch, ThreadedDiscord()) as (client, fake, service):
        _clock(service, now)  # a new process: only the id on the old message
        tours = service.tournaments
        [row] = await tours.in_chat(f"dc:{GUILD}:{CHANNEL}")
        assert row.options == {"no_trading": True}
        for uid in (1, 2, 3):
            await dispatch(client, click(signup, uid))
        assert [e.captain for e in await tours.entrants(row.id)] == ["dc:1", "dc:2", "dc:3"]
        now[0] += 10 * 60
        await service.sweep()
        await service.idle()
        [match] = await tours.matches(row.id, 1)

        await dispatch(client, tour("replace", 2, match=match.id, seat=1))  # not an admin
        assert text_of(fake.last_reply()) == t("en", "tour.admins_only")
        await dispatch(client, tour("replace", 1, MANAGE_GUILD, match=match.id, seat=2, player=discord.Object(8)))
        assert service.cache.row(match.table_id).seats[1]["user"] == "dc:8"
        assert "U8" in text_of(fake.last_reply())
        await dispatch(client, tour("replace", 1, MANAGE_GUILD, match=match.id, seat=3))  # no player: the AI
        assert service.cache.row(match.table_id).seats[2]["ai"]

        await dispatch(client, tour("cancel", 1, MANAGE_GUILD, match=match.id, reason="fire alarm"))
        assert service.cache.row(match.table_id).status == "cancelled"
        winner = match.entrants[0]
        await dispatch(client, tour("correct", 1, MANAGE_GUILD, match=match.id, winners=str(winner),
                                    reason="the referee saw it"))
        assert text_of(fake.last_reply()) == t("en", "tour.corrected", match=match.id, reason="the referee saw it")
        standing = await tours.standings(row.id)
        assert next(e for e in standing["rows"] if e["entrant"] == winner)["wins"] == 1
        assert (await tours.corrections(row.id))[0].reason == "the referee saw it"


async def test_team_captains_by_slash_command_and_members_by_button(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch, ThreadedDiscord()) as (client, fake, service):
        _clock(service, [NOW])
        tours = service.tournaments
        await dispatch(client, tour("create", 1, MANAGE_GUILD, game="board", rounds=3, start="+60", entry="team"))
        assert "Captains: /team <name>" in text_of(fake.last_reply())
        await dispatch(client, command("team", 2, name="Reds"))
        reply = fake.last_reply()
        assert "Team Reds is in" in text_of(reply) and not (reply.get("flags") or 0) & 64
        join = next(c for c in fake.custom_ids() if c.startswith("T:") and ":j:" in c)
        await dispatch(client, command("team", 2, name="Blues"))  # a captain already
        assert fake.last_reply()["flags"] == 64
        await dispatch(client, click(join, 3))  # Cy joins the Reds
        await dispatch(client, command("rep", 3, match=1, player=discord.Object(3)))  # Cy is no captain
        assert "Only the captain" in text_of(fake.last_reply())
        await dispatch(client, command("rep", 2, match=1, player=discord.Object(9)))  # not in the team
        assert "members in the order they joined" in text_of(fake.last_reply())
        await dispatch(client, command("rep", 2, match=1, player=discord.Object(3)))
        assert text_of(fake.last_reply()) == "U3 plays match 1 for Reds."
        [row] = await tours.in_chat(f"dc:{GUILD}:{CHANNEL}")
        [team] = await tours.entrants(row.id)
        assert team.representatives == {"1": "dc:3"} and [m["user"] for m in team.members] == ["dc:2", "dc:3"]


async def test_a_called_off_match_takes_its_calendar_event_with_it(tmp_path, monkeypatch):
    now = [NOW]
    async with running_bot(tmp_path, monkeypatch, ThreadedDiscord()) as (client, fake, service):
        _clock(service, now)
        await dispatch(client, slash("schedule", 3, permissions=MANAGE_EVENTS, game="deal", start="+30", minutes=20))
        made = [u for m, u, p in fake.calls if m == "POST" and u.endswith(f"/guilds/{GUILD}/scheduled-events")]
        assert len(made) == 1
        stored = await keyvalue.get_value(service.db, "dc.event.1")
        assert stored and stored.startswith(f"{GUILD}:")
        now[0] += 31 * 60  # nobody signed up
        seen = len(fake.calls)
        outcomes = await service.sweep()
        assert [o.key for o in outcomes] == ["service.match_announced", "service.schedule_too_few"]
        await service.idle()
        deleted = [u for m, u, p in fake.calls[seen:] if m == "DELETE"]
        assert deleted == [f"/guilds/{GUILD}/scheduled-events/{stored.split(':')[1]}"]
        assert t("en", "service.schedule_too_few", min=2) in [text_of(p) for p in fake.posted(CHANNEL, seen)]
        assert await keyvalue.get_value(service.db, "dc.event.1") is None


async def test_rule_sets_are_suggested_and_the_tournament_commands_are_localised(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await client.tree.sync()
        _, _, payload = next(c for c in fake.calls if c[1].endswith("/applications/42/commands"))
        commands = {c["name"]: c for c in payload["commands"]}
        for command in (commands["newgame"], *(o for o in commands["tournament"]["options"] if o["name"] == "create")):
            ruleset = next(o for o in command["options"] if o["name"] == "ruleset")
            assert ruleset["autocomplete"] and "choices" not in ruleset  # the chosen game's sets, as typed
        assert {"tournament", "standings", "team", "rep"} <= set(commands)
        group = commands["tournament"]
        assert group["name_localizations"] == {"zh-CN": "锦标赛", "zh-TW": "錦標賽"}
        subs = {o["name"]: o for o in group["options"]}
        assert set(subs) == {"create", "pause", "resume", "cancel", "replace", "correct"}
        assert subs["create"]["name_localizations"]["zh-CN"] == t("zh-Hans", "dc.cmd.tour_create")

        await dispatch(client, slash("newgame", 1, game="board", ruleset="classic"))
        row = await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}")
        assert row.game == "board" and row.ruleset == "classic"


@pytest.mark.parametrize("threads", [True, False])
async def test_a_game_in_a_thread_of_its_own(tmp_path, monkeypatch, threads):
    """/newgame thread:true plays the whole game in a new thread (lobby, table, commands); when the
    bot may not make threads the game plays in the channel and the opener is told why."""
    async with running_bot(tmp_path, monkeypatch, ThreadedDiscord(not threads)) as (client, fake, service):
        await dispatch(client, command("newgame", 1, game="deal", thread=True))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        made = fake.threads()
        named = t("en", "dc.thread_name", game=game_name("deal", "en"), table=table)
        assert len(made) == 1 and made[0]["name"] == named
        lobby = fake.posted(CHANNEL)
        home = service.cache.row(table).messages.get("dc_thread")
        if threads:
            assert lobby == [] and home  # the lobby went to the thread, not the channel
            assert any(f"/channels/{home}/messages" in u for m, u, p in fake.calls if m == "POST")
            assert text_of(fake.last_reply()) == t("en", "dc.game_in_thread", thread=f"<#{home}>")
        else:
            assert home is None
            assert any(text_of(p) == t("en", "dc.no_thread") and p.get("flags") == 64
                       for _, u, p in fake.calls if "/webhooks/" in u)
            # the first follow-up takes the place of the public "thinking…" (its own ephemeral flag is not
            # honoured by Discord): that is the lobby, and the notice for the asker alone comes after it
            followups = [p for m, u, p in fake.calls if m == "POST" and "/webhooks/" in u]
            assert any(c.startswith("l:") for c in fake.custom_ids([("", "", followups[0])]))
        for press in (click(f"l:{table}:join", 2), click(f"l:{table}:ai", 1), click(f"l:{table}:start", 1)):
            await dispatch(client, press)
        assert service.cache.row(table).status == "running"
        seat = GAMES["deal"].rules.waiting_for(service.cache.state(table))[0].seat
        uid = int(service.cache.row(table).seats[seat]["user"][3:])
        seen = len(fake.calls)
        await dispatch(client, click(f"g:{service.buttons(table, seat)[0][1]}", uid))
        shown = [u for m, u, p in fake.calls[seen:] if m in ("POST", "PATCH") and "/messages" in u
                 and int(u.split("/channels/")[1].split("/")[0]) < DM_BASE]
        assert shown and all(f"/channels/{home or CHANNEL}/messages" in u for u in shown)
        if threads:  # the table's commands work in its thread; a second game in the channel is refused
            await dispatch(client, command("rules", 2, 0, thread_channel(home)))
            assert text_of(fake.last_reply()).startswith(t("en", "ch.rules.deal") + "\n\n" + t(
                "en", "opt.table_rules", ruleset="standard rules", code="standard"))
        await dispatch(client, command("newgame", 2, game="board"))
        assert text_of(fake.last_reply()) == t("en", "service.table_exists", table=table, game="deal")
