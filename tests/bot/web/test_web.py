"""The web table without a browser: Telegram ``initData`` checked as Telegram documents it,
sessions that cannot be forged, WebSocket messages validated like button presses (a clear error,
never a crash), the origin check, the per-client rate limit, spectator keys, and ``tycoon web``'s
address."""

from __future__ import annotations

import asyncio
import json
import os
import re

import aiohttp
import pytest

from bot.process import cli
from bot.web import auth
from bot.web.auth import result_path
from bot.web.context import watch_path
from bot.web.hub import Hub, RateLimit
from bot.web.messages import parse_message
from bot.web.server import make_app, start_site
from engine.games import GAMES
from engine.service.core import Keys
from engine.service.storage import queries
from engine.service.tables import GameService
from tests.bot.web.pace import paced
from tools.bench.web import update_sizes
from words.i18n import t

TOKEN = "123456:ABC-real-token"
NOW = 1_800_000_000


def _init_data(token: str = TOKEN, auth_date: int = NOW, **extra) -> str:
    fields = {"auth_date": str(auth_date), "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
              "user": json.dumps({"id": 279058397, "first_name": "Vladislav", "last_name": "Kibenko",
                                  "username": "vdkfrost", "language_code": "zh-hant"}), **extra}
    return auth.sign_init_data(fields, token)


def test_init_data_signed_with_the_bot_token_names_its_user():
    user = auth.check_init_data(_init_data(), TOKEN, now=NOW + 60)
    assert (user.id, user.name, user.lang) == (279058397, "Vladislav Kibenko", "zh-hant")


def test_init_data_hash_is_hmac_of_the_sorted_fields_keyed_by_webappdata_and_the_token():
    """Built here by hand from Telegram's description, independently of ``sign_init_data``."""
    import hashlib
    import hmac
    from urllib.parse import urlencode

    fields = {"user": '{"id":7,"first_name":"A"}', "auth_date": str(NOW), "chat_type": "sender"}
    check = f"auth_date={NOW}\nchat_type=sender\n" + 'user={"id":7,"first_name":"A"}'
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    data = urlencode({**fields, "hash": hmac.new(key, check.encode(), hashlib.sha256).hexdigest()})
    assert auth.check_init_data(data, TOKEN, now=NOW).id == 7


@pytest.mark.parametrize("data, why", [
    (_init_data(token="999:another-bot"), "bad signature"),  # signed with another bot's token
    (_init_data().replace("Vladislav", "Mallory"), "bad signature"),  # a field changed after signing
    (_init_data() + "&extra=1", "bad signature"),  # a field added
    (_init_data().rsplit("&hash=", 1)[0], "no hash"),
    ("", "missing or too long"),
    ("%%%", "not a query string"),
    (_init_data(auth_date=NOW - 2 * 86400), "expired"),
])
def test_forged_or_stale_init_data_is_refused(data, why):
    with pytest.raises(auth.InitDataError, match=why):
        auth.check_init_data(data, TOKEN, now=NOW)


def test_sessions_are_signed_and_cannot_be_forged():
    service = Keys(b"s" * 32)  # the signing is the core's keys alone
    session = auth.new_session(service.sign)
    user = auth.user_of(service.unsign, session)
    assert user.startswith("web:") and len(user) == 20
    assert auth.user_of(service.unsign, auth.telegram_session(service.sign, 42)) == "tg:42"
    assert auth.user_of(service.unsign, "w:0123456789abcdef.00000000") is None  # forged MAC
    assert auth.user_of(service.unsign, service.sign("t:-5")) is None  # signed, but not a session
    assert auth.user_of(service.unsign, None) is None


@pytest.mark.parametrize("text", [
    None, "", "{", "[]", '"press"', '{"type": "shout"}', '{"type": "press"}', '{"type": "press", "token": 5}',
    '{"type": "press", "token": "' + "x" * 101 + '"}', '{"type": "press", "token": "ü.1.2.3.4"}',
    '{"type": "lobby", "op": "destroy"}', '{"type": "lobby", "op": "join", "name": 7}', "x" * 2000,
])
def test_malformed_messages_are_refused_with_a_reason(text):
    data, problem = parse_message(text)
    assert data is None and problem == "web.err.malformed"
    assert "buttons" in t("en", problem)


def test_well_formed_messages_pass():
    assert parse_message('{"type": "press", "token": "1.2.0.3.abcdef"}') == (
        {"type": "press", "token": "1.2.0.3.abcdef"}, None)
    assert parse_message('{"type": "lobby", "op": "join", "name": "Ann"}')[0]["op"] == "join"


