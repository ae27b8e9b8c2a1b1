"""Issue 49, the web table as the bot's Main Mini App: a ``startapp`` link's parameter, read only from
the signed ``initData``, leads to its table (``t<table>``), to a new web lobby (``new_<game>``) or to
the lobby (nothing); forged, unsigned or altered ``initData`` is refused; an unknown table is the
"missing" page. "Invite friends" asks the server, which prepares the message through the Bot API
(``savePreparedInlineMessage``, here a fake as strict as Telegram about what it needs) and the page
hands its id to ``Telegram.WebApp.shareMessage``.

In Chromium, with a stand-in for ``window.Telegram.WebApp`` put in before the page's scripts run
(Telegram's own script is blocked: the stand-in plays it, as the Telegram app would), on a phone:
full screen is asked for on Android and never on Telegram Desktop; the page keeps clear of the
safe areas Telegram reports; nothing is wider than the screen and every tap target is 44 px or more.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import aiohttp
import pytest
from aiohttp import web
from yarl import URL

from bot.web import auth, miniapp
from bot.web.hub import Hub
from bot.web.server import make_app, start_site
from tests.bot.web.conftest import BOT_TOKEN, CHROMIUM
from tests.bot.web.pace import paced
from tests.bot.web.test_web_browser import _readable
from tests.fakes import telegram_limits
from tools.headless import Browser
from words.i18n import t

NOW = 1_800_000_000  # the server's clock and every initData's auth_date: nothing reads the wall clock
BOT_USERNAME = "TycoonTestBot"
USER = 4242


def _init_data(start: str | None = None, token: str = BOT_TOKEN, user: int = USER, lang: str = "en",
               name: str = "Tom") -> str:
    fields = {"auth_date": str(NOW), "query_id": "AAE", "chat_type": "sender", "chat_instance": "-7",
              "user": json.dumps({"id": user, "first_name": name, "language_code": lang})}
    if start is not None:
        fields["start_param"] = start
    return auth.sign_init_data(fields, token)


# -- a Bot API that answers getMe and savePreparedInlineMessage, as strictly as Telegram ------------


class FakeBotAPI:
    """``/bot<token>/<method>``: getMe, and savePreparedInlineMessage checked field by field (what the
    Bot API documents as required, the inline keyboard's rules from ``telegram_limits``); anything
    else, or a wrong token, is refused the way Telegram refuses it."""

    def __init__(self, token: str = BOT_TOKEN) -> None:
        self.token, self.saved, self.calls, self.refuse_all = token, [], [], False
        self._runner = None

    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", "/{bot}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        return f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"

    async def stop(self) -> None:
        await self._runner.cleanup()

    @staticmethod
    def _refused(description: str, code: int = 400) -> web.Response:
        return web.json_response({"ok": False, "error_code": code, "description": description}, status=code)

    @staticmethod
    async def _params(request: web.Request) -> dict:
        if request.content_type == "application/json":
            return await request.json()
        if request.content_type.startswith("multipart/"):
            return {part.name: await part.text() async for part in await request.multipart()}
        return dict(await request.post()) if request.can_read_body else dict(request.query)

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["bot"] != f"bot{self.token}":
            return self._refused("Unauthorized", 401)
        params = await self._params(request)
        self.calls.append((method, params))
        if method == "getMe":
            return web.json_response({"ok": True, "result": {
                "id": int(self.token.split(":")[0]), "is_bot": True, "first_name": "Tycoon", "username": BOT_USERNAME,
                "can_join_groups": True, "can_read_all_group_messages": False, "supports_inline_queries": True,
                "has_main_web_app": True}})
        if method != "savePreparedInlineMessage":
            return self._refused("Not Found", 404)
        if self.refuse_all:
            return self._refused("Bad Request: USER_BOT_REQUIRED")
        problem = self._check(params)
        if problem:
            return self._refused(problem)
        prepared = {"id": f"prep{len(self.saved) + 1}", "expiration_date": NOW + 86400}
        self.saved.append((params, prepared["id"]))
        return web.json_response({"ok": True, "result": prepared})

    @staticmethod
    def _check(params: dict) -> str | None:
        """Telegram's "Bad Request" for a savePreparedInlineMessage it would refuse, else None."""
        user = str(params.get("user_id", ""))
        if not user:
            return "Bad Request: user_id is empty"
        if not user.isdigit() or int(user) <= 0:
            return "Bad Request: invalid user_id specified"
        try:
            result = json.loads(params["result"]) if isinstance(params.get("result"), str) else params.get("result")
        except ValueError:
            result = None
        if not isinstance(result, dict):
            return "Bad Request: can't parse inline query result JSON object"
        if result.get("type") != "article":  # the one kind our invites use
            return "Bad Request: RESULT_TYPE_INVALID"
        if not 1 <= len(str(result.get("id", "")).encode()) <= 64:
            return "Bad Request: RESULT_ID_INVALID"
        if not str(result.get("title") or "").strip():
            return "Bad Request: RESULT_TITLE_EMPTY"
        content = result.get("input_message_content")
        if not isinstance(content, dict) or not str(content.get("message_text") or "").strip():
            return "Bad Request: message text is empty"
        if telegram_limits._units(content["message_text"]) > telegram_limits.TEXT_MAX:
            return "Bad Request: message is too long"
        keyboard = telegram_limits._check_keyboard(result.get("reply_markup"))
        if keyboard:
            return keyboard
        if not any(str(params.get(f"allow_{kind}_chats", "")).lower() == "true"
                   for kind in ("user", "bot", "group", "channel")):
            return "Bad Request: no chat types allowed"  # the message could be sent nowhere
        return None

    def last(self) -> dict:
        """The article of the last message saved, and the chat kinds it may go to."""
        params, _ = self.saved[-1]
        return {"user_id": int(params["user_id"]), "result": json.loads(params["result"]),
                "allow": {k for k in ("user", "bot", "group", "channel")
                          if str(params.get(f"allow_{k}_chats", "")).lower() == "true"}}


APPS: dict = {}  # the application served at each address (a test sets its hooks)


@pytest.fixture
async def mini(tmp_path, monkeypatch):
    """A web table whose bot token and Bot API (the fake) are set, on a fixed clock; an HTTP client."""
    from engine.service.tables import GameService

    paced(monkeypatch, step=1.0)  # each POST a second after the one before: never "too fast"
    api = FakeBotAPI()
    api_url = await api.start()
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    app = make_app(service, Hub(service, seed=11), lang="en", bot_token=BOT_TOKEN, clock=lambda: NOW,
                   telegram_api_url=api_url)
    runner, address = await start_site(app, "127.0.0.1", 0)
    APPS[address] = app
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        yield service, address, http, api
    APPS.pop(address, None)
    await runner.cleanup()
    await api.stop()
    await service.idle()
    await service.close()


async def _post(http, address: str, path: str, body: dict):
    response = await http.post(address + path, json=body, headers={"Origin": address})
    return response.status, await response.json()


# -- the startapp grammar ------------------------------------------------------------------------------


def test_startapp_links_and_their_parameters():
    assert auth.startapp_link("TycoonBot", 17) == "https://t.me/TycoonBot?startapp=t17"
    assert auth.startapp_link("@TycoonBot", None) == "https://t.me/TycoonBot?startapp"
    assert auth.startapp_link("TycoonBot", new_game="deal") == "https://t.me/TycoonBot?startapp=new_deal"
    for bad in (("Tycoon Bot", 1), ("TycoonBot", 0), ("TycoonBot", True), ("x", 1)):
        with pytest.raises(ValueError):
            auth.startapp_link(*bad)
    assert auth.start_of("t17") == auth.StartApp("table", table=17)
    assert auth.start_of("new_board") == auth.StartApp("new", game="board")
    assert auth.start_of(None) == auth.start_of("") == auth.StartApp("lobby")
    for garbled in ("t0", "t017", "t", "17", "T17", "t17x", "new_", "new_Deal", "t" + "9" * 17, "x" * 65):
        assert auth.start_of(garbled) is None, garbled
    # each link's own parameter leads back to its place
    for table in (1, 5, 10**15):
        param = auth.startapp_link("TycoonBot", table).split("startapp=")[1]
        assert auth.start_of(param).table == table


def test_the_start_parameter_is_read_from_the_signed_data_only():
    assert auth.check_init_data(_init_data("t5"), BOT_TOKEN, NOW).start_param == "t5"
    assert auth.check_init_data(_init_data(), BOT_TOKEN, NOW).start_param is None
    changed = _init_data("t5").replace("start_param=t5", "start_param=t6")
    with pytest.raises(auth.InitDataError, match="bad signature"):
        auth.check_init_data(changed, BOT_TOKEN, NOW)


# -- POST /api/tg/start --------------------------------------------------------------------------------


async def test_a_table_link_leads_to_its_table_and_an_unknown_one_to_the_missing_page(mini):
    service, address, http, _ = mini
    made = await service.lobby.new_table("web:abc", "deal", None, "web:x", "Ann")
    status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data(f"t{made.table}")})
    assert status == 200, answer
    assert answer["go"] == f"/tg/{made.table}?lang=en" and answer["start"] == f"t{made.table}"
    assert answer["name"] == "Tom" and answer["note"] is None
    assert auth.user_of(service.unsign, answer["session"]) == f"tg:{USER}"
    assert http.cookie_jar.filter_cookies(URL(address))[auth.SESSION_COOKIE].value == answer["session"]

    status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data("t99999")})
    assert status == 200 and answer["go"] == "/tg/99999?lang=en"
    page = await http.get(address + answer["go"])
    body = await page.text()
    assert page.status == 404 and t("en", "web.missing.title") in body
    assert t("en", "web.say.service.no_table").split(":")[0] in body
    assert miniapp.TELEGRAM_SCRIPT in body and f'href="{miniapp.HOME}"' in body and 'href="/"' not in body


