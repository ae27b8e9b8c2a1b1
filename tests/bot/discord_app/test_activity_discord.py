"""Issue 49: the Discord Activity's doors on the bot's side, over the fake Discord (strict about
Entry Point commands and LAUNCH_ACTIVITY: ``tests/fakes/discord_activity.py``). With the Activity
configured (``DISCORD_CLIENT_ID``), ``/play`` is the application's Entry Point command in the sync
payload (type 4, handler 2, both installs, every context), replacing Discord's own "Launch"; an
Entry Point interaction and "Open table" under a table's message answer LAUNCH_ACTIVITY (type 12),
which opens the channel's Activity instance (the fake OAuth side then knows it, at the same address:
the page signs in there and finds the channel's table, a player at their seat, anyone else
watching); where Discord refuses, the presser gets the web link. Without it, ``/play``
is a slash command answering with the web link, and Discord's own Entry Point command survives
the sync (Discord refuses an overwrite that drops it: 50240). A lobby opened in the Activity is
shown in its channel."""

from __future__ import annotations

import discord
import pytest
from aiohttp.test_utils import TestClient, TestServer
from discord.http import Route

from bot.discord_app import activity, threads
from bot.web import activity as web_activity
from bot.web.activity import DiscordSettings
from bot.web.server import make_app
from tests.bot.discord_app.test_discord import (
    CHANNEL,
    SERVERS,
    _base,
    click,
    dispatch,
    open_table,
    running_bot,
    slash,
)
from tests.fakes.discord_api import APP_ID, EPHEMERAL, GUILD, text_of
from tests.fakes.discord_api import DiscordAPI as FakeDiscord
from tests.fakes.discord_oauth import DiscordOAuth
from words.i18n import t

ANN, BOB, CAT = 1, 2, 3
WEB = "https://tycoon.example"
# the Entry Point command Discord makes when Activities are turned on for an application
LAUNCH = {"id": "7007", "application_id": str(APP_ID), "version": "1", "name": "launch", "type": 4, "handler": 2,
          "description": "Launch an activity", "integration_types": [0, 1], "contexts": [0, 1, 2]}


@pytest.fixture
def activity_on(monkeypatch):
    monkeypatch.setenv("DISCORD_CLIENT_ID", str(APP_ID))
    monkeypatch.setenv("TYCOON_WEB_URL", WEB)


@pytest.fixture
def activity_off(monkeypatch):
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    monkeypatch.setenv("TYCOON_WEB_URL", WEB)


def _embedded(with_launch: bool = True) -> FakeDiscord:
    """A fake Discord whose application has Activities on (and Discord's own "Launch" command)."""
    fake = FakeDiscord()
    fake.embedded = True
    if with_launch:
        fake.commands = [dict(LAUNCH)]
    return fake


def _synced(fake: FakeDiscord) -> list[dict]:
    return next(p["commands"] for m, u, p in reversed(fake.calls)
                if m == "PUT" and u == f"/applications/{APP_ID}/commands")


def _links(reply: dict) -> dict[str, str]:
    def walk(nodes):
        for c in nodes or []:
            yield c
            yield from walk(c.get("components"))
    return {c["label"]: c["url"] for c in walk(reply.get("components")) if c.get("style") == 5}


def _entry_point(uid: int) -> dict:
    """The Entry Point command used, as Discord delivers it to an app that handles it (APP_HANDLER)."""
    return {**_base(uid, 2), "data": {"id": "7007", "name": "play", "type": 4}}