def test_rate_limit_allows_a_burst_then_a_few_a_second():
    now = [0.0]
    limit = RateLimit(rate=2, burst=3, clock=lambda: now[0])
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert limit.allow() and not limit.allow()


def test_web_port_comes_from_the_environment_or_defaults_to_8080():
    assert cli._web_port(None) == 8080
    assert cli._web_port("9000") == 9000
    assert cli._web_port("http") is None


@pytest.fixture
async def site(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    # seeded: a game's length is then the same every run (an unseeded Deal game against two AI seats
    # was over in 13 updates about one run in twelve, fewer than the size test reads)
    runner, address = await start_site(make_app(service, Hub(service, seed=11), lang="en"), "127.0.0.1", 0)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # cookies of an IP
        await http.get(address + "/")  # the session cookie
        yield service, address, http
    await runner.cleanup()
    await service.idle()
    await service.close()


async def test_posts_and_sockets_from_another_site_are_refused(site):
    service, address, http = site
    answer = await http.post(address + "/api/tables", json={"name": "A", "game": "deal"},
                             headers={"Origin": "http://evil.example"})
    assert answer.status == 403 and "this site's own pages" in (await answer.json())["error"]
    ok = await http.post(address + "/api/tables", json={"name": "A", "game": "deal", "ai": 1},
                         headers={"Origin": address})
    table = (await ok.json())["table"]
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await http.ws_connect(f"{address}/ws/{table}", headers={"Origin": "http://evil.example"})
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await http.ws_connect(f"{address}/ws/{table}")  # no Origin at all: not a browser page of ours


async def test_bad_new_tables_are_refused_with_what_to_do(site):
    service, address, http = site
    for body, words in (({"game": "chess"}, "Choose board or deal"), ({"game": "deal", "ai": 9}, "0 to 4"),
                        ({"game": "deal", "ai": "2"}, "0 to 4"), ({"game": "deal", "ruleset": "x"}, "x")):
        answer = await http.post(address + "/api/tables", json=body, headers={"Origin": address})
        assert answer.status == 400 and words in (await answer.json())["error"]


async def test_socket_answers_malformed_and_foreign_presses_and_stays_open(site):
    service, address, http = site
    made = await http.post(address + "/api/tables", json={"name": "Ann", "game": "deal", "ai": 1},
                           headers={"Origin": address})
    table = (await made.json())["table"]
    ws = await http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
    first = json.loads((await ws.receive()).data)
    assert first["type"] == "lobby" and first["seat"] == 0 and first["creator"]
    for bad, words in (("nonsense", "not understood"), ('{"type": "press", "token": "1.1.0.0.zz"}', "not valid"),
                       ('{"type": "lobby", "op": "noai"}', None)):
        await ws.send_str(bad)
        reply = json.loads((await ws.receive()).data)
        if words:
            assert reply["type"] == "error" and words in reply["message"]
        else:
            assert reply["type"] == "lobby" and len(reply["seats"]) == 1
    await ws.send_bytes(b"\x00")
    assert json.loads((await ws.receive()).data)["type"] == "error"
    # a flood: the limit answers, the connection stays
    for _ in range(30):
        await ws.send_str("{}")
    replies = [json.loads((await ws.receive()).data)["message"] for _ in range(30)]
    assert t("en", "web.err.too_fast") in replies
    assert not ws.closed
    await ws.close()


async def test_spectators_need_the_signed_key_and_get_no_private_screen(site):
    service, address, http = site
    made = await service.lobby.new_table("tg:-1005", "deal", None, "tg:1", "Tg")
    await service.lobby.add_ai(made.table, "tg:1")
    await service.lobby.start(made.table, "tg:1", seed=5)
    await service.idle()
    forged = await http.get(f"{address}/watch/{made.table}?k=v:{made.table}.00000000")
    assert forged.status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError):  # a chat's table: not for whoever guesses its id
        await http.ws_connect(f"{address}/ws/{made.table}", headers={"Origin": address})
    key = watch_path(service, made.table).split("k=")[1]
    page = await http.get(f"{address}/watch/{made.table}?k={key}")
    assert page.status == 200
    ws = await http.ws_connect(f"{address}/ws/{made.table}?watch={key}", headers={"Origin": address})
    atlas = json.loads((await ws.receive()).data)
    assert atlas["type"] == "atlas" and len(atlas["cards"]) == 106  # the game's fixed parts, first
    shown = json.loads((await ws.receive()).data)
    assert shown["type"] == "table" and shown["own"] is None and shown["seat"] is None
    assert all("hand" not in p for p in shown["view"]["players"])  # no hand in what a spectator gets
    picture = await http.get(address + shown["picture"])
    assert picture.status == 200 and (await picture.read())[:8] == b"\x89PNG\r\n\x1a\n"
    assert (await http.get(f"{address}/picture/{made.table}?k=v:{made.table}.00000000")).status == 403
    await ws.send_str(json.dumps({"type": "press", "token": service.buttons(made.table, 0)[0][1]}))
    assert "spectators cannot press" in json.loads((await ws.receive()).data)["message"]
    await ws.close()


