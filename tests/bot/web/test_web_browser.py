"""The web table in a real headless Chromium (tools/headless.py): two people in two browser
contexts play a whole Deal game against each other and an AI seat while a spectator follows, a
forged Telegram ``initData`` is refused and a real one shows its player's seat, and screenshots at
phone and desktop width are saved: under this run's temporary directory, or under the directory
``TYCOON_TEST_ARTIFACTS`` names when it is set (to look at them).

Skipped, with the reason, when Debian's chromium is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
import json
import time
from functools import partial
from urllib.parse import quote

import pytest

from bot.web.auth import sign_init_data
from bot.web.context import watch_path
from bot.web.server import make_app, start_site
from engine.board.data import board
from engine.games import GAMES
from engine.service.tables import GameService
from tests.bot.web.conftest import BOT_TOKEN, CHROMIUM
from tools.headless import PRESS, Browser
from words import board_text, deal_text
from words.i18n import t

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                         "(apt-get install chromium; .ci/run does it)")


async def _seat_page(browser, address, name, lang="en"):
    page = await browser.new_page()
    await page.goto(f"{address}/?lang={lang}")
    await page.eval(f"localStorage.setItem('tycoon-name', {json.dumps(name)})")
    return page


async def _open_board_lobby(browser, address, ai: int):
    """Alice opens a board table on the front page with ``ai`` AI seats: her page, at the lobby,
    and the table's id."""
    alice = await _seat_page(browser, address, "Alice")
    return alice, await alice.open_table("Alice", "board", ai)


# What a reader sees of the page: text under 12 px, text cut off by a box that hides overflow,
# two texts drawn over each other (in one layer: a phone's dock is fixed over the page that scrolls
# under it, with a background of its own), and whether the page is wider than the screen.
LAYOUT = """(() => {
  const small = [], cut = [], over = [], boxes = [];
  const layer = (e) => { for (let a = e; a; a = a.parentElement) if (getComputedStyle(a).position === 'fixed') return a;
                         return null; };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode, e = node.parentElement;
    if (!node.textContent.trim() || !e || seen.has(e) || e.closest('[hidden], script, .sheet')) continue;
    if (e.closest('details:not([open]) > :not(summary)')) continue;  // folded away: not drawn
    seen.add(e);
    const style = getComputedStyle(e);
    if (style.display === 'none' || style.visibility === 'hidden' || !e.getClientRects().length) continue;
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = range.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const what = `${e.className || e.tagName}: ${e.textContent.trim().slice(0, 24)}`;
    if (parseFloat(style.fontSize) < 12) small.push(`${what} (${style.fontSize})`);
    for (let a = e; a; a = a.parentElement) {
      const o = getComputedStyle(a);
      if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
      if (o.overflowY === 'auto' || o.overflowY === 'scroll') break;  // a scrolling box shows the rest
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) cut.push(what);
      break;
    }
    boxes.push([e, r, what]);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [e1, a, w1] = boxes[i], [e2, b, w2] = boxes[j];
    if (e1.contains(e2) || e2.contains(e1) || layer(e1) !== layer(e2)) continue;
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x > 2 && y > 2) over.push(`${w1} / ${w2}`);
  }
  return {small, cut, over, wide: document.documentElement.scrollWidth > innerWidth + 1};
})()"""

# On the web board: the owner's marks and buildings that cover a square's name or price, and the
# tokens of players who are out of the game still on the board.
MARKS = """(() => {
  const covered = [];
  for (const sq of document.querySelectorAll('.sq')) {
    const texts = [...sq.querySelectorAll('.nm, .pr')].filter(e => getComputedStyle(e).display !== 'none')
      .map(e => { const r = document.createRange(); r.selectNodeContents(e); return [e, r.getBoundingClientRect()]; });
    for (const mark of sq.querySelectorAll('.owner, .houses > i')) {
      const m = mark.getBoundingClientRect();
      for (const [e, r] of texts) {
        const x = Math.min(m.right, r.right) - Math.max(m.left, r.left);
        const y = Math.min(m.bottom, r.bottom) - Math.max(m.top, r.top);
        if (x > 1 && y > 1) covered.push(`${mark.className} over ${e.className} of square ${sq.dataset.square}`);
      }
    }
  }
  return covered;
})()"""
LOG = "[...document.querySelectorAll('#log li')].map(li => li.textContent)"
CARDS = "[...document.querySelectorAll('[data-card]')].map(e => Number(e.dataset.card))"