async def test_a_chat_tables_link_seats_the_one_who_opens_it_in_its_lobby(mini):
    """The "Join my table" card of a group's lobby opened in the Main Mini App: a seat there, as the
    bot's private-chat link gives (one seat per person whatever the door); opened again, still one."""
    service, address, http, _ = mini
    made = await service.lobby.new_table("tg:-100", "deal", None, "tg:1", "Ann")
    for _ in range(2):
        status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data(f"t{made.table}")})
        assert status == 200 and answer["go"] == f"/tg/{made.table}?lang=en", answer
        assert [s.user for s in (await service.public_view(made.table)).seats] == ["tg:1", f"tg:{USER}"]
    web = await service.lobby.new_table("web:abc", "deal", None, "web:x", "Ann")  # a web table: its page's Join
    await _post(http, address, "/api/tg/start", {"init_data": _init_data(f"t{web.table}")})
    assert [s.user for s in (await service.public_view(web.table)).seats] == ["web:x"]


async def test_a_new_game_link_opens_one_lobby_with_its_opener_seated(mini):
    service, address, http, _ = mini
    status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data("new_deal")})
    assert status == 200, answer
    table = int(answer["go"].split("?")[0].removeprefix("/tg/"))
    view = await service.public_view(table)
    assert view.game == "deal" and view.status == "lobby" and view.chat_key.startswith("web:")
    assert [(s.user, s.name) for s in view.seats] == [(f"tg:{USER}", "Tom")] and view.creator == f"tg:{USER}"
    # the link opened again: the same lobby, not a second one
    status, again = await _post(http, address, "/api/tg/start", {"init_data": _init_data("new_deal")})
    assert again["go"] == answer["go"]
    status, board = await _post(http, address, "/api/tg/start", {"init_data": _init_data("new_board")})
    other = int(board["go"].split("?")[0].removeprefix("/tg/"))
    assert board["go"] != answer["go"] and (await service.public_view(other)).game == "board"