async def test_a_move_made_elsewhere_reaches_the_page(site):
    """Updates come from the service's table updates, whoever moved (here: the service itself)."""
    service, address, http = site
    made = await http.post(address + "/api/tables", json={"name": "Ann", "game": "board", "ai": 1},
                           headers={"Origin": address})
    table = (await made.json())["table"]
    ws = await http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
    await ws.receive()
    await ws.send_str(json.dumps({"type": "lobby", "op": "start"}))
    seen = []
    while not seen or seen[-1]["type"] != "table":
        seen.append(json.loads((await ws.receive()).data))
    shown = seen[-1]
    assert shown["status"] == "running" and shown["seat"] == 0 and len(shown["view"]["squares"]) == 28
    await service.idle()  # the AI seat's moves settled: a person owes the next one
    version = service.cache.row(table).version
    user, token = None, None
    for seat, s in enumerate(service.cache.row(table).seats):
        if not s["ai"] and service.buttons(table, seat):
            user, token = s["user"], service.buttons(table, seat)[0][1]
    assert user is not None
    assert (await service.act(user, token)).ok
    while True:
        shown = json.loads((await ws.receive()).data)
        if shown.get("version", 0) > version:
            break
    assert shown["type"] == "table" and shown["log"]
    await ws.close()


async def test_telegram_private_message_opens_the_mini_app_and_discord_links_the_spectator_view(tmp_path,
                                                                                               monkeypatch):
    """With TYCOON_WEB_URL set: a Telegram player's private message gets the "Open table" Mini App
    button (web_app buttons exist only in private chats), the Discord table message a "Watch" link
    to the signed spectator page; without it, neither."""

    from bot.discord_app.messenger import DiscordMessenger
    from bot.telegram_app.messenger import TelegramMessenger

    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    try:
        monkeypatch.delenv("TYCOON_WEB_URL", raising=False)
        assert TelegramMessenger(service).own_link(5, "en") is None
        monkeypatch.setenv("TYCOON_WEB_URL", "https://play.example/")
        telegram = TelegramMessenger(service)
        link = telegram.own_link(5, "en")
        markup = telegram.markup([link])
        button = markup.inline_keyboard[-1][0]
        assert (button.text, button.web_app.url) == ("Open table", "https://play.example/tg/5")

        messenger = DiscordMessenger(service)  # the messenger needs only the service here
        made = await service.lobby.new_table("dc:1:2", "deal", None, "dc:9", "Di")
        watch = messenger.watch(made.table, "en")
        assert watch.label == "Watch"
        assert watch.token == f"https://play.example{watch_path(service, made.table)}"
        key = watch.token.split("k=")[1]
        assert service.unsign(key) == f"v:{made.table}"  # the key the spectator page checks
        view = messenger._view([watch])
        assert [c.url for c in view.children if getattr(c, "url", None)] == [watch.token]
        # a finished game's message links its page (the result and the replay), signed for it, on both
        for chat in (messenger, telegram):
            page = chat.watch(made.table, "en", over=True)
            assert page.label == t("en", "end.btn.replay")
            assert page.token == f"https://play.example{result_path(service.sign, made.table)}"
            assert service.unsign(page.token.split("k=")[1]) == f"R:{made.table}"
    finally:
        await service.idle()
        await service.close()


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="needs TEST_DATABASE_URL (PostgreSQL)")
async def test_a_join_and_a_move_through_another_process_reach_the_page(tmp_path):
    """Two services on one PostgreSQL (two processes behind a load balancer): a page on the first
    shows a lobby, someone joins it through the second, and the page shows the new seat (the
    second's NOTIFY; a lobby change makes no table update); the game starts and a move is made
    through the second (a chat button pressed there), and the page shows the table after it."""
    import asyncio

    from tests.conftest import drop_everything

    url = os.environ["TEST_DATABASE_URL"]
    await drop_everything(url)
    first, second = await GameService.open(url), await GameService.open(url)
    hub = Hub(first)
    runner, address = await start_site(make_app(first, hub, lang="en"), "127.0.0.1", 0)
    try:
        await first.startup()  # as `tycoon web` does: it listens for the other processes' notices
        await asyncio.wait_for(first.notices.ready.wait(), 20)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            await http.get(address + "/")
            made = await http.post(address + "/api/tables", json={"name": "Ann", "game": "deal", "ai": 0},
                                   headers={"Origin": address})
            table = (await made.json())["table"]
            ws = await http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
            shown = json.loads((await ws.receive()).data)
            assert shown["type"] == "lobby" and len(shown["seats"]) == 1
            assert (await second.lobby.join(table, "web:bob", "Bob")).ok
            shown = json.loads((await asyncio.wait_for(ws.receive(), 20)).data)
            assert shown["type"] == "lobby" and [s["name"] for s in shown["seats"]] == ["Ann", "Bob"]
            creator = (await second.core.snapshot(table)).row.creator
            assert (await second.lobby.start(table, creator, seed=1)).ok
            while shown["type"] != "table":
                shown = json.loads((await asyncio.wait_for(ws.receive(), 20)).data)
            version = shown["version"]
            seat = second.cache.waiting_for(table)[0].seat
            wanted = GAMES["deal"].choose_listed(second.cache.state(table), seat)
            assert (await second.act_as(table, seat, wanted)).ok
            while shown["version"] == version:
                shown = json.loads((await asyncio.wait_for(ws.receive(), 20)).data)
            assert shown["type"] == "table" and shown["version"] == version + 1
            await ws.close()
    finally:
        await runner.cleanup()
        for service in (first, second):
            await service.idle()
            await service.close()


