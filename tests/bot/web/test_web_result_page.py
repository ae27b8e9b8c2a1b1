"""Issue 48: a finished game's page (``/r/<table>?k=<signed>``, bot/web/replay.py): who won and
everyone ranked, the net-worth chart, and a replay to step through move by move.

- The frames: frame N of ``/api/replay`` (a page's first frame whole, the others patches of the one
  before) is the table's public view after N moves of the stored log, replayed here on the rules
  alone; the last is the table as it ended; no frame holds a card of a hand (a Deal hand's cards
  appear in no frame while they are in a hand), nor any seat's view.
- The size: a long board game (1,000+ moves) goes in pages of ``PAGE`` frames, each a few tens of
  kilobytes (a few kilobytes gzipped), not the megabytes its frames whole would be.
- A bad, unsigned or forged link, an unknown table, a game not over: the "missing" page, 404.
- In Chromium at 390 × 844: the page shows the winner, everyone ranked (a person's name links
  their profile), the rematch of a web table; the replay steps forward and back with its buttons,
  by turn, and with the arrow keys, and the table drawn changes; nothing is wider than the screen,
  every control is 44 px tall, and axe finds nothing serious in either scheme at either size.
"""

from __future__ import annotations

import asyncio
import gzip
import json

import aiohttp
import msgspec
import pytest

from bot.web.auth import profile_path, result_path, watch_path
from bot.web.hub import Hub
from bot.web.messages import say
from bot.web.replay import PAGE, patched
from bot.web.server import make_app, start_site
from engine.games import GAMES
from engine.service.storage import queries
from engine.service.tables import GameService
from tests.bot.web.conftest import CHROMIUM
from words.i18n import t

SEED = 7


async def _finished(service: GameService, game: str, ai: int, seed: int, level: str = "ai",
                    chat: str | None = None) -> int:
    """A seeded game of a person (Ann, seat 0) and ``ai`` AI seats, played to its end through the
    service: Ann's moves as the AI would choose them, the AI seats by the service's loop."""
    made = await service.lobby.new_table(chat or f"web:{game}{seed}{level}", game, None, "web:ann", "Ann")
    table = made.table
    for _ in range(ai):
        assert (await service.lobby.add_ai(table, "web:ann", level)).ok
    assert (await service.lobby.start(table, "web:ann", seed=seed)).ok
    plug = GAMES[game]
    for _ in range(100_000):
        if service.cache.row(table).status != "running":
            break
        await service.idle()
        state = service.cache.state(table)
        mine = [d for d in plug.rules.waiting_for(state) if d.seat == 0]
        if mine and service.cache.row(table).status == "running":
            await service.act_as(table, 0, plug.choose_listed(state, 0))
        else:
            await asyncio.sleep(0.001)
    await service.idle()
    assert service.cache.row(table).status == "over"
    return table


