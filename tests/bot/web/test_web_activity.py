"""Issue 49: the web table as a Discord Activity. In Chromium, a stand-in for Discord's client
(``tests/fakes/discord_client.py``) frames the Activity page as Discord does and answers the
Embedded App SDK's handshake, ``AUTHORIZE`` and ``AUTHENTICATE``; a fake Discord
(``tests/fakes/discord_oauth.py``) exchanges the code, names the user and says which channel the
Activity instance runs in. A member opens a table in their channel, adds an AI seat, starts it and
plays a move on it: the service's state changes, the seat is the bot's ``dc:<id>``. A forged code is
refused with the page saying why. Without Chromium: the API's refusals (no Activity configured, a
channel the member is not in, no session) and the origin Discord's proxy gives its requests."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.activity import DiscordSettings
from bot.web.hub import Hub
from bot.web.server import make_app, start_site
from engine.games import GAMES
from engine.service.tables import GameService
from tests.bot.web.conftest import CHROMIUM
from tests.fakes import discord_client
from tests.fakes.discord_oauth import DiscordOAuth
from tools.headless import PRESS, Browser
from words.i18n import t

GUILD, CHANNEL, OTHER_CHANNEL = 20, 10, 11
ANN, BOB = 1, 2
BOT_TOKEN = "discord-test-token"


@pytest.fixture
async def discord():
    fake = DiscordOAuth(client_id="42", client_secret="activity-secret", bot_token=BOT_TOKEN)
    await fake.start()
    fake.add_user(ANN, "Ann")
    fake.add_user(BOB, "Bob", locale="zh-CN")
    try:
        yield fake
    finally:
        await fake.stop()


def _settings(fake: DiscordOAuth) -> DiscordSettings:
    return DiscordSettings(fake.client_id, fake.client_secret, fake.bot_token, fake.api_url)


@pytest.fixture
async def served(tmp_path, discord):
    """The web table with the Activity on, the stand-in client on its address, and Chromium."""
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    app = make_app(service, Hub(service, seed=11), lang="en", discord=_settings(discord))
    discord_client.add_routes(app, discord)
    runner, address = await start_site(app, "127.0.0.1", 0)
    browser = await Browser.launch(CHROMIUM, tmp_path / "profile")
    try:
        yield service, address, browser
    finally:
        await browser.close()
        await runner.cleanup()
        await service.idle()
        await service.close()


def inside(expression: str) -> str:
    """``expression`` evaluated in the Activity's frame (the stand-in client's page frames it)."""
    return f"document.getElementById('activity').contentWindow.eval({json.dumps(expression)})"


async def _open(browser, address: str, user: int, instance: str, code: str | None = None):
    page = await browser.new_page(480, 900)
    query = f"user={user}&instance={instance}&channel={CHANNEL}&guild={GUILD}" + (f"&code={code}" if code else "")
    await page.goto(f"{address}/_discord/client?{query}")
    return page


async def test_a_member_opens_the_activity_sits_down_and_plays_a_move(served, discord):
    service, address, browser = served
    instance = discord.launch(CHANNEL, GUILD, ANN)  # Ann opens the Activity in the channel
    page = await _open(browser, address, ANN, instance)
    await page.wait(inside("document.body.dataset.activity === 'empty'"))
    # the SDK's handshake and commands, as the client received them
    sent = await page.eval("window.rpc")
    assert sent[0][0] == 0 and sent[0][1]["client_id"] == "42" and sent[0][1]["v"] == 1, sent[0]
    commands = [data["cmd"] for op, data in sent if op == 1]
    assert commands == ["AUTHORIZE", "AUTHENTICATE"], commands
    authorize = next(data["args"] for op, data in sent if op == 1 and data["cmd"] == "AUTHORIZE")
    assert authorize["scope"] == ["identify"] and authorize["response_type"] == "code", authorize
    assert [path for _, path in discord.calls] == [
        "/oauth2/token", "/users/@me", f"/applications/42/activity-instances/{instance}"]
    # no table in the channel yet: one tap opens one (the words are Ann's Discord language's)
    assert await page.eval(inside("document.getElementById('activity-text').textContent")) == \
        t("en", "web.dc.no_table")
    await page.eval(inside("document.querySelector('#activity-buttons [data-op=\"open:deal\"]').click()"))
    await page.wait(inside("document.body.dataset.activity === 'seated'"))
    row = await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}")
    assert row is not None and row.game == "deal" and row.seats == [{"user": "dc:1", "name": "Ann", "ai": False}]
    table = row.id
    await page.eval(inside("document.querySelector('#activity-buttons [data-op=ai]').click()"))
    await page.wait(inside("document.querySelectorAll('#activity-seats li').length === 2"))
    await page.eval(inside("document.querySelector('#activity-buttons [data-op=start]').click()"))
    # the game runs: the panel gives way to the table page, over its WebSocket
    await page.wait(inside("document.body.dataset.status === 'running' && document.body.dataset.activity === "
                           "'playing' && !document.getElementById('activity')"))
    assert service.cache.row(table).status == "running"
    plug, seat = GAMES["deal"], 0  # Ann's seat: she opened the table
    for _ in range(2000):  # the AI seat's turn first, perhaps: the service's own pace
        await service.idle()
        if seat in [d.seat for d in plug.rules.waiting_for(service.cache.state(table))]:
            break
        await asyncio.sleep(0.01)
    version = service.cache.row(table).version
    await page.wait(inside(f"Number(document.body.dataset.version) >= {version}"))
    action = plug.choose_listed(service.cache.state(table), seat)
    token = next(tok for a, tok in service.buttons(table, seat) if a == action)
    how = None
    for _ in range(200):
        how = await page.eval(inside(f"{PRESS}({json.dumps(token)})"))
        if how:
            break
        await asyncio.sleep(0.05)
    assert how, "the table page never offered Ann's move"
    for _ in range(2000):
        await service.idle()
        if service.cache.row(table).version > version:
            break
        await asyncio.sleep(0.01)
    assert service.cache.row(table).version > version, "Ann's press made no move"
    assert not page.errors, page.errors


async def test_a_forged_code_is_refused_and_the_page_says_why(served, discord):
    service, address, browser = served
    instance = discord.launch(CHANNEL, GUILD, ANN)
    page = await _open(browser, address, ANN, instance, code="forged0code0from0nowhere")
    await page.wait(inside("document.body.dataset.status === 'refused'"))
    said = await page.eval(inside("document.getElementById('error').textContent"))
    assert said == t("en", "web.err.dc_code"), said
    assert discord.refusals == [("/oauth2/token", 400, {"error": "invalid_grant",
                                                         "error_description": 'Invalid "code" in request.'})]
    assert await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}") is None
    assert not await page.eval(inside("document.getElementById('activity')"))  # nothing to press


@pytest.fixture
async def api(tmp_path, discord):
    """The web table's API alone (no browser), the Activity on."""
    service = await GameService.open(f"sqlite:///{tmp_path / 'api.db'}")
    client = TestClient(TestServer(make_app(service, Hub(service, seed=11), lang="en", discord=_settings(discord))))
    await client.start_server()
    try:
        yield service, client
    finally:
        await client.close()
        await service.idle()
        await service.close()