async def test_B08_web_lobby_shows_the_rule_options_and_only_the_creator_toggles_them(site):
    """Issue 16 item 5 on the web table: the lobby lists the table's rule options (what is on, for
    everyone; a toggle per option for the creator), a toggle reaches the game, others are refused."""
    service, address, http = site
    made = await http.post(address + "/api/tables", json={"name": "Ann", "game": "board"},
                           headers={"Origin": address})
    table = (await made.json())["table"]
    ws = await http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
    lobby = json.loads((await ws.receive()).data)
    ops = {o["op"]: o for o in lobby["options"]}
    assert {"o:tax", "o:notrade", "o:dbllock", "o:claim"} <= set(ops)
    assert ops["o:tax"]["label"] == t("en", "opt.income_tax_choice") and ops["o:tax"]["on"] is False
    assert ops["o:dbllock"]["on"] is True  # china's default (B-02)
    assert t("en", "opt.doubles_lock") in lobby["options_on"] and t("en", "opt.income_tax_choice") \
        not in lobby["options_on"]
    await ws.send_str(json.dumps({"type": "lobby", "op": "o:tax"}))
    lobby = json.loads((await ws.receive()).data)
    assert lobby["type"] == "lobby" and {o["op"]: o["on"] for o in lobby["options"]}["o:tax"] is True
    assert t("en", "opt.income_tax_choice") in lobby["options_on"]
    await ws.send_str(json.dumps({"type": "lobby", "op": "o:TAX;drop"}))
    assert json.loads((await ws.receive()).data)["type"] == "error"  # not an option code: malformed

    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as bob_http:
        await bob_http.get(address + "/")
        bob = await bob_http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
        assert json.loads((await bob.receive()).data)["creator"] is False
        await bob.send_str(json.dumps({"type": "lobby", "op": "join", "name": "Bob"}))
        assert json.loads((await bob.receive()).data)["seat"] == 1
        await ws.receive()  # Ann's page shows Bob
        await bob.send_str(json.dumps({"type": "lobby", "op": "o:notrade", "name": "Bob"}))
        refused = json.loads((await bob.receive()).data)
        assert refused["type"] == "error" and refused["message"] == t("en", "opt.creator_only")
        assert service.cache.row(table).options == {"income_tax_choice": True}
        await bob.close()
    await ws.send_str(json.dumps({"type": "lobby", "op": "start"}))
    while json.loads((await ws.receive()).data)["type"] != "table":
        pass
    options = service.cache.state(table).options
    assert options.income_tax_choice is True and options.no_trading is False
    await ws.close()


