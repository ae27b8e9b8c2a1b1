"""Issue 47: the web table is for everyone. axe-core (the JavaScript ``axe.min.js`` the
``axe-core-python`` wheel ships, a test dependency in pyproject.toml's ``dev`` extra) runs in the
headless Chromium over the front page, a table's lobby, a running board game, a running Deal game
and a game's end, each in the light and the dark colour scheme (``prefers-color-scheme``, emulated)
at a phone's size and a desktop's: no violation of impact "serious" or "critical" (colour contrast
among them). What axe cannot judge is measured here: each player's colour stands out 3:1 from the
board and the cards in the dark scheme (WCAG's non-text contrast), and each player's line of the end
screen's net-worth chart (and its sample in the legend) stands out 3:1 from the chart's ground in
both schemes, each player's line told apart from the others'. Also the page's signals: the tab's
title says when it is the reader's turn, and a strip under the turn line tells the last few things
that happened, what concerns the reader first.

Skipped, with the reason, when Debian's chromium is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
from importlib.resources import files

import pytest

from engine.games import GAMES
from tests.bot.web.conftest import CHROMIUM
from words.i18n import t

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                         "(apt-get install chromium; .ci/run does it)")

AXE = files("axe_core_python").joinpath("axe.min.js").read_text(encoding="utf-8")
# axe's findings that fail the test: what stops or badly hinders a reader (its "serious" and
# "critical"), each with the first few elements it found, as axe names them
AXE_RUN = """axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => ({id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 6).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '')
                                             .replace(/\\s+/g, ' ').slice(0, 220))})))"""
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


async def _scheme(page, scheme: str) -> None:
    """The page in the ``scheme`` colour scheme, its scripts told (a media query's change is
    reported to them before the next frame's animation callbacks)."""
    await page.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    await page.wait(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
    await page.eval("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


async def _size(page, size: str) -> None:
    if size == "phone":
        await page.phone()
    else:
        await page.resize(*SIZES[size])


# Each player's mark drawn on the table (a token, an owner's mark, a swatch: its colour as drawn)
# and its contrast with the board's felt and the cards' background, as WCAG counts it.
MARKS = """(() => {
  const hex = (rgb) => '#' + rgb.match(/\\d+/g).slice(0, 3).map(n => Number(n).toString(16).padStart(2, '0')).join('');
  const root = getComputedStyle(document.documentElement);
  const felt = root.getPropertyValue('--felt').trim(), card = root.getPropertyValue('--card').trim();
  return [...document.querySelectorAll('.token, .sq .owner, .swatch')].map(e => {
    const colour = hex(getComputedStyle(e).backgroundColor);
    return [e.className, colour, Math.min(contrast(colour, felt), contrast(colour, card))];
  });
})()"""


# Each line of the end screen's chart and of its legend (a player's colour, as drawn), with its
# contrast against the end card's ground (the chart's), as WCAG counts it, and its dash.
CHART_LINES = """(() => {
  const hex = (rgb) => '#' + rgb.match(/\\d+/g).slice(0, 3).map(n => Number(n).toString(16).padStart(2, '0')).join('');
  const end = document.getElementById('end');
  if (!end) return [];  // a page without an end screen (the front page)
  const ground = hex(getComputedStyle(end).backgroundColor);
  return [...end.querySelectorAll('#end-chart polyline, #end-chart .legend line')].map(e => {
    const colour = hex(getComputedStyle(e).stroke);
    return [e.tagName + ' ' + (e.dataset.seat || 'legend'), colour, contrast(colour, ground),
            e.getAttribute('stroke-dasharray')];
  });
})()"""


async def _axe(page, where: str, found: list) -> None:
    """axe over the page in both schemes at both sizes; what it finds is added to ``found``; in the
    dark scheme each player's mark stands out 3:1 from the felt and the cards; in both, each line
    of the end screen's chart (and of its legend) stands out 3:1 from the chart's ground."""
    if not await page.eval("typeof axe !== 'undefined'"):
        await page.eval(AXE)
    for scheme in ("light", "dark"):
        await _scheme(page, scheme)
        if scheme == "dark":
            faint = [m for m in await page.eval(MARKS) if m[2] < 3]
            found.extend(f"{where}, dark: a player's mark under 3:1: {m}" for m in faint)
        faint = [line for line in await page.eval(CHART_LINES) if line[2] < 3]
        found.extend(f"{where}, {scheme}: a line of the end chart under 3:1: {line}" for line in faint)
        for size in SIZES:
            await _size(page, size)
            await page.wait(f"innerWidth === {SIZES[size][0]}")
            for v in await page.eval(AXE_RUN):
                found.append(f"{where}, {scheme}, {size}: {v['id']} ({v['impact']}) {v['help']}\n    "
                             + "\n    ".join(v["nodes"]))


async def _play_as(service, table: int, seat: int, decisions: int) -> None:
    """``decisions`` moves of ``seat``, chosen as the AI would and made by the service (or fewer:
    the game ended)."""
    plug = GAMES[service.cache.row(table).game]
    made = 0
    for _ in range(20000):
        if made >= decisions or service.cache.row(table).status != "running":
            return
        await service.idle()
        state = service.cache.state(table)
        if seat in [d.seat for d in plug.rules.waiting_for(state)]:
            await service.act_as(table, seat, plug.choose_listed(state, seat))
            made += 1
        else:
            await asyncio.sleep(0.01)
    raise AssertionError("the game stood still")


async def _player_page(browser, address, name: str):
    page = await browser.new_page()
    await page.phone()
    await page.goto(f"{address}/?lang=en")
    await page.eval(f"localStorage.setItem('tycoon-name', '{name}')")
    return page


def _human(service, table: int) -> int:
    return next(i for i, s in enumerate(service.cache.row(table).seats) if not s["ai"])


@pytest.mark.slow
async def test_axe_finds_nothing_serious_on_any_page_in_either_scheme_at_either_size(web, artifacts):
    service, address, browser = web
    found: list[str] = []
    page = await _player_page(browser, address, "Alice")
    await page.wait("document.getElementById('game').options.length > 0")
    await _axe(page, "front page", found)

    board = await page.open_table("Alice", "board", 3)  # four players: the near-black one among them
    await _axe(page, "board lobby", found)
    await page.eval("document.querySelector('[data-op=start]').click()")
    await page.wait("document.body.dataset.status === 'running'")
    await _play_as(service, board, _human(service, board), 25)
    await page.wait(f"Number(document.body.dataset.version) >= {service.cache.row(board).version}")
    await _axe(page, "board running", found)
    # the near-black player's token, fitted to the dark board (the test above measures it drawn)
    assert await page.eval("document.querySelector('.token[data-seat=\"3\"]') !== null")

    deal_page = await _player_page(browser, address, "Bea")
    deal = await deal_page.open_table("Bea", "deal", 2)  # three: the sky-blue and the yellow player among them
    await deal_page.eval("document.querySelector('[data-op=start]').click()")
    await deal_page.wait("document.body.dataset.status === 'running'")
    await _play_as(service, deal, _human(service, deal), 12)
    await deal_page.wait(f"Number(document.body.dataset.version) >= {service.cache.row(deal).version}")
    await _axe(deal_page, "deal running", found)
    await deal_page.eval("document.querySelector('#hand [data-card]').click()")  # a card's sheet, open
    await deal_page.wait("!document.getElementById('sheet').hidden")
    await _axe(deal_page, "deal, a card's sheet", found)
    await deal_page.eval("document.getElementById('sheet-close').click()")

    await _play_as(service, deal, _human(service, deal), 10**6)
    await deal_page.wait("document.body.dataset.status === 'over' && !document.getElementById('end').hidden")
    await _axe(deal_page, "deal end", found)
    # the chart the check above measured: a line a player, each told apart (its colour and its dash)
    lines = [line for line in await deal_page.eval(CHART_LINES) if line[0].startswith("polyline")]
    assert len(lines) == 3 and len({(colour, dash) for _, colour, _, dash in lines}) == 3, lines
    assert not found, "\n".join(found)
    assert not page.errors and not deal_page.errors, (page.errors, deal_page.errors)


# the strip of the last things that happened: its lines as shown (text, marked as the reader's),
# and the newest lines of the log (its first, newest first)
STRIP = """[[...document.querySelectorAll('#recent li')].map(li => [li.textContent, li.classList.contains('mine')]),
  [...document.querySelectorAll('#log li')].slice(0, 3).map(li => li.textContent)]"""
NOTIFICATIONS = """window.shown = []; window.asked = 0; window.hiddenNow = false;
window.Notification = class { constructor(title, options) { window.shown.push([title, options.body]); } };
Notification.permission = 'default';
Notification.requestPermission = async () => { window.asked++; Notification.permission = 'granted'; return 'granted'; };
Object.defineProperty(document, 'hidden', {configurable: true, get: () => window.hiddenNow});"""


@pytest.mark.slow
async def test_the_title_notifications_and_the_strip_say_what_waits_for_the_reader_and_what_happened(web):
    """Two people play a Deal game; after every move, on each one's page: the tab's title says
    "▶ Your turn" while the game waits for them on their turn, "▶ Your answer" while it waits for
    their answer on another's (a payment), and is the page's own title otherwise; the strip under
    the turn line holds the log's newest three lines, those that go against the reader (what they
    pay, a card taken from them) first and marked, and only on their page. Notifications: never
    asked for by the page itself; after "Notify me", one when the game comes to wait for the reader
    while the page is hidden (none before they asked)."""
    service, address, browser = web
    alice = await _player_page(browser, address, "Alice")
    table = await alice.open_table("Alice", "deal", 0)
    bob = await _player_page(browser, address, "Bob")
    await bob.goto(f"{address}/t/{table}?lang=en")
    await bob.wait("document.body.dataset.status === 'lobby' && !document.getElementById('join-row').hidden")
    await bob.eval("document.getElementById('join').click()")
    await alice.wait("document.querySelectorAll('#seats li').length === 2")
    assert await alice.eval("document.title") == "Tycoon"
    await alice.eval(NOTIFICATIONS)
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    row = service.cache.row(table)
    pages = {i: {"Alice": alice, "Bob": bob}[s["name"]] for i, s in enumerate(row.seats)}
    turn, answer = f"▶ {t('en', 'web.signal.your_turn')} · Tycoon", f"▶ {t('en', 'web.signal.asked')} · Tycoon"
    plug, seen, against, opted, notified = GAMES["deal"], set(), 0, False, []
    for _ in range(400):
        if service.cache.row(table).status != "running" or (len(seen) == 3 and against >= 2 and notified):
            break
        await service.idle()
        state, version = service.cache.state(table), service.cache.row(table).version
        waiting = {d.seat for d in plug.rules.waiting_for(state)}
        current = service.cache.rules(table).view(state, None)["current"]
        for seat, page in pages.items():
            await page.wait(f"Number(document.body.dataset.version) >= {version}")
            title = turn if seat in waiting and seat == current else answer if seat in waiting else "Tycoon"
            assert await page.eval("document.title") == title, (seat, waiting, current)
            seen.add(title)
            strip, newest = await page.eval(STRIP)
            assert sorted(text for text, _ in strip) == sorted(newest), (strip, newest)
            marked = [mine for _, mine in strip]
            assert marked == sorted(marked, reverse=True), strip  # the reader's lines first
            other = pages[1 - seat]
            for text, mine in strip:
                if mine:
                    against += 1
                    others = await other.eval(STRIP)
                    assert (text, True) not in [tuple(x) for x in others[0]], (text, others)
        if not opted and version > 6:  # a while into the game: never asked by the page itself
            assert await alice.eval("window.asked") == 0 and await alice.eval("window.shown") == []
            await alice.wait("!document.getElementById('notify').hidden")
            await alice.eval("document.getElementById('notify').click()")
            stop = t("en", "web.signal.notify_stop")
            await alice.wait(f"document.getElementById('notify').textContent === '{stop}'")
            assert await alice.eval("window.asked") == 1
            opted = True
        alice_seat = next(s for s, p in pages.items() if p is alice)
        if opted and alice_seat not in waiting:  # Alice looks away until the game waits for her
            await alice.eval("window.hiddenNow = true")
        seat = min(waiting)
        await service.act_as(table, seat, plug.choose_listed(state, seat))
        await service.idle()
        if opted and await alice.eval("window.hiddenNow"):
            now = {d.seat for d in plug.rules.waiting_for(service.cache.state(table))}
            if alice_seat in now:
                await alice.wait(f"Number(document.body.dataset.version) >= {service.cache.row(table).version}")
                notified = await alice.eval("window.shown")
                assert len(notified) == 1 and notified[0][0] in (turn[2:], answer[2:]), notified
                await alice.eval("window.hiddenNow = false; window.shown = []")
    assert seen == {turn, answer, "Tycoon"}, seen
    assert against >= 2 and notified, (against, notified)
    assert await alice.eval("window.asked") == 1  # asked once, when she tapped
    assert not alice.errors and not bob.errors, (alice.errors, bob.errors)