async def test_the_sync_payload_carries_play_as_the_entry_point_command(tmp_path, monkeypatch, activity_on):
    async with running_bot(tmp_path, monkeypatch, _embedded()) as (client, fake, service):
        await client.tree.sync()
        sent = _synced(fake)
        points = [c for c in sent if c.get("type") == 4]
        assert points == [{**activity.entry_point(), "id": LAUNCH["id"]}], points  # Discord's "Launch" made /play
        play = points[0]
        assert (play["name"], play["handler"], play["integration_types"], play["contexts"]) == \
            ("play", 2, [0, 1], [0, 1, 2])
        assert play["name_localizations"] == {"zh-CN": "牌桌", "zh-TW": "牌桌"}
        assert play["description_localizations"]["zh-CN"] == t("zh-Hans", "dc.cmd.play.desc")
        assert not [c for c in sent if c["name"] == "play" and c.get("type", 1) == 1]  # no slash /play besides
        assert {c["name"] for c in fake.commands if c["type"] == 4} == {"play"}
        # Discord refused the first overwrite (its "Launch" left out), the second took its id
        assert [(r[2], r[3]["code"]) for r in fake.refusals] == [(400, 50240)]
        fake.refusals.clear()


async def test_an_application_without_activities_still_gets_its_slash_commands(tmp_path, monkeypatch, activity_on,
                                                                               caplog):
    """``DISCORD_CLIENT_ID`` set, Activities not turned on for the application: Discord refuses the
    Entry Point command; the slash commands are sent again without it, and the log says why."""
    async with running_bot(tmp_path, monkeypatch, FakeDiscord(), errors_expected=True) as (client, fake, service):
        await client.tree.sync()
        (refusal,) = fake.refusals
        assert refusal[2] == 400 and list(refusal[3]["errors"]) == [str(len(_synced(fake)))], refusal
        assert "newgame" in {c["name"] for c in fake.commands} and not [c for c in fake.commands if c["type"] == 4]
        assert any("are Activities on" in r.getMessage() for r in caplog.records)
        fake.refusals.clear()


async def test_without_the_activity_play_answers_with_the_web_link_and_discords_entry_point_stays(
        tmp_path, monkeypatch, activity_off):
    async with running_bot(tmp_path, monkeypatch, _embedded()) as (client, fake, service):
        # Discord refuses an overwrite that leaves its Entry Point command out, whole
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.request(Route("PUT", "/applications/{a}/commands", a=APP_ID), json=[])
        assert (refused.value.status, refused.value.code) == (400, 50240)
        fake.refusals.clear()
        await client.tree.sync()  # refused once the same way, then sent again with it
        assert [(r[2], r[3]["code"]) for r in fake.refusals] == [(400, 50240)]
        fake.refusals.clear()
        sent = {(c["name"], c.get("type", 1)): c for c in _synced(fake)}
        assert sent[("launch", 4)] == {k: v for k, v in LAUNCH.items() if k in activity.KEPT}  # kept as it is
        assert sent[("play", 1)]["description"] == t("en", "dc.cmd.play.desc")
        # /play with no table here: how to open one, and the web lobby
        await dispatch(client, slash("play", ANN))
        reply = fake.last_reply()
        assert reply["flags"] & EPHEMERAL and text_of(reply) == t("en", "dc.play.none_web", url=WEB + "/")
        assert _links(reply) == {t("en", "web.open_table"): WEB + "/"}
        # with a table: its web page (the spectator's link), to the asker alone
        table = await open_table(client, fake, service)
        await dispatch(client, slash("play", BOB))
        reply = fake.last_reply()
        link = WEB + f"/watch/{table}?k={service.sign(f'v:{table}')}"
        assert reply["flags"] & EPHEMERAL and text_of(reply) == t("en", "dc.play.table_web", url=link)
        assert _links(reply) == {t("en", "web.watch"): link}
        # the table's message links the web page: no Activity to open
        assert not [c for c in fake.custom_ids(raw=True) if c.startswith("A:")]


async def test_an_entry_point_interaction_launches_the_activity(tmp_path, monkeypatch, activity_on):
    async with running_bot(tmp_path, monkeypatch, _embedded()) as (client, fake, service):
        payload = _entry_point(ANN)
        await dispatch(client, payload)
        assert fake.answered()[payload["token"]] == [12]
        assert fake.launched == [(CHANNEL, ANN, f"i-{payload['token']}-gc-{GUILD}-{CHANNEL}")]