async def test_no_parameter_is_the_lobby_and_a_garbled_one_says_so(mini):
    _, address, http, _ = mini
    status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data()})
    assert status == 200 and answer["go"] == "/tg?lobby=1&lang=en" and answer["note"] is None
    for garbled in ("t0", "new_chess", "hello"):
        status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data(garbled)})
        assert answer["go"] == "/tg?lobby=1&lang=en" and answer["note"] == t("en", "web.tg.bad_link"), garbled
    page = await http.get(address + "/tg?lobby=1")
    body = await page.text()
    assert page.status == 200 and miniapp.TELEGRAM_SCRIPT in body and '"mode": "tg"' in body


async def test_the_players_telegram_language_unless_they_chose_one(mini):
    _, address, http, _ = mini
    status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data("t3", lang="zh-hant")})
    assert answer["lang"] == "zh-Hant" and answer["go"] == "/tg/3?lang=zh-Hant"
    await http.get(address + "/tg?lang=en")  # chosen on a page: a cookie
    status, answer = await _post(http, address, "/api/tg/start", {"init_data": _init_data("t3", lang="zh-hant")})
    assert answer["lang"] == "en" and answer["go"] == "/tg/3?lang=en"


async def test_forged_unsigned_or_altered_init_data_is_refused(mini):
    service, address, http, _ = mini
    made = await service.lobby.new_table("web:abc", "deal", None, "web:x", "Ann")
    good = _init_data(f"t{made.table}")
    for bad in (_init_data(f"t{made.table}", token="999:another-bot"),  # signed by another bot
                good.rsplit("&hash=", 1)[0],  # unsigned
                good.replace(f"start_param=t{made.table}", "start_param=new_deal"),  # the link changed after
                "", "user=%7B%22id%22%3A4242%7D&start_param=t1"):
        status, answer = await _post(http, address, "/api/tg/start", {"init_data": bad, "start_param": "t1"})
        assert status == 403 and answer == {"error": t("en", "web.err.init_data")}, bad
    assert await service.public_view(made.table + 1) is None  # no lobby was opened by a refused call
    response = await http.post(address + "/api/tg/start", json={"init_data": good})  # no Origin: not our page
    assert response.status == 403