@pytest.fixture
async def served(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    app = make_app(service, Hub(service, seed=11), lang="en")
    runner, address = await start_site(app, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # cookies of 127.0.0.1
            yield service, address, http, app
    finally:
        await runner.cleanup()
        await service.idle()
        await service.close()


async def _frames(http, address: str, api: str, lang: str = "en") -> tuple[list[dict], list[bytes]]:
    """Every frame of a replay, fetched page by page and patched as replay.js does; the pages' bodies."""
    frames, bodies, start = [], [], 0
    while True:
        async with http.get(f"{address}{api}&from={start}&lang={lang}") as response:
            assert response.status == 200
            body = await response.read()
        bodies.append(body)
        page = json.loads(body)
        assert page["from"] == start and page["page"] == PAGE
        frame = None
        for item in page["frames"]:
            assert item["n"] == len(frames)
            frame = item["frame"] if "frame" in item else patched(frame, item["patch"])
            frames.append({**frame, "by": item["by"], "log": item["log"]})
        start += PAGE
        if start > page["total"]:
            return frames, bodies


async def _replayed(service: GameService, table: int):
    """Each state of the table's game after 0, 1, 2… moves of its stored log, on the rules alone."""
    row = service.cache.row(table)
    rules = GAMES[row.game].rules
    log = [(e.seat, rules.decode_action(e.action)) for e in await queries.load_log(service.db, table)]
    state = rules.new_game(len(row.seats), row.options or row.ruleset, row.seed)
    yield state
    for seat, action in log:
        rules.apply(state, seat, action)
        yield state


def _plain(data):
    return json.loads(json.dumps(msgspec.to_builtins(data, str_keys=True)))


def _cards_shown(view: dict) -> set[int]:
    """Every card a Deal frame shows where it lies: banks, sets, the discard pile, what a demand takes."""
    shown = set()
    for p in view["players"]:
        shown |= set(p["bank"])
        for g in p["groups"]:
            shown |= set(g["cards"])
    if view.get("discard_top") is not None:
        shown.add(view["discard_top"])
    shown |= set(view.get("discard") or [])
    for d in view["pending"]:
        shown |= {c for c in (d.get("take"), d.get("give")) if isinstance(c, int)}
        shown |= set(d.get("to_place") or []) | set(d.get("selected") or [])
    return shown


async def test_each_frame_is_the_public_view_after_its_moves_and_no_hand_is_ever_in_one(served):
    service, address, http, _app = served
    table = await _finished(service, "deal", 2, SEED)
    key = result_path(service.sign, table).split("?k=")[1]
    async with http.get(f"{address}/api/result/{table}?k={key}&lang=en") as response:
        assert response.status == 200
        result = await response.json()
    view = await service.public_view(table)
    log = await queries.load_log(service.db, table)
    assert result["replay"]["moves"] == len(log) == view.version
    assert {int(k): v for k, v in result["series"].items()} == await service.seen.worth_series(table)
    assert [r["seat"] for r in result["ranking"]][0] in view.winners and len(result["ranking"]) == 3
    assert result["ranking"][0]["winner"]
    # the achievements the person earned (read from the log, as the end message names them); none of the AI seats'
    told = (await service.seen.story(table)).feats
    people = [s for s, seat in enumerate(view.seats) if seat.person]
    assert result["achievements"] == [{"seat": s, "key": k, "name": t("en", f"feat.{k}"),
                                       "how": t("en", f"feat.{k}.how")} for s in people for k in told[s]]
    assert result["achievements"] and any(told[s] for s in range(len(view.seats)) if s not in people)
    assert result["rematch"] == {"allowed": True, "table": None}
    assert result["seats"][0]["profile"] == profile_path(service.sign, "web:ann")
    assert [s["profile"] for s in result["seats"][1:]] == [None, None]  # AI seats have no profile

    frames, bodies = await _frames(http, address, result["replay"]["api"])
    assert len(frames) == len(log) + 1
    rules = GAMES["deal"].rules
    n = 0
    async for state in _replayed(service, table):
        frame = frames[n]
        assert frame["view"] == _plain(rules.view(state, None)), f"frame {n} is not the public view after {n} moves"
        assert frame["worth"] == _plain(GAMES["deal"].presentation.worth(state))
        assert frame["view"]["viewer"] is None
        hands = {c for p in state.players for c in p.hand}
        assert hands and not hands & _cards_shown(frame["view"]), f"frame {n} shows a card of a hand"
        assert all("hand" not in p for p in frame["view"]["players"]), n
        assert frame["by"] == (log[n - 1].seat if n else None)
        n += 1
    assert frames[-1]["view"] == _plain(view.board) and frames[-1]["status"] == "over"
    assert frames[-1]["winners"] == view.winners
    assert all(b'"hand"' not in body for body in bodies)
    assert sum(len(f["log"]) for f in frames) > len(frames) / 2  # the moves' lines, as the group read them
    # another language: the same frames, the lines in its words
    zh, _ = await _frames(http, address, result["replay"]["api"], "zh-Hans")
    assert [f["view"] for f in zh] == [f["view"] for f in frames] and zh[1]["log"] != frames[1]["log"]


async def test_a_long_board_game_goes_in_small_pages(served, capsys):
    """A board game of AI players (the basic level: long games) to its end, 1,000 moves and more:
    each page of frames is a few tens of kilobytes (a few gzipped), the whole replay a fraction of
    its frames whole; and the frames are the public views all the same."""
    service, address, http, app = served
    table = await _finished(service, "board", 3, 2, level="basic")
    key = result_path(service.sign, table).split("?k=")[1]
    api = f"/api/replay/{table}?k={key}"
    frames, bodies = await _frames(http, address, api)
    moves = len(frames) - 1
    assert moves > 3 * PAGE
    rules = GAMES["board"].rules
    n = 0
    async for state in _replayed(service, table):
        assert frames[n]["view"] == _plain(rules.view(state, None)), n
        n += 1
    whole = sum(len(json.dumps(f["view"], separators=(",", ":"))) for f in frames)
    raw, zipped = sum(map(len, bodies)), sum(len(gzip.compress(b)) for b in bodies)
    assert max(map(len, bodies)) < 80_000 and raw < whole / 4, (raw, whole)
    async with http.get(f"{address}{api}&from=0", headers={"Accept-Encoding": "gzip"}) as response:
        assert response.headers.get("Content-Encoding") == "gzip"
    async with http.get(f"{address}/r/{table}?k={key}&lang=en", headers={"Accept-Encoding": "gzip"}) as response:
        assert response.status == 200 and response.headers.get("Content-Encoding") == "gzip"
        page = len(await response.read())
    with capsys.disabled():
        print(f"\nboard replay: {moves} moves, {len(bodies)} pages, {raw:,} bytes ({zipped:,} gzipped); "
              f"its frames whole {whole:,} bytes; the page's HTML {page:,} bytes")
    assert app  # the application the pages came from
    # the same pages again: built once, kept
    from bot.web.replay import REPLAYS
    built = app[REPLAYS].built
    await _frames(http, address, api)
    assert app[REPLAYS].built == built


async def test_a_bad_or_unsigned_link_or_a_game_not_over_gets_the_missing_page(served):
    service, address, http, _app = served
    over = await _finished(service, "deal", 1, SEED)
    running = (await service.lobby.new_table("web:run", "deal", None, "web:bo", "Bo")).table
    await service.lobby.add_ai(running, "web:bo")
    assert (await service.lobby.start(running, "web:bo", seed=3)).ok
    cancelled = (await service.lobby.new_table("web:gone", "deal", None, "web:bo", "Bo")).table
    assert (await service.lobby.cancel(cancelled, "web:bo")).ok
    good = result_path(service.sign, over)
    forged = good[:-1] + ("0" if good[-1] != "0" else "1")
    pages = {
        "unsigned": (f"/r/{over}", t("en", "web.err.result_key")),
        "forged": (forged, t("en", "web.err.result_key")),
        "another table's key": (f"/r/{running}?k=" + good.split("?k=")[1], t("en", "web.err.result_key")),
        "a spectator's key": (f"/r/{over}?k=" + watch_path(service.sign, over).split("?k=")[1],
                              t("en", "web.err.result_key")),
        "not over": (result_path(service.sign, running), t("en", "web.result.not_over")),
        "no such table": (result_path(service.sign, 9999), say("en", "service.no_table")),
        "cancelled": (result_path(service.sign, cancelled), say("en", "service.no_table")),
        "not a number": ("/r/abc?k=x", t("en", "web.err.result_key")),
    }
    for what, (path, says) in pages.items():
        async with http.get(f"{address}{path}&lang=en" if "?" in path else f"{address}{path}?lang=en") as response:
            text = await response.text()
            assert response.status == 404, what
            assert 'data-status="missing"' in text and json.dumps(says, ensure_ascii=False)[1:-1] in text, what
        api = path.replace("/r/", "/api/result/", 1)
        async with http.get(f"{address}{api}") as response:
            assert response.status == 404, what
        async with http.get(f"{address}{path.replace('/r/', '/api/replay/', 1)}") as response:
            assert response.status == 404, what
    async with http.get(f"{address}{good}&lang=en") as response:
        assert response.status == 200 and "replay.js" in await response.text()
    async with http.get(f"{address}{good.replace('/r/', '/api/replay/')}&from=x") as response:
        assert response.status == 400


async def test_the_rematch_from_the_result_page_opens_a_lobby_of_the_same_game(served):
    service, address, http, _app = served
    table = await _finished(service, "deal", 1, SEED)
    key = result_path(service.sign, table).split("?k=")[1]
    async with http.get(f"{address}/?lang=en") as response:  # a session cookie, as any page gives
        assert response.status == 200
    post = {"headers": {"Origin": address}}
    async with http.post(f"{address}/api/rematch/{table}", json={"k": "bad", "name": "Ann"}, **post) as response:
        assert response.status == 404
    async with http.post(f"{address}/api/rematch/{table}", json={"k": key, "name": "Cy"},
                         headers={"Origin": "https://elsewhere.example"}) as response:
        assert response.status == 403
    async with http.post(f"{address}/api/rematch/{table}", json={"k": key, "name": "Cy"}, **post) as response:
        assert response.status == 200
        lobby = (await response.json())["table"]
    row = service.cache.row(lobby)
    assert row.status == "lobby" and row.game == "deal" and [s["name"] for s in row.seats][0] == "Cy"
    async with http.get(f"{address}/api/result/{table}?k={key}") as response:
        assert (await response.json())["rematch"] == {"allowed": True, "table": lobby}
    # a chat's table: no rematch here (the chat has its own button)
    chat = await _finished(service, "deal", 1, SEED, chat="tg:-5")
    key = result_path(service.sign, chat).split("?k=")[1]
    async with http.get(f"{address}/api/result/{chat}?k={key}") as response:
        assert (await response.json())["rematch"]["allowed"] is False
    async with http.post(f"{address}/api/rematch/{chat}", json={"k": key, "name": "Cy"}, **post) as response:
        assert response.status == 400


# -- in Chromium ------------------------------------------------------------------------------------

chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                       "(apt-get install chromium; .ci/run does it)")

# what the phone shows: no horizontal scrolling; each control's box (44 px at least) and font size
# (14 px at least); the words of the page's own parts at 14 px at least
LAYOUT = """(() => {
  const controls = [...document.querySelectorAll('#replay-bar button, #replay-bar input, #end-buttons > *, '
    + '.profile-link')].filter(e => e.getClientRects().length)
    .map(e => { const r = e.getBoundingClientRect();
                return [e.id || e.textContent.trim(), Math.round(r.height), Math.round(r.width)]; });
  const small = [...document.querySelectorAll('#end *, #replay-where, #replay-log li, #replay-bar *, .keys')]
    .filter(e => e.getClientRects().length && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
    .map(e => [e.tagName + '#' + e.id + '.' + e.className, parseFloat(getComputedStyle(e).fontSize)])
    .filter(([, size]) => size < 14);
  return {wide: document.documentElement.scrollWidth > innerWidth + 1, controls, small};
})()"""

# the table as drawn: every square's owner and buildings and where each token stands (the board),
# or every player's area as text (Deal)
DRAWN = """(() => {
  const board = document.getElementById('board');
  if (!board.hidden) return [...board.querySelectorAll('.sq')].map(s => [s.dataset.square,
    s.querySelector('.owner') ? s.querySelector('.owner').style.background : '',
    s.querySelector('.houses').dataset.count,
    [...s.querySelectorAll('.token')].map(t => t.dataset.seat).join()]).join('|');
  return [...document.querySelectorAll('#deal .area, #deal .piles')].map(a => a.textContent).join('|');
})()"""


async def _key(page, key: str, shift: bool = False) -> None:
    codes = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35, "PageDown": 34, "PageUp": 33}
    for kind in ("keyDown", "keyUp"):
        await page.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                   "windowsVirtualKeyCode": codes[key], "modifiers": 8 if shift else 0})