async def test_B17_the_creator_makes_the_game_a_timed_match_from_the_lobby(site):
    """Issue 47: a casual board game ran to the 1,000-turn cap; its lobby now offers a timed match
    (no clock, 30, 60, 90 minutes) to its creator, everyone sees the choice, and the started game
    has its match clock (the valuation ends it, B-17)."""
    service, address, http = site
    made = await http.post(address + "/api/tables", json={"name": "Ann", "game": "board"},
                           headers={"Origin": address})
    table = (await made.json())["table"]
    ws = await http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
    lobby = json.loads((await ws.receive()).data)
    assert lobby["match"] == {"minutes": 0, "choices": [0, 30, 60, 90]}
    await ws.send_str(json.dumps({"type": "lobby", "op": "m:45"}))
    assert json.loads((await ws.receive()).data)["type"] == "error"  # not one of the lengths offered
    await ws.send_str(json.dumps({"type": "lobby", "op": "m:30"}))
    assert json.loads((await ws.receive()).data)["match"]["minutes"] == 30
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as bob_http:
        await bob_http.get(address + "/")
        bob = await bob_http.ws_connect(f"{address}/ws/{table}", headers={"Origin": address})
        assert json.loads((await bob.receive()).data)["match"]["minutes"] == 30  # everyone sees it
        await bob.send_str(json.dumps({"type": "lobby", "op": "join", "name": "Bob"}))
        await bob.receive()
        await ws.receive()
        await bob.send_str(json.dumps({"type": "lobby", "op": "m:90", "name": "Bob"}))
        assert json.loads((await bob.receive()).data)["message"] == t("en", "opt.creator_only")
        await bob.close()
    await ws.send_str(json.dumps({"type": "lobby", "op": "start"}))
    while json.loads((await ws.receive()).data)["type"] != "table":
        pass
    assert service.cache.state(table).options.match_minutes == 30
    assert any(c.kind == "match" for c in await queries.open_clocks(service.db, table)), "the match clock runs"
    await ws.close()


@pytest.mark.parametrize("game", ["deal", "board"])
async def test_the_page_gets_the_table_as_data_a_few_kilobytes_an_update(site, game, monkeypatch):
    """Issue 31: no picture travels; the game's fixed parts come once (``atlas``), then each update
    carries the views as JSON: at most 5 KB an update at the median, a whole game long. The player
    presses at a person's pace (``paced``: never refused as too fast, never waited for)."""
    service, address, http = site
    paced(monkeypatch, step=0.25)
    sizes, kinds, tables = await update_sizes(service, address, http, game)
    assert kinds.count("atlas") == 1 and kinds.index("atlas") < kinds.index("table")
    assert not [raw for raw in tables if "data:image" in raw or json.loads(raw)["own"] is None]
    sizes.sort()
    assert len(sizes) >= 20 and sizes[len(sizes) // 2] <= 5 * 1024, sizes


def test_nothing_on_the_web_names_a_chat_command():
    """The web has no /newgame or /join: every sentence a page shows is worded for the page."""
    from bot.web.messages import say
    from words.i18n import CATALOGUES, LANGS

    command = re.compile(r"(?<![\w.])/(newgame|join|leave|endgame|start|hand|lang|rules|stats|help)\b")
    shown = [k for k in CATALOGUES["en"] if k.startswith("web.")]
    shown += ["service.no_lobby", "service.no_table", "service.not_a_player", "service.ai_took_over",
              "service.seat_left", "service.table_damaged"]
    for lang in LANGS:
        for key in shown:
            text = say(lang, key, name="Ann", table=1, url="x", names="Ann", count=1, left="0:10")
            assert not command.search(text), (lang, key, text)


async def test_a_table_that_does_not_exist_is_a_page_that_says_so(site):
    service, address, http = site
    for path in ("/t/99999", "/tg/99999"):
        page = await http.get(address + path)
        body = await page.text()
        assert page.status == 404 and t("en", "web.missing.title") in body
        assert t("en", "web.say.service.no_table").split(":")[0] in body and "/newgame" not in body
    icon = await http.get(address + "/favicon.ico")
    assert icon.status == 200 and icon.content_type == "image/svg+xml"


async def test_tables_watched_to_their_end_leave_nothing_behind_in_the_web_process(tmp_path):
    """Issue 31: memory stays bounded: once a finished table's last page has gone, the web process
    keeps nothing for it (no clients, no lock; the atlas is one per game, rule set and language)."""
    from bot.web.atlas import atlas
    from tools.bench.web import memory_growth

    atlas.cache_clear()
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    hub = Hub(service)
    runner, address = await start_site(make_app(service, hub, lang="en"), "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            await http.get(address + "/")
            await memory_growth(service, address, http, 6)
        for _ in range(100):
            if not hub.clients:
                break
            await asyncio.sleep(0.02)
        assert hub.clients == {} and hub._locks == {}
        assert {service.cache.row(t).status for t in range(1, 7)} == {"over"}
        assert atlas.cache_info().currsize <= 2 * 3  # two games, three languages (the standard rule sets)
    finally:
        await runner.cleanup()
        await service.idle()
        await service.close()
