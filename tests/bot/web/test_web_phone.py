"""Issue 47: the web table is a phone-first page. On a 390 × 844 phone (twice the pixels, a touch
screen) a seeded board game and a seeded Deal game are played to their end by tapping, and at every
decision of the phone's player its moves are in the first screen: the first move the page offers
(the expected answer, else the first outlined card or square) and every button of the dock lie
inside the viewport, uncovered, with the page not scrolled and no wider than the screen. The end
shows the winner and Rematch in the first screen, for the players and a spectator; Rematch opens a
lobby of the same game, rules and seats. Also: a cancelled or finished table answers every address
its page links without a 5xx, the lobby shows each reader only their buttons, a lost connection
says so and refuses presses, and the share buttons carry the public address.

Skipped, with the reason, when Debian's chromium is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.web.context import HUB, watch_path
from bot.web.hub import Hub
from bot.web.server import make_app, start_site
from engine.games import GAMES
from engine.service.storage import queries
from engine.service.tables import GameService
from tests.bot.web.conftest import CHROMIUM
from tests.bot.web.test_web_browser import _press, _readable
from tools.headless import Browser
from words.i18n import t

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                         "(apt-get install chromium; .ci/run does it)")

# Where things are on the first screen (the page as it opens, not scrolled): for the first move
# the page offers (the first button of the dock's moves of the first rank, else the first outlined
# card of the hand or square of the board, else the first button) and for every button of the dock,
# its box, whether it lies inside the viewport, and whether a tap at its middle reaches it (not
# covered by anything); and whether the page is scrolled or wider than the screen.
FIRST_SCREEN = """(() => {
  const inside = (e) => {
    const r = e.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {label: e.textContent.trim().slice(0, 30), token: e.dataset.token || e.dataset.card || null,
            top: Math.round(r.top), bottom: Math.round(r.bottom), inside: r.width > 0 && r.top >= 0 && r.left >= 0
              && r.bottom <= innerHeight && r.right <= innerWidth, reached: !!hit && (hit === e || e.contains(hit))};
  };
  const dock = [...document.querySelectorAll('#moves button, #bid-row:not([hidden]) > *')]
    .filter(e => e.getClientRects().length);  // not a move folded behind "More moves"
  const first = document.querySelector('#moves button.rank-0')
    || document.querySelector('#hand .can') || document.querySelector('.sq.can')
    || document.querySelector('.can[data-card]')
    || document.querySelector('#moves button');
  return {first: first && inside(first), dock: dock.map(inside), scrolled: scrollY,
          wide: document.documentElement.scrollWidth > innerWidth + 1, height: innerHeight};
})()"""

# The board's middle: whether each of its parts shown (the dice, the auction's lines) lies inside it.
CENTRE = """(() => {
  const box = document.getElementById('centre').getBoundingClientRect();
  return [...document.querySelectorAll('#centre > *')].filter(e => e.getClientRects().length).map(e => {
    const r = e.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1; });
})()"""

END_SCREEN = """(() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };
  return {title: document.getElementById('end-title').textContent, titleSeen: box('end-title'),
          rematch: !document.getElementById('rematch').hidden && box('rematch'), back: box('back-to-tables'),
          rematchText: document.getElementById('rematch').textContent, scrolled: scrollY};
})()"""


async def _phone_page(browser, address, name=None):
    page = await browser.new_page()
    await page.phone()
    await page.goto(f"{address}/?lang=en")
    if name:
        await page.eval(f"localStorage.setItem('tycoon-name', {json.dumps(name)})")
    return page


def _in_first_screen(seen: dict, where: str) -> None:
    assert seen["scrolled"] == 0 and not seen["wide"], (where, seen)
    assert seen["first"] is not None, (where, "no move offered", seen)
    first = seen["first"]
    assert first["inside"] and first["reached"], (where, "the first move", first, seen["height"])
    for button in seen["dock"]:
        assert button["inside"] and button["reached"], (where, "a move of the dock", button, seen["height"])


async def _end_in_first_screen(page, names: list[str], winners: list[int], where: str) -> dict:
    await page.wait("document.body.dataset.status === 'over' && !document.getElementById('end').hidden")
    seen = await page.eval(END_SCREEN)
    assert all(names[w] in seen["title"] for w in winners), (where, seen)
    assert seen["titleSeen"] and seen["rematch"] and seen["back"] and seen["scrolled"] == 0, (where, seen)
    return seen


async def _settle(service, table, version) -> None:
    """Until the press made a move (or the game ended): the service's own pace, no wall clock."""
    for _ in range(2000):
        row = service.cache.row(table)
        if row.version != version or row.status != "running":
            return
        await service.idle()
        await asyncio.sleep(0.01)
    raise AssertionError("the press made no move")