async def test_open_table_under_the_table_message_launches_the_channels_activity(tmp_path, monkeypatch,
                                                                                activity_on):
    fake = _embedded(with_launch=False)
    oauth = DiscordOAuth(client_id=str(APP_ID))
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        oauth.attach(SERVERS[id(client)])  # one address for the bot and the Activity, as in production
        oauth.add_user(BOB, "Bob")
        table = await open_table(client, fake, service)
        shown = [c for c in fake.custom_ids(raw=True) if c.startswith(f"A:{table}.")]
        assert shown and service.unsign(shown[0]) == f"A:{table}"  # "Open table", signed, on the table message
        assert not [u for u in fake.custom_ids(raw=True) if u.startswith(WEB)]  # instead of the web link
        press = click(shown[0], BOB, signed=False)
        await dispatch(client, press)
        assert fake.answered()[press["token"]] == [12]
        (instance,) = oauth.instances
        assert oauth.instances[instance]["location"] == {"id": f"gc-{GUILD}-{CHANNEL}", "kind": "gc",
                                                        "channel_id": str(CHANNEL), "guild_id": str(GUILD)}
        assert oauth.instances[instance]["users"] == [str(BOB)]
        # the page Discord then opens signs in at the same address: Bob is at his seat (the one his
        # Join in the channel gave him: one seat whatever the door), Cat, who joins the instance, watches
        server = SERVERS[id(client)]
        settings = DiscordSettings(str(APP_ID), oauth.client_secret, server.token, server.api_url)
        web = TestClient(TestServer(make_app(service, lang="en", discord=settings)))
        await web.start_server()
        oauth.add_user(CAT, "Cat")
        assert oauth.launch(CHANNEL, GUILD, CAT) == instance
        states = {}
        try:
            for uid in (BOB, CAT):
                answer = await web.post("/api/discord/token", headers={"Origin": f"https://{APP_ID}.discordsays.com"},
                                        json={"code": oauth.authorize(uid, str(APP_ID), ["identify"]),
                                              "instance_id": instance})
                assert answer.status == 200, await answer.text()
                states[uid] = (await answer.json())["state"]
        finally:
            await web.close()
        assert (states[BOB]["table"], states[BOB]["status"], states[BOB]["seated"]) == (table, "running", True)
        assert "watch" not in states[BOB]
        assert not states[CAT]["seated"] and service.unsign(states[CAT]["watch"]) == f"v:{table}"
        # Discord refuses to launch it (Activities turned off for the application): the web link instead
        fake.embedded = False
        press = click(shown[0], ANN, signed=False)
        await dispatch(client, press)
        reply = fake.last_reply()
        link = WEB + f"/watch/{table}?k={service.sign(f'v:{table}')}"
        assert fake.answered()[press["token"]] == [4] and reply["flags"] & EPHEMERAL
        assert text_of(reply) == t("en", "dc.play.refused") + "\n" + t("en", "dc.play.table_web", url=link)
        assert _links(reply) == {t("en", "web.watch"): link}
        fake.refusals.clear()  # Discord's refusal of the launch was the point


async def test_a_lobby_opened_in_the_activity_is_shown_in_its_channel(tmp_path, monkeypatch, activity_on):
    async with running_bot(tmp_path, monkeypatch, _embedded()) as (client, fake, service):
        opened = await service.lobby.new_table(f"dc:{GUILD}:{CHANNEL}", "deal", None, f"dc:{ANN}", "Ann")
        await activity.chat_lobby(client.front.ctx)(opened.table)
        ids = [i for message in fake.live(CHANNEL).values() for i in message]
        assert f"l:{opened.table}:join" in ids and f"l:{opened.table}:start" in ids, ids
        await service.lobby.op(opened.table, "join", f"dc:{BOB}", "Bob")
        await activity.chat_lobby(client.front.ctx)(opened.table)
        lobby = [m for m in fake.messages.values() if f"l:{opened.table}:join" in m["ids"]]
        assert len(lobby) == 1 and "Bob" in text_of(lobby[0])  # the one lobby message, edited


def test_the_web_finds_a_threads_table_as_the_bot_does():
    assert web_activity.thread_key("123") == threads.thread_key(123)