# -- POST /api/tg/share --------------------------------------------------------------------------------


async def test_an_invite_is_prepared_through_the_bot_api_for_the_telegram_player(mini):
    service, address, http, api = mini
    made = await service.lobby.new_table("web:abc", "deal", None, f"tg:{USER}", "Tom")
    session = auth.telegram_session(service.sign, USER)
    status, answer = await _post(http, address, "/api/tg/share", {"session": session, "table": made.table})
    assert status == 200, answer
    assert answer == {"id": "prep1", "link": f"https://t.me/{BOT_USERNAME}?startapp=t{made.table}"}
    saved = api.last()
    assert saved["user_id"] == USER and saved["allow"] == {"user", "group"}
    article = saved["result"]
    assert article["type"] == "article" and article["title"] == t("en", "web.tg.msg.join_title",
                                                                   game=t("en", "web.game.deal"))
    assert f"#{made.table}" in article["input_message_content"]["message_text"]
    [[button]] = article["reply_markup"]["inline_keyboard"]
    assert button == {"text": t("en", "web.tg.msg.join_button"), "url": answer["link"]}
    # the app itself, from the lobby: its link opens the Mini App on the lobby
    status, answer = await _post(http, address, "/api/tg/share", {"session": session, "table": None})
    assert status == 200 and answer["link"] == f"https://t.me/{BOT_USERNAME}?startapp"
    assert api.last()["result"]["title"] == t("en", "web.tg.msg.app_title")
    assert [m for m, _ in api.calls].count("getMe") == 1  # the bot's username asked once


async def test_an_invite_is_refused_without_telegram_or_for_a_table_it_cannot_open(mini):
    service, address, http, api = mini
    mine = await service.lobby.new_table("web:abc", "deal", None, f"tg:{USER}", "Tom")
    group = await service.lobby.new_table("tg:-100777", "deal", None, f"tg:{USER}", "Tom")
    over = await service.lobby.new_table("web:def", "deal", None, f"tg:{USER}", "Tom")
    await service.lobby.cancel(over.table, f"tg:{USER}")
    session = auth.telegram_session(service.sign, USER)
    browser_session = auth.new_session(service.sign)
    cases = [({"session": browser_session, "table": mine.table}, 403, "web.err.init_data"),  # not a Telegram user
             ({"session": session + "x", "table": mine.table}, 403, "web.err.init_data"),  # forged
             ({"table": mine.table}, 403, None),  # no session at all (the cookie is a browser's)
             ({"session": session, "table": group.table}, 403, "web.tg.share_chat"),
             ({"session": session, "table": over.table}, 409, "web.tg.share_over"),
             ({"session": session, "table": 99999}, 404, "web.say.service.no_table"),
             ({"session": session, "table": "1"}, 400, "web.err.malformed")]
    await http.get(address + "/")  # a browser's session cookie
    for body, code, key in cases:
        status, answer = await _post(http, address, "/api/tg/share", body)
        assert status == code and (key is None or answer["error"] == t("en", key)), (body, answer)
    assert api.saved == []
    api.refuse_all = True  # the Bot API says no: the page hears it could not be done
    status, answer = await _post(http, address, "/api/tg/share", {"session": session, "table": mine.table})
    assert status == 502 and answer["error"] == t("en", "web.tg.share_failed")