@pytest.mark.slow
async def test_a_whole_board_game_on_a_phone_keeps_every_move_in_the_first_screen(web, artifacts, pace):
    """Roll, buy, decline and bid (an amount of one's own, typed), pay, jail, answer an offer: at
    every decision the moves are in the first screen; the auction's middle holds its dice; at the
    end the winner and Rematch are in the first screen for the player and a spectator; Rematch opens
    a lobby of the same game, rule options and seats."""
    service, address, browser = web
    alice = await _phone_page(browser, address, "Alice")
    table = await alice.open_table("Alice", "board", 1)
    await alice.eval("document.querySelector('#option-buttons [data-option=\"o:pot\"]').click()")  # a rule option
    await alice.wait("document.querySelector('#option-buttons [data-option=\"o:pot\"]').classList.contains('on')")
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    spectator = await _phone_page(browser, address)
    await spectator.goto(address + watch_path(service, table) + "&lang=en")
    seat = next(i for i, s in enumerate(service.cache.row(table).seats) if not s["ai"])
    plug, kinds, typed, declined, auction_seen, decisions = GAMES["board"], set(), False, False, False, 0
    while service.cache.row(table).status == "running" and decisions < 700:
        await service.idle()
        state = service.cache.state(table)
        if seat not in [d.seat for d in plug.rules.waiting_for(state)]:
            await asyncio.sleep(0.01)
            continue
        version = service.cache.row(table).version
        await alice.wait(f"Number(document.body.dataset.version) >= {version}")
        view = await service.public_view(table)
        _in_first_screen(await alice.eval(FIRST_SCREEN), f"board decision {decisions}")
        decisions += 1
        pace.pause(1)  # a person's pace: never refused as too fast
        action = plug.choose_listed(state, seat)
        if type(action).__name__ == "ProposeTrade":  # a composed offer is the trade builder's test
            action = next(a for a in plug.rules.legal_actions(state, seat) if type(a).__name__ == "Roll")
        if type(action).__name__ == "Buy" and not declined:  # once: declined, so auctioned (B-05)
            action = next(a for a in plug.rules.legal_actions(state, seat) if type(a).__name__ == "DeclineToBuy")
            declined = True
        if view.board.get("auction"):
            auction_seen = True
            assert all(await alice.eval(CENTRE)), "the auction's middle cuts off a part"
            await alice.screenshot(artifacts / "web-board-auction-phone.png", 390, 844, mobile=True)
            await alice.phone()
        asked_bid = any(a.kind == "bid" and a.seat == seat for a in view.asks)
        if asked_bid and not typed:  # a bid of one's own: typed in the dock and sent
            least = view.board["min_bid"]
            await alice.eval(f"document.getElementById('bid-amount').value = '{least}';"
                             "document.getElementById('bid-send').click()")
            await _settle(service, table, version)
            log = await queries.load_log(service.db, table)
            made = [service.cache.rules(table).decode_action(e.action) for e in log if e.seat == seat][-1]
            assert (type(made).__name__, made.amount) == ("Bid", least), made
            typed, kinds = True, kinds | {"TypedBid"}
            continue
        kinds.add(type(action).__name__)
        token = next(tok for a, tok in service.buttons(table, seat) if a == action)
        await _press(alice, token)
        await _settle(service, table, version)
    assert service.cache.row(table).status == "over", decisions
    assert typed and auction_seen and {"Roll", "Buy", "DeclineToBuy"} <= kinds, kinds
    await _readable(alice, "board end, phone")
    names = [s["name"] for s in service.cache.row(table).seats]
    winners = service.cache.rules(table).result(service.cache.state(table)).winners
    for page, who in ((alice, "player"), (spectator, "spectator")):
        await _end_in_first_screen(page, names, winners, who)
    await alice.screenshot(artifacts / "web-board-end-phone.png", 390, 844, mobile=True)
    await alice.phone()
    await alice.eval("document.getElementById('rematch').click()")
    await alice.wait(f"location.pathname !== '/t/{table}' && document.body.dataset.status === 'lobby'")
    again = int(await alice.eval("location.pathname.split('/')[2]"))
    old, new = service.cache.row(table), service.cache.row(again)
    assert (new.game, new.ruleset) == (old.game, old.ruleset) and new.status == "lobby"
    assert new.options == {"free_parking_pot": True} and old.options["free_parking_pot"]  # the option switched on
    assert [(s["name"], s["ai"]) for s in new.seats] == [(s["name"], s["ai"]) for s in old.seats]
    await spectator.wait(f"document.getElementById('rematch').dataset.table === '{again}'")
    assert not alice.errors and not spectator.errors, (alice.errors, spectator.errors)