def _origin(client) -> dict:
    return {"Origin": f"http://{client.host}:{client.port}"}


async def test_the_member_must_be_in_the_instance_of_the_channel(api, discord):
    service, client = api
    elsewhere = discord.launch(OTHER_CHANNEL, GUILD, BOB)  # Bob's Activity, in another channel
    code = discord.authorize(ANN, "42", ["identify"])
    answer = await client.post("/api/discord/token?lang=en", json={"code": code, "instance_id": elsewhere},
                               headers=_origin(client))
    assert answer.status == 403 and (await answer.json())["error"] == t("en", "web.err.dc_instance")
    code = discord.authorize(ANN, "42", ["identify"])
    answer = await client.post("/api/discord/token?lang=en", json={"code": code, "instance_id": "i-1-gc-20-10"},
                               headers=_origin(client))
    assert answer.status == 403  # no such instance: Discord answers 404
    assert discord.refusals[-1][:2] == ("/applications/42/activity-instances/i-1-gc-20-10", 404)


async def test_a_session_and_its_instance_are_needed_and_the_language_is_the_members(api, discord):
    service, client = api
    instance = discord.launch(CHANNEL, GUILD, BOB)
    code = discord.authorize(BOB, "42", ["identify"])
    # Discord's proxy: the page is https://<client id>.discordsays.com, and so is its requests' origin
    answer = await client.post("/api/discord/token", json={"code": code, "instance_id": instance},
                               headers={"Origin": "https://42.discordsays.com"})
    assert answer.status == 200, await answer.text()
    body = await answer.json()
    assert body["lang"] == "zh-Hans" and body["words"]["web.dc.no_table"] == t("zh-Hans", "web.dc.no_table")
    assert body["user"] == {"id": str(BOB), "name": "Bob"} and body["state"] == {"table": None, "games": list(GAMES)}
    assert service.unsign(body["session"]) == f"d:{BOB}"
    refused = await client.post("/api/discord/table?lang=en", headers=_origin(client),
                                json={"session": "d:2.00000000", "instance_id": instance, "op": "open", "game": "deal"})
    assert refused.status == 403 and (await refused.json())["error"] == t("en", "web.err.dc_session")
    opened = await client.post("/api/discord/table", headers=_origin(client), json={
        "session": body["session"], "instance_id": instance, "op": "open", "game": "board"})
    assert opened.status == 200 and (await opened.json())["state"]["seated"]
    elsewhere = await client.get("/api/discord/state", params={"s": body["session"], "instance": "i-9-gc-20-12"})
    assert elsewhere.status == 403
    stranger = await client.post("/api/discord/token", json={"code": "x", "instance_id": instance},
                                 headers={"Origin": "https://43.discordsays.com"})
    assert stranger.status == 403  # another application's Activity is another site