# -- in Chromium, with Telegram played by a stand-in ----------------------------------------------------

# What Telegram's script would give the page (its own is blocked): the signed initData, the platform,
# Bot API 8.0; it records what the page asks of Telegram. Asked for full screen, it does what the app
# does: reports the safe areas (the phone's status bar and home bar, Telegram's own buttons) as the
# CSS variables telegram-web-app.js sets. initDataUnsafe lies about the link: the page must not read it.
STUB = """(() => {
  const calls = [];
  const device = {top: 47, bottom: 34, left: 0, right: 0}, controls = {top: 46, bottom: 0, left: 0, right: 0};
  const setVars = (name, v) => {
    for (const k in v) document.documentElement.style.setProperty(`--tg-${name}-${k}`, v[k] + "px");
  };
  const app = {
    initData: INIT, initDataUnsafe: {start_param: "t99999"}, platform: PLATFORM, version: "8.0",
    themeParams: {}, isFullscreen: false, safeAreaInset: {top: 0, bottom: 0, left: 0, right: 0},
    contentSafeAreaInset: {top: 0, bottom: 0, left: 0, right: 0},
    isVersionAtLeast(v) { const [a, b] = v.split(".").map(Number); return 8 > a || (8 === a && 0 >= (b || 0)); },
    ready() {
      calls.push(["ready"]);
      setVars("safe-area-inset", app.safeAreaInset);
      setVars("content-safe-area-inset", app.contentSafeAreaInset);
    },
    expand() { calls.push(["expand"]); },
    requestFullscreen() {
      calls.push(["requestFullscreen"]); app.isFullscreen = true;
      Object.assign(app.safeAreaInset, device); Object.assign(app.contentSafeAreaInset, controls);
      setVars("safe-area-inset", device); setVars("content-safe-area-inset", controls);
    },
    disableVerticalSwipes() { calls.push(["disableVerticalSwipes"]); },
    shareMessage(id, callback) { calls.push(["shareMessage", id]); setTimeout(() => callback && callback(true), 0); },
    openTelegramLink(url) { calls.push(["openTelegramLink", url]); },
    MainButton: {setText() {}, onClick() {}, offClick() {}, show() {}, hide() {}},
    onEvent() {}, offEvent() {},
  };
  window.Telegram = {WebApp: app};
  window.telegramCalls = calls;
})();"""

# Every visible thing one taps, with its size; whether the page is wider than the screen.
TARGETS = """(() => {
  const seen = [...document.querySelectorAll('a[href], button, input, select, summary')]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map(e => { const r = e.getBoundingClientRect();
                return {what: (e.id || e.textContent.trim()).slice(0, 24), w: Math.round(r.width),
                        h: Math.round(r.height)}; });
  return {small: seen.filter(s => s.w < 44 || s.h < 44), count: seen.length,
          wide: document.documentElement.scrollWidth > innerWidth + 1};
})()"""


async def _mini_app_page(browser, init: str, platform: str):
    page = await browser.new_page()
    await page.phone()
    await page.send("Page.enable")  # without it, a script for new documents is not run
    await page.send("Network.enable")
    await page.send("Network.setBlockedURLs", {"urls": ["*telegram.org*"]})
    stub = STUB.replace("INIT", json.dumps(init)).replace("PLATFORM", json.dumps(platform))
    await page.send("Page.addScriptToEvaluateOnNewDocument", {"source": stub})
    return page


chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                       "(apt-get install chromium; .ci/run does it)")


@pytest.fixture
async def mini_browser(mini, tmp_path):
    service, address, http, api = mini
    browser = await Browser.launch(CHROMIUM, tmp_path / "profile")
    try:
        yield service, address, api, browser
    finally:
        await browser.close()


def _fragment(init: str, platform: str) -> str:
    # how Telegram opens a Mini App: the launch data in the fragment
    return f"#tgWebAppData={quote(init)}&tgWebAppVersion=8.0&tgWebAppPlatform={platform}"