@pytest.mark.slow
async def test_a_whole_deal_game_on_two_phones_then_a_rematch_with_the_same_players(web, artifacts, pace):
    """Play a card, pay, answer a Just Say No, discard, end the turn: at every decision of either
    phone's player the moves are in the first screen; the turn line counts the plays left, and End
    turn leads the moves once no play is left. At the end the winner and Rematch are in the first
    screen of both players and a spectator; Alice's Rematch opens a lobby with the AI seat and
    Bob invited, and Bob's one tap seats him."""
    service, address, browser = web
    alice = await _phone_page(browser, address, "Alice")
    table = await alice.open_table("Alice", "deal", 1)
    bob = await _phone_page(browser, address, "Bob")
    await bob.goto(f"{address}/t/{table}?lang=en")
    await bob.wait("document.body.dataset.status === 'lobby' && !document.getElementById('join-row').hidden")
    await bob.eval("document.getElementById('join').click()")
    await alice.wait("document.querySelectorAll('#seats li').length === 3")
    await alice.eval("document.querySelector('[data-op=start]').click()")
    spectator = await _phone_page(browser, address)
    await spectator.goto(address + watch_path(service, table) + "&lang=en")
    row = service.cache.row(table)
    pages = {i: {"Alice": alice, "Bob": bob}[s["name"]] for i, s in enumerate(row.seats) if not s["ai"]}
    plug, kinds, decisions, counted, promoted = GAMES["deal"], set(), 0, 0, 0
    while service.cache.row(table).status == "running" and decisions < 600:
        await service.idle()
        state = service.cache.state(table)
        owing = [d.seat for d in plug.rules.waiting_for(state) if d.seat in pages]
        if not owing:
            await asyncio.sleep(0.01)
            continue
        seat, version = owing[0], service.cache.row(table).version
        page = pages[seat]
        await page.wait(f"Number(document.body.dataset.version) >= {version}")
        asked = [(d.kind, type(a).__name__) for d in plug.rules.waiting_for(state) if d.seat == seat
                 for a in plug.rules.legal_actions(state, seat)][:12]
        _in_first_screen(await page.eval(FIRST_SCREEN), f"deal decision {decisions}: {asked}")
        view = service.cache.rules(table).view(state, seat)
        buttons = service.buttons(table, seat)
        if view["phase"] == "play" and view["current"] == seat:  # the turn line counts the plays left
            note = await page.eval("document.getElementById('turn-note').textContent")
            assert note == t("en", "web.clock.plays_left", count=view["plays_left"]), note
            counted += 1
            end = [tok for a, tok in buttons if type(a).__name__ == "EndTurn"]
            if view["plays_left"] == 0 and end:  # nothing left to play: End turn comes first, promoted
                first = await page.eval("(b => [b.dataset.token, b.className])"
                                        "(document.querySelector('#moves button'))")
                assert first == [end[0], "rank-0"], first
                promoted += 1
        decisions += 1
        pace.pause(1)
        action = plug.choose_listed(state, seat)
        kinds.add(type(action).__name__)
        await _press(page, next(tok for a, tok in buttons if a == action))
        await _settle(service, table, version)
    assert service.cache.row(table).status == "over", decisions
    assert {"EndTurn", "Discard"} & kinds and counted > 10, (kinds, counted)
    assert {"BankCard", "LayProperty"} <= kinds and kinds & {"ConfirmPayment", "AutoPay", "TogglePayment"}, kinds
    names = [s["name"] for s in service.cache.row(table).seats]
    winners = service.cache.rules(table).result(service.cache.state(table)).winners
    for page, who in ((alice, "Alice"), (bob, "Bob"), (spectator, "spectator")):
        await _end_in_first_screen(page, names, winners, who)
        await _readable(page, f"deal end, {who}")
    await spectator.screenshot(artifacts / "web-deal-end-spectator-phone.png", 390, 844, mobile=True)
    await alice.eval("document.getElementById('rematch').click()")
    await alice.wait(f"location.pathname !== '/t/{table}' && document.body.dataset.status === 'lobby'")
    again = int(await alice.eval("location.pathname.split('/')[2]"))
    assert [(s["name"], s["ai"]) for s in service.cache.row(again).seats] == [("Alice", False), ("AI 1", True)]
    await alice.wait("document.getElementById('invited').textContent.includes('Bob')")  # invited, not yet seated
    label = t("en", "web.end.join_rematch", table=again)
    await bob.wait(f"document.getElementById('rematch').textContent === {json.dumps(label)}")
    await bob.eval("document.getElementById('rematch').click()")  # one tap: seated in the rematch
    await bob.wait(f"location.pathname === '/t/{again}' && document.body.dataset.status === 'lobby'")
    assert [s["name"] for s in service.cache.row(again).seats] == ["Alice", "AI 1", "Bob"]
    await alice.wait("document.getElementById('invited').hidden")
    assert not alice.errors and not bob.errors and not spectator.errors


