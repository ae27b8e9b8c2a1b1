"""From not in the group to a running game, one door each (issue 49): four people reach a running
game over each platform's fake with no typed command (buttons and links only), and the taps each
needed are counted; ``tycoon bench`` prints them (``doors_*``; the goal is 4 at most each) and
tests/tools/test_doors.py asserts the game runs, nothing was typed and the goal holds.

**Telegram** (``tests/fakes/telegram_doors.py`` counts the taps as a Telegram app needs them):
Ann taps "Add the bot and play" on a "Play Monopoly Deal here" card (inline mode's card, sent to
her by a friend; its link adds the bot to a group with the game, ``startgroup=deal``: the button,
the group picked, the bot confirmed) and the lobby opens with her seated; Bob taps Join under the
lobby; Bob sends Cy the "Join my table" card from inline mode (the invite button, the chat picked,
the card chosen) and Cy taps it; Dee taps the lobby's link to the bot's private chat
(``start=t<table>``), which seats her; Ann taps Start.

**Discord** (the Activity's page driven through its own API, as its buttons call it; the bot over
the fake Discord with the Activity on): Ann opens the Activity from the App Launcher (the Entry
Point), taps "Monopoly Deal" (a lobby, shown in the channel too) and later Start; Bob, a member of
the server, taps Join on the channel's lobby message; Cy, who installed the app to his own account,
taps the same Join; Dee opens the Activity in the channel and taps Join there.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path

from engine.service.tables import GameService

ORIGIN = "https://{app}.discordsays.com"


async def telegram_doors(folder: Path) -> dict[str, int]:
    """The Telegram script: taps per person, once the game runs with the four of them."""
    from bot.telegram_app.app import build_application
    from bot.telegram_app.invites import add_link
    from tests.fakes.telegram_doors import TelegramApps, url_buttons
    from tests.fakes.telegram_server import BOT_TOKEN, BOT_USERNAME, BotAPIServer

    group, ann, bob, cy, dee = -1001, 11, 12, 13, 14
    server = BotAPIServer()
    port = await server.start()
    service = await GameService.open(f"sqlite:///{folder / 'telegram-doors.db'}")
    app = build_application(service, BOT_TOKEN, base_url=f"http://127.0.0.1:{port}/p0/bot", rate_limit=False,
                            lang="en")
    await app.initialize()
    try:
        tg = TelegramApps(server, app, service)
        await tg.open(ann, add_link(BOT_USERNAME, "deal"), group)  # a lobby, Ann seated
        table = (await service.lobby.table_in_chat(f"tg:{group}")).id
        await tg.press(bob, group, f"l:{table}:join")
        (card,) = [r for r in await tg.invite(bob, "private") if r["id"] == f"join:{table}"]
        await tg.choose(bob, cy, card)
        await tg.open(cy, url_buttons(card)[0]["url"])
        await tg.open(dee, f"https://t.me/{BOT_USERNAME}?start=t{table}")  # the lobby's link to the bot's chat
        await tg.press(ann, group, f"l:{table}:start")
        row = service.cache.row(table)
        if row.status != "running" or [s["user"] for s in row.seats] != [f"tg:{u}" for u in (ann, bob, cy, dee)]:
            raise AssertionError(f"not the four of them at a running table: {row.status} {row.seats}")
        if tg.typed or server.refused:
            raise AssertionError(f"typed {dict(tg.typed)}, refused {server.refused[:3]}")
        names = {ann: "ann", bob: "bob", cy: "cy", dee: "dee"}
        return {names[uid]: tg.taps[uid] for uid in names}
    finally:
        await app.shutdown()
        await service.close()
        await server.stop()


async def discord_doors(folder: Path) -> dict[str, int]:
    """The Discord script: taps per person, once the game runs with the four of them."""
    import pytest
    from aiohttp.test_utils import TestClient, TestServer

    from bot.discord_app import activity
    from bot.web.activity import ACTIVITY, DiscordSettings
    from bot.web.hub import Hub
    from bot.web.server import make_app
    from tests.bot.discord_app.test_discord import CHANNEL, SERVERS, click, dispatch, running_bot
    from tests.fakes.discord_api import APP_ID, GUILD
    from tests.fakes.discord_api import DiscordAPI as FakeDiscord
    from tests.fakes.discord_oauth import DiscordOAuth

    ann, bob, cy, dee = 21, 22, 23, 24
    taps = dict.fromkeys((ann, bob, cy, dee), 0)
    fake = FakeDiscord()
    fake.embedded = True
    oauth = DiscordOAuth(client_id=str(APP_ID))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DISCORD_CLIENT_ID", str(APP_ID))
        patch.setenv("TYCOON_WEB_URL", "https://tycoon.example")
        async with running_bot(folder, patch, fake) as (client, fake, service):
            server = SERVERS[id(client)]
            oauth.attach(server)
            settings = DiscordSettings(str(APP_ID), oauth.client_secret, server.token, server.api_url)
            app = make_app(service, Hub(service), lang="en", discord=settings)
            app[ACTIVITY].chat_lobby = activity.chat_lobby(client.front.ctx)  # as `tycoon run` wires it
            web = TestClient(TestServer(app))
            await web.start_server()
            origin = {"Origin": ORIGIN.format(app=APP_ID)}

            async def in_activity(uid: int, name: str) -> tuple[str, str]:
                """The Activity opened in the channel (one tap in the App Launcher) and signed in."""
                oauth.add_user(uid, name)
                instance = oauth.launch(CHANNEL, GUILD, uid)
                taps[uid] += 1
                answer = await web.post("/api/discord/token", headers=origin, json={
                    "code": oauth.authorize(uid, str(APP_ID), ["identify"]), "instance_id": instance})
                signed = await answer.json()
                if answer.status != 200:
                    raise AssertionError(signed)
                return signed["session"], instance

            async def tap(uid: int, session: str, instance: str, op: str, **more) -> dict:
                taps[uid] += 1
                answer = await web.post("/api/discord/table", headers=origin,
                                        json={"session": session, "instance_id": instance, "op": op, **more})
                state = await answer.json()
                if answer.status != 200:
                    raise AssertionError(state)
                return state["state"]

            try:
                ann_in = await in_activity(ann, "Ann")
                await tap(ann, *ann_in, "open", game="deal")
                table = (await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}")).id
                for uid, own_install in ((bob, False), (cy, True)):  # Join on the channel's lobby message
                    press = click(f"l:{table}:join", uid)
                    if own_install:  # the app installed to his account as well as to the server
                        press["authorizing_integration_owners"] = {"0": str(GUILD), "1": str(uid)}
                    taps[uid] += 1
                    await dispatch(client, press)
                dee_in = await in_activity(dee, "Dee")
                await tap(dee, *dee_in, "join")
                state = await tap(ann, *ann_in, "start")
                await service.idle()  # the started table shown in the channel before the bot goes
            finally:
                await web.close()
            row = service.cache.row(table)
            people = [s["user"] for s in row.seats]
            if row.status != "running" or people != [f"dc:{u}" for u in (ann, bob, cy, dee)]:
                raise AssertionError(f"not the four of them at a running table: {row.status} {people} {state}")
    names = {ann: "ann", bob: "bob", cy: "cy", dee: "dee"}
    return {names[uid]: n for uid, n in taps.items()}


def bench_doors() -> dict:
    """Taps per person through each platform's doors (``doors_<platform>_<person>_taps``)."""
    async def run(folder: Path) -> dict:
        out = {}
        for platform, script in (("telegram", telegram_doors), ("discord", discord_doors)):
            where = folder / platform
            where.mkdir()
            for person, count in (await script(where)).items():
                out[f"doors_{platform}_{person}_taps"] = count
        out["doors_most_taps"] = max(out.values())
        return out

    with tempfile.TemporaryDirectory() as tmp, contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(run(Path(tmp)))