@chromium
async def test_on_android_a_table_link_opens_its_lobby_full_screen_and_invite_friends_shares_it(mini_browser,
                                                                                               artifacts):
    service, address, api, browser = mini_browser
    made = await service.lobby.new_table("web:abc", "deal", None, "web:ann", "Ann")
    init = _init_data(f"t{made.table}")
    page = await _mini_app_page(browser, init, "android")
    await page.goto(f"{address}/tg{_fragment(init, 'android')}")
    # sent on by the server's answer to its table (not by initDataUnsafe, which names another)
    await page.wait(f"location.pathname === '/tg/{made.table}' && document.body.dataset.status === 'lobby'")
    calls = [c[0] for c in await page.eval("window.telegramCalls")]
    assert "requestFullscreen" in calls and "disableVerticalSwipes" in calls and "ready" in calls
    assert await page.eval("document.documentElement.dataset.tg") == "android"
    # the bar's words below the status bar and Telegram's buttons (47 + 46 px), its colour up to the top
    bar = await page.eval("(() => { const b = document.querySelector('.bar').getBoundingClientRect(),"
                          " a = document.querySelector('.brand').getBoundingClientRect();"
                          " return {bar: b.top, brand: a.top}; })()")
    assert bar["bar"] == 0 and bar["brand"] >= 47 + 46, bar
    assert await page.eval("parseFloat(getComputedStyle(document.body).paddingBottom)") >= 34
    # join, then invite
    await page.eval("document.getElementById('name').value = 'Tom'; document.getElementById('join').click()")
    await page.wait("document.querySelector('#seats li.me') && document.querySelector('#lobby-share button.invite')")
    seen = await page.eval(TARGETS)
    assert seen["count"] >= 5 and not seen["small"] and not seen["wide"], seen
    await _readable(page, "mini app lobby on android")
    await page.eval("document.querySelector('#lobby-share button.invite').click()")
    await page.wait("window.telegramCalls.some(c => c[0] === 'shareMessage')")
    shared = [c for c in await page.eval("window.telegramCalls") if c[0] == "shareMessage"]
    assert shared == [["shareMessage", api.saved[-1][1]]]  # the id the Bot API gave, handed to Telegram
    saved = api.last()
    assert saved["user_id"] == USER
    assert saved["result"]["reply_markup"]["inline_keyboard"][0][0]["url"] == \
        f"https://t.me/{BOT_USERNAME}?startapp=t{made.table}"
    sent = json.dumps(t("en", "web.tg.shared"))
    await page.wait(f"document.querySelector('#lobby-share .share-note').textContent === {sent}")
    await page.screenshot(artifacts / "web-mini-app-android-lobby.png", 390, 844, mobile=True)
    assert not page.errors, page.errors


@chromium
async def test_on_telegram_desktop_the_page_stays_in_its_window(mini_browser):
    service, address, api, browser = mini_browser
    made = await service.lobby.new_table("web:abc", "board", None, "web:ann", "Ann")
    init = _init_data(f"t{made.table}")
    page = await _mini_app_page(browser, init, "tdesktop")
    await page.goto(f"{address}/tg{_fragment(init, 'tdesktop')}")
    await page.wait(f"location.pathname === '/tg/{made.table}' && document.body.dataset.status === 'lobby'")
    calls = [c[0] for c in await page.eval("window.telegramCalls")]
    assert "ready" in calls and "requestFullscreen" not in calls and "disableVerticalSwipes" not in calls
    assert await page.eval("document.querySelector('.brand').getBoundingClientRect().top") < 47
    seen = await page.eval(TARGETS)
    assert not seen["small"] and not seen["wide"], seen
    assert not page.errors, page.errors


@chromium
async def test_the_lobby_link_stays_on_the_lobby_and_invites_to_the_app(mini_browser):
    service, address, api, browser = mini_browser
    init = _init_data()
    page = await _mini_app_page(browser, init, "ios")
    await page.goto(f"{address}/tg{_fragment(init, 'ios')}")
    await page.wait("document.body.dataset.status === 'signed-in' && document.getElementById('lobby-invite')")
    assert await page.eval("location.pathname") == "/tg"
    assert await page.eval("document.getElementById('name').value") == "Tom"  # from Telegram
    assert "requestFullscreen" in [c[0] for c in await page.eval("window.telegramCalls")]
    seen = await page.eval(TARGETS)
    assert not seen["small"] and not seen["wide"], seen
    await page.eval("document.querySelector('#lobby-invite button').click()")
    await page.wait("window.telegramCalls.some(c => c[0] === 'shareMessage')")
    assert api.last()["result"]["reply_markup"]["inline_keyboard"][0][0]["url"] == \
        f"https://t.me/{BOT_USERNAME}?startapp"
    # a table opened here opens in the Mini App, its opener signed in as their Telegram self
    await page.eval("document.getElementById('ai').value = '1'; document.getElementById('open').click()")
    await page.wait("location.pathname.startsWith('/tg/') && document.body.dataset.status === 'lobby'")
    table = int(await page.eval("location.pathname.split('/')[2]"))
    assert (await service.public_view(table)).seats[0].user == f"tg:{USER}"
    assert not page.errors, page.errors