async def test_a_cancelled_or_finished_table_answers_every_address_its_page_links(web):
    """A lobby cancelled before its game (either game), a game cancelled while running and a
    finished game: each page says how the table ended (no "undefined", no empty board), and every
    address it links (the picture, the spectator page, its scripts and styles, the way back)
    answers without a server error."""
    service, address, browser = web
    page = await _phone_page(browser, address, "Ann")
    tables = {}
    for game in ("deal", "board"):  # a lobby, cancelled: never played
        made = (await service.lobby.new_table(f"web:c{game}", game, None, "web:ann", "Ann")).table
        tables[f"{game} lobby"] = made
        assert (await service.lobby.cancel(made, "web:ann")).ok
    running = (await service.lobby.new_table("web:crun", "deal", None, "web:ann", "Ann")).table
    await service.lobby.add_ai(running, "web:ann")
    assert (await service.lobby.start(running, "web:ann", seed=3)).ok
    await service.idle()
    assert (await service.lobby.cancel(running, "web:ann")).ok
    tables["deal cancelled while running"] = running
    finished = (await service.lobby.new_table("web:cend", "deal", None, "web:ann", "Ann")).table
    await service.lobby.add_ai(finished, "web:ann")
    assert (await service.lobby.start(finished, "web:ann", seed=3)).ok
    while service.cache.row(finished).status == "running":  # Ann's moves made for her, as the AI would
        await service.idle()
        state = service.cache.state(finished)
        for d in GAMES["deal"].rules.waiting_for(state):
            if d.seat == 0:
                await service.act_as(finished, 0, GAMES["deal"].choose_listed(state, 0))
                break
    tables["deal finished"] = finished
    assert service.cache.row(finished).status == "over"
    links = "[...document.querySelectorAll('a[href], link[href], script[src]')].map(e => e.href || e.src)"
    for what, table in tables.items():
        for path in (f"/t/{table}?lang=en", watch_path(service, table) + "&lang=en"):
            await page.goto(address + path)
            status = service.cache.row(table).status
            await page.wait(f"document.body.dataset.status === '{status}' && !document.getElementById('end').hidden")
            text = await page.eval("document.body.innerText")
            assert "undefined" not in text and "NaN" not in text, (what, text)
            played = await page.eval("document.body.dataset.played") == "yes"
            assert played == ("lobby" not in what), what
            urls = await page.eval(links)
            assert any("/picture/" in u for u in urls) == played, (what, urls)
            picture = address + "/picture" + watch_path(service, table)[len("/watch"):]  # linked or not
            urls = [*urls, picture, address + path]
            answers = await page.eval(f"Promise.all({json.dumps(urls)}.map(u => fetch(u).then(r => [u, r.status])))")
            assert answers[-2][1] == (200 if played else 404), (what, answers[-2])
            assert answers and all(code < 500 for _, code in answers), (what, answers)
            assert not page.errors, (what, page.errors)


VISIBLE_OPS = "[...document.querySelectorAll('#lobby-buttons [data-op]')].filter(b => b.getClientRects().length)" \
              ".map(b => b.dataset.op)"