async def test_without_the_activity_configured_its_page_and_api_say_so(tmp_path, monkeypatch):
    for name in ("DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET"):
        monkeypatch.delenv(name, raising=False)
    service = await GameService.open(f"sqlite:///{tmp_path / 'off.db'}")
    client = TestClient(TestServer(make_app(service, lang="en")))
    await client.start_server()
    try:
        page = await client.get("/activity?lang=en")
        assert page.status == 404 and t("en", "web.err.no_discord") in await page.text()
        answer = await client.post("/api/discord/token?lang=en", json={"code": "x", "instance_id": "i-1"},
                                   headers=_origin(client))
        assert answer.status == 404 and (await answer.json())["error"] == t("en", "web.err.no_discord")
        lobby = await client.get("/?frame_id=f&instance_id=i-1&platform=desktop&lang=en")
        assert lobby.status == 404  # Discord's launch at the root: the same answer, not the web lobby
    finally:
        await client.close()
        await service.close()


def test_the_settings_come_from_the_environment_and_a_bad_client_id_turns_it_off():
    env = {"DISCORD_CLIENT_ID": "42", "DISCORD_CLIENT_SECRET": "s", "DISCORD_TOKEN": "b",
           "DISCORD_API_URL": "http://127.0.0.1:9/api/v10/"}
    assert DiscordSettings.from_env(env) == DiscordSettings("42", "s", "b", "http://127.0.0.1:9/api/v10")
    assert DiscordSettings.from_env({**env, "DISCORD_API_URL": ""}).api == "https://discord.com/api/v10"
    assert DiscordSettings.from_env({**env, "DISCORD_CLIENT_SECRET": ""}) is None
    assert DiscordSettings.from_env({**env, "DISCORD_CLIENT_ID": "tycoon"}) is None


def test_the_vendored_sdk_is_installed_with_the_package():
    """The image installs the package (``pyproject.toml``'s package data): the SDK must be in it."""
    import glob
    import tomllib

    from tests.paths import ROOT

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bot.web"]
    shipped = {f for p in patterns for f in glob.glob(p, root_dir=ROOT / "bot" / "web")}
    assert "static/vendor/discord-embedded-app-sdk-2.5.0.mjs" in shipped and "static/activity.js" in shipped
    script = (ROOT / "bot" / "web" / "static" / "activity.js").read_text()
    assert '"/static/vendor/discord-embedded-app-sdk-2.5.0.mjs"' in script