async def _press(page, token: str) -> str:
    """Press the move whose token this is, the way a person would (see ``PRESS``); how it was reached."""
    how = None
    for _ in range(600):
        how = await page.eval(f"{PRESS}({json.dumps(token)})")
        if how:
            return how
        await asyncio.sleep(0.05)
    mine = await page.eval("document.getElementById('mine').innerText")
    raise AssertionError(f"the page never offered {token}: {mine}")


async def _readable(page, where: str) -> None:
    """Nothing on the screen in tiny type, nothing wider than the screen; no script error."""
    seen = await page.eval(LAYOUT)
    assert not seen["small"], (where, seen["small"][:8])
    assert not seen["cut"], (where, "cut off", seen["cut"][:8])
    assert not seen["over"], (where, "drawn over each other", seen["over"][:8])
    assert not seen["wide"], (where, "the page is wider than the screen")
    assert not page.errors, (where, page.errors)


def _hands(service, table) -> set[int]:
    state, rules = service.cache.state(table), service.cache.rules(table)
    return {card for seat in range(len(service.cache.row(table).seats))
            for card in rules.view(state, seat)["players"][seat].get("hand", [])}


@pytest.mark.slow
async def test_two_browsers_play_a_whole_deal_game_with_an_ai_seat_while_a_spectator_follows(web, artifacts):
    """Issue 31 on a phone: two people tap their cards and buttons through a whole Deal game (every
    move about a card is reached by tapping the card), with a countdown that runs, a spectator who
    never sees a card of a hand and a late spectator whose log is the whole game; the end names the
    winner on every page; no text under 12 px, no page wider than the phone, no script error."""
    service, address, browser = web
    alice = await _seat_page(browser, address, "Alice", "zh-Hans")  # each page in its own language
    table = await alice.open_table("Alice", "deal", 1)

    bob = await _seat_page(browser, address, "Bob")
    await bob.wait(f"document.querySelector('a[href=\"/t/{table}\"]')")  # the lobby lists the table
    await bob.eval(f"document.querySelector('a[href=\"/t/{table}\"]').click()")
    await bob.wait("document.body.dataset.status === 'lobby' && !document.getElementById('join-row').hidden")
    await bob.eval("document.getElementById('join').click()")
    await alice.wait("document.querySelectorAll('#seats li').length === 3")
    assert await alice.eval("[...document.querySelectorAll('#seats li')].map(li => li.textContent)") == [
        f"Alice ({t('zh-Hans', 'web.you')})", f"AI 1 ({t('zh-Hans', 'ai.level.ai')})", "Bob"]

    spectator = await browser.new_page(390, 844)  # a phone, in another language than Bob's
    await spectator.goto(address + watch_path(service, table) + "&lang=zh-Hans")
    await spectator.wait("document.body.dataset.status === 'lobby'")
    await alice.eval("document.querySelector('[data-op=start]').click()")
    for page in (alice, bob, spectator):
        await page.wait("document.body.dataset.status === 'running'")
    for page in (alice, bob):
        await page.resize(390, 844, mobile=True)

    row = service.cache.row(table)
    people = {row.seats[i]["user"]: i for i in range(3) if not row.seats[i]["ai"]}
    pages = {people[u]: page for u, page in zip(sorted(people, key=people.get), (alice, bob), strict=True)}
    plug, presses, ways, checked, most_buttons, late, counted = GAMES["deal"], 0, set(), 0, 0, None, False
    while service.cache.row(table).status == "running":
        await service.idle()
        state = service.cache.state(table)
        owing = [d.seat for d in plug.rules.waiting_for(state) if d.seat in pages]
        if not owing:
            await asyncio.sleep(0.01)
            continue
        seat = owing[0]
        action = plug.choose_listed(state, seat)  # the AI picks the person's move; the person taps it
        token = next(tok for a, tok in service.buttons(table, seat) if a == action)
        page = pages[seat]
        await page.wait(f"Number(document.body.dataset.version) >= {service.cache.row(table).version}")
        if not counted:  # the clock runs down on the page of the one it waits for
            left = int(await page.eval("document.getElementById('countdown').dataset.left"))
            assert 0 < left <= 60
            await page.wait(f"Number(document.getElementById('countdown').dataset.left) < {left}", 5)
            counted = True
        ranks = await page.eval("[...document.querySelectorAll('#moves button')].map(b => b.className)")
        most_buttons = max(most_buttons, len(ranks))
        assert ranks == sorted(ranks), ranks  # the expected answer first, the quiet ones last
        if presses == 8:
            await alice.screenshot(artifacts / "web-table-phone.png", 390, 844, mobile=True)
            await alice.screenshot(artifacts / "web-table-desktop.png", 1280, 900)
            await _readable(alice, "desktop")
            await alice.resize(390, 844, mobile=True)
            await spectator.screenshot(artifacts / "web-spectator-phone.png", 390, 844, mobile=True)
        if presses % 10 == 3:
            await _readable(page, f"press {presses}")
        version = service.cache.row(table).version
        ways.add(await _press(page, token))
        for spins in range(1, 2000):
            if service.cache.row(table).version != version or service.cache.row(table).status != "running":
                break
            await service.idle()
            await asyncio.sleep(0.01)
            if spins % 100 == 0:  # refused as too many presses at once (the page says so): as a
                await _press(page, token)  # person would, press again a moment later
        presses += 1
        if presses % 10 == 1:  # the spectator follows, and never holds a card of a hand
            await spectator.wait(f"Number(document.body.dataset.version) >= {service.cache.row(table).version}")
            assert await spectator.eval("document.getElementById('mine') === null")
            shown = set(await spectator.eval(CARDS))
            assert shown and not shown & _hands(service, table), shown & _hands(service, table)
            checked += 1
        if presses == 25:  # someone who opens the table now gets the whole story so far
            late = await browser.new_page(390, 844)
            await late.goto(address + watch_path(service, table) + "&lang=zh-Hans")
            version = service.cache.row(table).version
            for page_ in (late, spectator):
                await page_.wait(f"Number(document.body.dataset.version) >= {version}")
            if service.cache.row(table).version == version:
                assert await late.eval(LOG) == await spectator.eval(LOG)
                assert len(await late.eval(LOG)) > 20
            traditional = await browser.new_page(390, 844)  # the third language, on a phone
            await traditional.resize(390, 844, mobile=True)
            await traditional.goto(address + watch_path(service, table) + "&lang=zh-Hant")
            await traditional.wait("document.body.dataset.status === 'running'")
            await _readable(traditional, "zh-Hant")
    assert service.cache.row(table).status == "over"
    names = [s["name"] for s in service.cache.row(table).seats]
    winners = service.cache.rules(table).result(service.cache.state(table)).winners
    assert winners  # somebody won the whole game, by the rules
    for page in (alice, bob, spectator, late):
        await page.wait("document.body.dataset.status === 'over'")
        title = await page.eval("document.getElementById('end-title').textContent")
        assert all(names[w] in title for w in winners), title
        # nobody's turn any more: no player marked as acting, no empty clock
        assert await page.eval("document.querySelectorAll('.now').length") == 0
        assert await page.eval("document.getElementById('countdown').hidden")
        assert not page.errors, page.errors
    assert presses > 20 and checked >= 2
    assert {"button", "card"} <= ways, ways  # cards were tapped for their moves
    assert most_buttons <= 6, most_buttons  # never a wall of buttons
    assert (artifacts / "web-table-phone.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


async def test_forged_init_data_is_refused_and_a_real_one_shows_the_players_seat(web, artifacts):
    service, address, browser = web
    created = await service.lobby.new_table("tg:-100777", "deal", None, "tg:4242", "Tom")
    await service.lobby.add_ai(created.table, "tg:4242")
    await service.lobby.start(created.table, "tg:4242", seed=3)
    await service.idle()
    user = json.dumps({"id": 4242, "first_name": "Tom", "language_code": "en"})
    fields = {"auth_date": str(int(time.time())), "query_id": "AAE", "user": user}
    forged = sign_init_data(fields, "999:not-the-bot-token")
    page = await browser.new_page()
    await page.goto(f"{address}/tg/{created.table}#tgWebAppData={quote(forged)}")
    await page.wait("document.body.dataset.status === 'refused'")
    assert "could not confirm" in await page.eval("document.getElementById('error').textContent")
    assert await page.eval("document.getElementById('mine').hidden")

    real = sign_init_data(fields, BOT_TOKEN)
    page = await browser.new_page(390, 844)  # the Mini App, on a phone
    await page.resize(390, 844, mobile=True)
    await page.goto(f"{address}/tg/{created.table}#tgWebAppData={quote(real)}")
    await page.wait("document.body.dataset.status === 'running' && !document.getElementById('mine').hidden")
    hand = service.cache.rules(created.table).view(service.cache.state(created.table), 0)["players"][0]["hand"]
    await page.wait(f"document.querySelectorAll('#hand [data-card]').length === {len(hand)}")
    shown = await page.eval("[...document.querySelectorAll('#hand [data-card]')].map(e => Number(e.dataset.card))")
    assert sorted(shown) == sorted(hand)  # the hand as cards to tap, each named on its face
    names = await page.eval("[...document.querySelectorAll('#hand .name')].map(e => e.textContent)")
    assert sorted(names) == sorted(deal_text.card_name(c, "en") for c in hand)
    await page.screenshot(artifacts / "web-mini-app-phone.png", 390, 844, mobile=True)
    await _readable(page, "mini app")


async def test_tournament_page_shows_live_standings_and_the_rounds_tables(tmp_path, artifacts):
    """A screen at the venue: the standings and the round's tables, each with its spectator link;
    the page needs the signed link the chat's /standings gives."""
    from bot.web.auth import tournament_path
    from engine.service.tournaments import Tournaments
    from tests.engine.service.test_service import FakeClock

    clock = FakeClock()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tour.db'}", clock)
    tours = Tournaments.of(service)
    runner, address = await start_site(make_app(service, lang="en"), "127.0.0.1", 0)
    browser = await Browser.launch(CHROMIUM, tmp_path / "profile")
    try:
        start = clock.now + 600
        tid = (await tours.create("tg:-1009", "admin", True, "deal", None, starts_at=start, rounds=2,
                                  name="Friday cup", seed=4)).params["tournament"]
        for i in range(6):
            assert (await tours.sign_up(tid, f"tg:{i + 1}", f"P{i}")).ok
        clock.now = start
        await service.sweep()
        page = await browser.new_page()
        await page.goto(f"{address}/tournament/{tid}?k=W:{tid}.00000000")
        assert "not valid" in await page.eval("document.body.textContent")
        await page.goto(address + tournament_path(service.sign, tid))
        await page.wait("document.querySelectorAll('#rows tr').length === 6 && "
                        "document.querySelectorAll('#tables li').length === 2")
        assert await page.eval("document.getElementById('heading').textContent") == "Friday cup"
        links = await page.eval("[...document.querySelectorAll('#tables a')].map(a => a.getAttribute('href'))")
        matches = await tours.matches(tid, 1)
        assert links == [watch_path(service, m.table_id) for m in matches]
        await page.screenshot(artifacts / "web-tournament-desktop.png", 1280, 800)
    finally:
        await browser.close()
        await runner.cleanup()
        await service.idle()
        await service.close()


async def test_a_board_game_in_the_browser_through_a_trade_built_on_the_page(web, artifacts, pace):
    """B-15 on the web: a player plays the board game against an AI seat by clicking, builds an
    offer in the page's trade builder (a deed ticked, cash typed), sends it, and the AI accepts;
    the log shows the one line of the trade made; the game goes on by clicks."""
    service, address, browser = web
    alice, table = await _open_board_lobby(browser, address, ai=1)
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    seat = next(i for i, s in enumerate(service.cache.row(table).seats) if not s["ai"])
    plug, presses, traded, after, spins, ways, declined, auctions = GAMES["board"], 0, None, 0, 0, set(), 0, 0

    async def click(selector: str) -> None:
        await alice.wait(f"document.querySelector('{selector}') && !document.querySelector('{selector}').disabled")
        await alice.eval(f"document.querySelector('{selector}').click()")

    while service.cache.row(table).status == "running" and after < 12 and presses < 400:
        await service.idle()
        state = service.cache.state(table)
        mine = [sq for sq, owner in enumerate(state.owner) if owner == seat and not state.mortgaged[sq]
                and not any(state.houses[o] for o in board(state.options.ruleset).groups[
                    board(state.options.ruleset).group[sq]])]
        ai_cash = state.players[1 - seat].cash
        if traded is None and state.stage == "roll" and mine and not state.trades and ai_cash > 1000:
            pace.pause(3)  # a person's pace: the page takes 4 presses a second (12 at once)
            await click("#extras button[data-extra=trade]")  # "Propose a trade", beside the moves
            await alice.wait("!document.getElementById('trade').hidden && document.body.dataset.trade === 'open'")
            sq = mine[0]
            await alice.eval(f"document.querySelector('#trade-mine input[data-square=\"{sq}\"]').click()")
            given = t("en", "trade.you_give", terms=t("en", "board.ui.nothing"))
            await alice.wait(f"!document.getElementById('trade-text').textContent.includes({json.dumps(given)})")
            asked = board(state.options.ruleset).price[sq] // 10  # a tenth of its price: the AI takes that
            await alice.eval(f"document.getElementById('trade-them').value = '{asked}';"
                             "document.getElementById('trade-cash').click()")
            await alice.wait(f"document.getElementById('trade-text').textContent.includes('{asked:,}')")
            await alice.screenshot(artifacts / "web-trade-builder-phone.png", 390, 844, mobile=True)
            await _readable(alice, "board, phone")
            await alice.resize(1280, 900)
            await click("#trade-finish button[data-op=s]")
            await alice.wait("document.body.dataset.trade === 'closed'")
            for _ in range(200):
                await service.idle()
                if not service.cache.state(table).trades:
                    break
                await asyncio.sleep(0.02)
            traded = sq
            assert service.cache.state(table).owner[sq] == 1 - seat, "the AI took the offer"
            await alice.wait("[...document.querySelectorAll('#log li')].some(li => li.textContent.includes("
                             "'made a trade'))")
            continue
        owing = [d.seat for d in plug.rules.waiting_for(state) if d.seat == seat]
        if not owing:
            spins += 1
            assert spins < 1000, (plug.rules.waiting_for(state), state.stage, service.cache.row(table).seats)
            await asyncio.sleep(0.01)
            continue
        spins = 0
        action = plug.choose_listed(state, seat)
        if type(action).__name__ == "ProposeTrade":  # the ready-made offers are not what this test is about
            action = next(a for a in plug.rules.legal_actions(state, seat) if type(a).__name__ == "Roll")
        if type(action).__name__ == "Buy" and not declined:  # once: not bought, so auctioned (B-05)
            action = next(a for a in plug.rules.legal_actions(state, seat) if type(a).__name__ == "DeclineToBuy")
        token = next(tok for a, tok in service.buttons(table, seat) if a == action)
        version = service.cache.row(table).version
        await alice.wait(f"Number(document.body.dataset.version) >= {version}")
        ways.add(await _press(alice, token))
        if type(action).__name__ == "DeclineToBuy":
            declined += 1
            auction = t("en", "web.board.auction", square="").strip()
            await alice.wait(f"document.getElementById('centre').textContent.includes({json.dumps(auction)})")
            auctions += 1
        for _ in range(500):  # the move, or a refusal: an AI offer may have moved the table first
            if service.cache.row(table).version != version or service.cache.row(table).status != "running":
                break
            await service.idle()
            await asyncio.sleep(0.01)
        presses += 1
        after += traded is not None
    assert traded is not None, "the player made a trade on the page"
    assert auctions == 1 and "button" in ways and not alice.errors, (auctions, ways, alice.errors)
    log = await alice.eval("[...document.querySelectorAll('#log li')].map(li => li.textContent).join('\\n')")
    assert "Offer #" not in log and "offers" not in log  # the log is the group's: no haggling
    # the pictures show the table, not this test's pace: a press refused as too fast says so for 6 s
    await alice.wait("!document.getElementById('error').textContent", timeout=15)
    await alice.screenshot(artifacts / "web-board-desktop.png", 1280, 900)
    await _readable(alice, "board, desktop")
    for width in (920, 1024, 1440):  # narrow laptops: squares too small for names draw as on a phone
        await alice.screenshot(artifacts / f"web-board-{width}.png", width, 800)
        await _readable(alice, f"board, {width} px")
        assert await alice.eval("document.querySelectorAll('.sq .owner').length") > 0
        assert await alice.eval(MARKS) == [], width  # owners' marks stand on the colour bands
    # a tapped square reads like its printed deed (B-06): a street, a station, a utility
    b, money = board("china"), partial(board_text.money, "china", lang="en")
    for square, line in ((1, t("en", "web.sq.rent_base", amount=money(b.rent[1][0]), double=money(2 * b.rent[1][0]))),
                         (1, t("en", "web.sq.rent_houses", amounts=" / ".join(money(r) for r in b.rent[1][1:5]))),
                         (5, t("en", "web.sq.rent_stations", amounts=" / ".join(money(r) for r in b.rent[5]))),
                         (12, t("en", "web.sq.rent_utility", one=b.rent[12][0], two=b.rent[12][1]))):
        await alice.eval(f"document.querySelector('.sq[data-square=\"{square}\"]').click()")
        await alice.wait(f"document.getElementById('sheet-text').textContent.includes({json.dumps(line)})", timeout=5)
        await alice.eval("document.getElementById('sheet').hidden = true")
    await alice.screenshot(artifacts / "web-board-phone.png", 390, 844, mobile=True)


async def test_B10_the_creator_switches_a_rule_option_in_the_web_lobby_and_the_game_plays_it(web):
    """Issue 16 item 5 on the web: the lobby shows the board's rule options as toggles to its
    creator only; a click switches one (the Free Parking pot, B-10) for everyone's "on" line; a
    second page sees what is on but has no toggles; the game starts with the option."""
    service, address, browser = web
    alice, table = await _open_board_lobby(browser, address, ai=0)
    pot = t("en", "opt.free_parking_pot")
    switch = "document.querySelector('#option-buttons .switch[data-option=\"o:pot\"]')"
    await alice.wait(f"{switch} && {switch}.querySelector('.what > span').textContent === {json.dumps(pot)}"
                     f" && !{switch}.classList.contains('on')")
    # each option says what it does (issue 47), under its name
    assert await alice.eval(f"{switch}.querySelector('.help').textContent") == t("en", "opt.free_parking_pot.help")
    bob = await _seat_page(browser, address, "Bob")
    await bob.goto(f"{address}/t/{table}?lang=en")
    await bob.wait("document.body.dataset.status === 'lobby'")
    await bob.eval("document.getElementById('name').value = 'Bob'; document.getElementById('join').click()")
    await alice.wait("document.body.textContent.includes('Bob')")
    assert await bob.eval("document.querySelectorAll('#option-buttons button').length") == 0  # not the creator
    # ... but the rules are his to read: every option, with what it does
    helps = await bob.eval("[...document.querySelectorAll('#option-buttons .readonly .help')].map(e => e.textContent)")
    assert t("en", "opt.free_parking_pot.help") in helps
    await alice.eval("document.querySelector('#option-buttons button[data-option=\"o:pot\"]').click()")
    await alice.wait(f"{switch}.classList.contains('on') && {switch}.getAttribute('aria-checked') === 'true'")
    await bob.wait(f"document.getElementById('options-on').textContent.includes('{pot}')")
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    state = service.cache.state(table)
    assert state.options.free_parking_pot and not state.options.uneven_building
    pot_line = t("en", "web.board.pot", amount="").split(":")[0]  # the board's middle shows the pot
    await alice.wait(f"document.getElementById('centre').textContent.includes('{pot_line}')")
    assert not alice.errors and not bob.errors