async def _at(page, frame: int) -> None:
    await page.wait(f"document.body.dataset.frame === '{frame}'")
    await asyncio.sleep(1.6)  # a token's walk (board.js: 110 ms a square) has ended


@chromium
@pytest.mark.slow
async def test_the_result_page_on_a_phone_steps_through_the_replay(web, artifacts):
    from tests.bot.web.test_web_a11y import _axe

    service, address, browser = web
    board = await _finished(service, "board", 3, SEED)
    page = await browser.new_page()
    await page.phone()
    await page.goto(address + result_path(service.sign, board) + "&lang=en")
    await page.wait("document.body.dataset.frame === '0'")
    view = await service.public_view(board)
    names = [s.name for s in view.seats]
    title = await page.eval("document.getElementById('end-title').textContent")
    assert all(names[w] in title for w in view.winners), title
    ranking = await page.eval("[...document.querySelectorAll('#ranking li')].map(li => li.textContent)")
    assert len(ranking) == 4 and sorted(next(n for n in names if n in line) for line in ranking) == sorted(names)
    assert await page.eval("document.querySelector('#ranking a.profile-link').textContent") == "Ann"
    assert not await page.eval("document.getElementById('rematch').hidden")  # a web table's rematch
    seen = await page.eval(LAYOUT)
    assert not seen["wide"] and not seen["small"], seen
    assert all(h >= 44 and w >= 44 for _, h, w in seen["controls"]), seen["controls"]
    moves = view.version
    assert await page.eval("document.getElementById('scrub').max") == str(moves)

    # a move on and back with the buttons: the table drawn changes, and changes back
    await _at(page, 0)
    first = await page.eval(DRAWN)
    for n in range(1, 40):  # on until the table changes (the opening rolls change no square)
        await page.eval("document.getElementById('next').click()")
        await _at(page, n)
        if await page.eval(DRAWN) != first:
            break
    moved, there = await page.eval(DRAWN), n
    assert moved != first, "stepping on changed nothing on the table"
    where = await page.eval("document.getElementById('replay-where').textContent")
    assert where.startswith(f"Move {there} of {moves}"), where
    await page.eval("document.getElementById('prev').click()")
    await _at(page, there - 1)
    await page.eval("document.getElementById('next').click()")
    await _at(page, there)
    assert await page.eval(DRAWN) == moved
    # the arrow keys (Shift: a turn), Home and End
    await _key(page, "ArrowRight")
    await _at(page, there + 1)
    await _key(page, "ArrowLeft")
    await _at(page, there)
    result = await _http_json(address, f"/api/result/{board}?k=" + result_path(service.sign, board).split("?k=")[1])
    starts = [f for _turn, f in result["replay"]["turns"]]
    after = next(f for f in starts if f > there)
    await _key(page, "ArrowRight", shift=True)
    await _at(page, after)
    await page.eval("document.getElementById('next-turn').click()")
    await _at(page, next(f for f in starts if f > after))
    await page.eval("document.getElementById('prev-turn').click()")
    await _at(page, after)
    await _key(page, "End")
    await _at(page, moves)
    drawn_end = await page.eval(DRAWN)
    owners = {s["index"]: s["owner"] for s in view.board["squares"] if s["owner"] >= 0}
    assert await page.eval("[...document.querySelectorAll('#board .sq .owner')].length") == len(owners)
    assert await page.eval("document.getElementById('next').disabled") and drawn_end != first
    await _key(page, "Home")
    await _at(page, 0)
    assert await page.eval("document.getElementById('prev').disabled")
    # a frame far in the game (another page of frames) by the slider, and by the page's address
    far = min(moves, 2 * PAGE + 5)
    await page.eval(f"(s => {{ s.value = '{far}'; s.dispatchEvent(new Event('input')); }})"
                    "(document.getElementById('scrub'))")
    await _at(page, far)
    await page.goto(address + result_path(service.sign, board) + f"&lang=en#{far - 1}")
    await _at(page, far - 1)
    await page.screenshot(artifacts / "web-result-board-desktop.png", 1280, 900)
    await page.screenshot(artifacts / "web-result-board-phone.png", 390, 844, mobile=True)
    await page.phone()
    found: list[str] = []
    await _axe(page, "the finished board game's page", found)
    await page.phone()
    # a tapped square: what it is, read only
    await page.eval("document.querySelector('#board .sq[data-square=\"1\"]').click()")
    await page.wait("!document.getElementById('sheet').hidden")
    assert await page.eval("document.querySelectorAll('#sheet button').length") == 1  # Close: no moves
    await page.eval("document.getElementById('sheet-close').click()")

    # a Deal game: the table drawn changes; no hand is drawn
    deal = await _finished(service, "deal", 2, SEED)
    await page.goto(address + result_path(service.sign, deal) + "&lang=en")
    await _at(page, 0)
    start = await page.eval(DRAWN)
    for n in range(1, 30):
        await _key(page, "ArrowRight")
        await _at(page, n)
        if await page.eval(DRAWN) != start:
            break
    assert await page.eval(DRAWN) != start
    assert await page.eval("document.querySelectorAll('#deal .cardtile').length") <= 1  # the discard pile's top only
    seen = await page.eval(LAYOUT)
    assert not seen["wide"] and not seen["small"], seen
    await page.screenshot(artifacts / "web-result-deal-phone.png", 390, 844, mobile=True)
    await page.phone()
    await _axe(page, "the finished Deal game's page", found)
    assert not found, "\n".join(found)

    # the rematch: a lobby of the same game; the live table's end links the result page
    await page.eval("localStorage.setItem('tycoon-name', 'Ann')")
    await page.eval("document.getElementById('rematch').click()")
    await page.wait("location.pathname.startsWith('/t/') && document.body.dataset.status === 'lobby'")
    lobby = int(await page.eval("location.pathname.split('/')[2]"))
    assert service.cache.row(lobby).game == "deal" and service.cache.row(lobby).status == "lobby"
    await page.goto(f"{address}/t/{deal}?lang=en")
    await page.wait("document.body.dataset.status === 'over' && !document.getElementById('end-replay').hidden")
    linked = await page.eval("document.getElementById('end-replay').getAttribute('href')")
    assert linked == result_path(service.sign, deal)
    assert not page.errors, page.errors


async def _http_json(address: str, path: str):
    async with aiohttp.ClientSession() as http, http.get(address + path) as response:
        return await response.json()