@chromium
async def test_a_new_game_link_lands_in_its_new_lobby_seated(mini_browser):
    service, address, api, browser = mini_browser
    init = _init_data("new_deal")
    page = await _mini_app_page(browser, init, "android")
    await page.goto(f"{address}/tg{_fragment(init, 'android')}")
    await page.wait("location.pathname.startsWith('/tg/') && document.body.dataset.status === 'lobby'"
                    " && document.querySelector('#seats li.me')")
    table = int(await page.eval("location.pathname.split('/')[2]"))
    view = await service.public_view(table)
    assert view.game == "deal" and view.seats[0].user == f"tg:{USER}"
    assert (await page.eval("document.querySelector('#seats li.me').textContent")).startswith("Tom")
    assert await page.eval("!!document.querySelector('#lobby-share button.invite')")


@chromium
async def test_forged_init_data_opens_nothing(mini_browser):
    service, address, api, browser = mini_browser
    made = await service.lobby.new_table("web:abc", "deal", None, "web:ann", "Ann")
    forged = _init_data(f"t{made.table}", token="999:not-the-bot")
    page = await _mini_app_page(browser, forged, "android")
    await page.goto(f"{address}/tg{_fragment(forged, 'android')}")
    await page.wait("document.body.dataset.status === 'refused'")
    assert await page.eval("location.pathname") == "/tg"
    assert await page.eval("document.getElementById('error').textContent") == t("en", "web.err.init_data")


@chromium
async def test_outside_telegram_the_share_buttons_are_the_browsers(mini_browser):
    """A plain browser on a table page: the table's link is shared as before (no Telegram invite);
    at the Mini App's address it is sent to the web lobby."""
    service, address, api, browser = mini_browser
    page = await browser.new_page()
    await page.phone()
    await page.goto(f"{address}/?lang=en")
    table = await page.open_table("Ann", "deal", 1)
    await page.wait("document.querySelector('#lobby-share button')")
    labels = await page.eval("[...document.querySelectorAll('#lobby-share button')].map(b => b.textContent)")
    assert labels == [t("en", "web.share.play"), t("en", "web.share.watch")]
    assert (await page.eval("document.querySelector('#lobby-share button').dataset.url")).endswith(f"/t/{table}")
    assert await page.eval("!document.documentElement.dataset.tg && !document.querySelector('.invite')")
    # the Mini App's address opened in a browser, without Telegram's data: the web's own lobby
    await page.goto(f"{address}/tg")
    await page.wait("location.pathname === '/' && document.getElementById('new-table')")
    # nothing was asked of the Bot API but the bot's name (the lobby's "Add to a Telegram group")
    assert [name for name, _ in api.calls if name != "getMe"] == []


async def test_a_mini_app_join_shows_in_the_groups_lobby_message(mini):
    """With the chat bots in this process (``bot/process/run.py``), a seat taken through the Mini App
    is shown in the group's lobby message at once, by the platform whose table it is."""
    from bot.web.activity import ACTIVITY

    service, address, http, _ = mini
    shown = []

    async def lobbies(table):
        shown.append((table, [s.user for s in (await service.public_view(table)).seats]))

    APPS[address][ACTIVITY].chat_lobby = lobbies
    made = await service.lobby.new_table("tg:-100", "deal", None, "tg:1", "Ann")
    await _post(http, address, "/api/tg/start", {"init_data": _init_data(f"t{made.table}")})
    assert shown == [(made.table, ["tg:1", f"tg:{USER}"])]
    await _post(http, address, "/api/tg/start", {"init_data": _init_data(f"t{made.table}")})
    assert len(shown) == 1, "seated already: nothing changed, nothing to show"