async def test_the_lobby_shows_each_reader_their_buttons_shares_public_links_and_says_when_offline(tmp_path):
    """Issue 47: a visitor sees Join and the rules only; a seated player Leave; the creator runs
    the lobby, and Cancel asks again before it ends the table; on a desktop the lobby fills the
    page; the share buttons carry the configured public address (the spectator link with its key);
    a lost connection shows a banner over the moves, a press then is refused where it is seen, and
    the page comes back by itself."""
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    app = make_app(service, Hub(service, seed=11), lang="en", public_url="https://play.example/")
    runner, address = await start_site(app, "127.0.0.1", 0)
    browser = await Browser.launch(CHROMIUM, tmp_path / "profile")
    try:
        ann = await _phone_page(browser, address, "Ann")
        table = await ann.open_table("Ann", "deal", 0)
        hosting = ["leave", "ai:basic", "ai", "ai:strong", "noai", "start", "cancel"]
        assert await ann.eval(VISIBLE_OPS) == hosting
        visitor = await _phone_page(browser, address, "Vic")
        await visitor.goto(f"{address}/t/{table}?lang=en")
        await visitor.wait("document.body.dataset.status === 'lobby' && !document.getElementById('join-row').hidden")
        assert await visitor.eval(VISIBLE_OPS) == []  # Join (and the rules) only
        assert await visitor.eval("document.querySelectorAll('#option-buttons .help').length") > 0
        await visitor.eval("document.getElementById('join').click()")
        await visitor.wait("document.getElementById('join-row').hidden")
        assert await visitor.eval(VISIBLE_OPS) == ["leave"]  # seated, not running the lobby
        # the links to share: the public address, the spectator link with the key that opens it
        shared = await ann.eval("[...document.querySelectorAll('#lobby-share button')].map(b => b.dataset.url)")
        assert shared == [f"https://play.example/t/{table}", "https://play.example" + watch_path(service, table)]
        await ann.eval("navigator.share = async (data) => { window.sharedUrl = data.url; }")
        await ann.eval("document.querySelectorAll('#lobby-share button')[1].click()")
        await ann.wait(f"window.sharedUrl === {json.dumps(shared[1])}")
        # on a desktop the lobby card fills the page's width
        await ann.resize(1280, 900)
        widths = await ann.eval("[document.getElementById('lobby').offsetWidth, document.getElementById('main')"
                                ".clientWidth]")
        assert widths[0] >= 0.9 * (widths[1] - 16), widths
        await ann.phone()
        # Cancel asks first: one press ends nothing
        await ann.eval("document.querySelector('[data-op=cancel]').click()")
        await ann.wait("document.querySelector('[data-op=cancel]').classList.contains('armed')")
        assert service.cache.row(table).status == "lobby"
        # the game: a lost connection (the server closes it; new ones fail) shows the banner
        await visitor.eval("document.querySelector('[data-op=leave]').click()")
        await ann.eval("document.querySelector('[data-op=ai]').click()")
        await ann.wait("document.querySelectorAll('#seats li').length === 2 && "
                       "!document.body.textContent.includes('Vic')")
        await ann.eval("document.querySelector('[data-op=start]').click()")
        await ann.wait("document.body.dataset.status === 'running' && document.querySelector('#moves button')")
        version = service.cache.row(table).version
        await ann.eval("window.RealSocket = WebSocket; window.WebSocket = class extends RealSocket {"
                       " constructor(url) { super(url.replace('/ws/', '/no-ws/')); } }")
        for client in list(app[HUB].clients.get(table, ())):
            if client.user == service.cache.row(table).seats[0]["user"]:
                await client.ws.close()
        await ann.wait("!document.getElementById('offline').hidden && document.body.dataset.online === 'no'")
        await ann.eval("document.getElementById('turn').scrollIntoView()")
        assert await ann.eval("(r => r.top >= 0 && r.bottom <= innerHeight)"
                              "(document.getElementById('offline').getBoundingClientRect())")
        await ann.eval("document.querySelector('#moves button').click()")
        await ann.wait(f"document.getElementById('error').textContent === {json.dumps(t('en', 'web.err.offline'))}")
        assert service.cache.row(table).version == version  # the press went nowhere
        await ann.eval("window.WebSocket = window.RealSocket")
        await ann.wait("document.getElementById('offline').hidden && document.body.dataset.online === 'yes'")
        assert not ann.errors and not visitor.errors, (ann.errors, visitor.errors)
    finally:
        await browser.close()
        await runner.cleanup()
        await service.idle()
        await service.close()
