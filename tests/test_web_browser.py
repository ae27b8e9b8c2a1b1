"""The web table in a real headless Chromium (tests/browser.py): two people in two browser
contexts play a whole Deal game against each other and an AI seat while a spectator follows, a
forged Telegram ``initData`` is refused and a real one shows its player's seat, and screenshots at
phone and desktop width are saved under tests/artifacts/.

Skipped, with the reason, when Debian's chromium is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from bot.screens import event_lines
from bot.web.auth import sign_init_data
from bot.web.context import watch_path
from bot.web.live import Hub
from bot.web.server import make_app, start_site
from engine.board.data import board
from engine.games import PLUGS
from engine.service.tables import GameService
from tests.browser import Browser, find_chromium
from words import deal_text
from words.i18n import t

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                         "(apt-get install chromium; .ci/run does it)")
ARTIFACTS = Path(__file__).parent / "artifacts"
BOT_TOKEN = "123456:web-test-token"


@pytest.fixture
async def web(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    app = make_app(service, Hub(service, seed=11), lang="en", bot_token=BOT_TOKEN)
    runner, address = await start_site(app, "127.0.0.1", 0)
    browser = await Browser.launch(CHROMIUM, tmp_path / "profile")
    try:
        yield service, address, browser
    finally:
        await browser.close()
        await runner.cleanup()
        await service.idle()
        await service.close()


async def _seat_page(browser, address, name, lang="en"):
    page = await browser.new_page()
    await page.goto(f"{address}/?lang={lang}")
    await page.eval(f"localStorage.setItem('tycoon-name', {json.dumps(name)})")
    return page


async def _open_board_lobby(browser, address, ai: int):
    """Alice opens a board table on the front page with ``ai`` AI seats: her page, at the lobby,
    and the table's id."""
    alice = await _seat_page(browser, address, "Alice")
    await alice.eval("document.getElementById('name').value = 'Alice';"
                     "document.getElementById('game').value = 'board';"
                     "document.getElementById('game').dispatchEvent(new Event('change'));"
                     f"document.getElementById('ai').value = '{ai}';"
                     "document.getElementById('open').click()")
    await alice.wait("location.pathname.startsWith('/t/') && document.body.dataset.status === 'lobby'")
    return alice, int(await alice.eval("location.pathname.split('/')[2]"))


def _hidden_hand_names(service, table, public_seen: str, lang: str) -> set[str]:
    """Names of cards in some hand that nothing public has named (the table, the log)."""
    state, rules = service.state(table), service.rules(table)
    out = set()
    for seat in range(len(service.table(table).seats)):
        for card in rules.view(state, seat)["players"][seat].get("hand", []):
            name = deal_text.card_name(card, lang)
            if name not in public_seen:
                out.add(name)
    return out


@pytest.mark.slow
async def test_two_browsers_play_a_whole_deal_game_with_an_ai_seat_while_a_spectator_follows(web):
    service, address, browser = web
    public_log: list[str] = []

    async def heard(update):  # what the group may know: every public log line of the game
        if update.public is not None and update.public.status != "lobby":
            public_log.extend(event_lines(update.public, update.public.events, "zh-Hans", update.public.names))

    service.subscribe(heard)
    alice = await _seat_page(browser, address, "Alice", "zh-Hans")  # each page in its own language
    await alice.eval("document.getElementById('name').value = 'Alice';"
                     "document.getElementById('game').value = 'deal';"
                     "document.getElementById('game').dispatchEvent(new Event('change'));"
                     "document.getElementById('ai').value = '1';"
                     "document.getElementById('open').click()")
    await alice.wait("location.pathname.startsWith('/t/') && document.body.dataset.status === 'lobby'")
    table = int(await alice.eval("location.pathname.split('/')[2]"))

    bob = await _seat_page(browser, address, "Bob")
    await bob.wait(f"document.querySelector('a[href=\"/t/{table}\"]')")  # the lobby lists the table
    await bob.eval(f"document.querySelector('a[href=\"/t/{table}\"]').click()")
    await bob.wait("document.body.dataset.status === 'lobby' && !document.getElementById('join-row').hidden")
    await bob.eval("document.getElementById('join').click()")
    await alice.wait("document.querySelectorAll('#seats li').length === 3")
    assert await alice.eval("[...document.querySelectorAll('#seats li')].map(li => li.textContent)") == [
        f"Alice ({t('zh-Hans', 'web.you')})", "AI 1 (AI)", "Bob"]

    spectator = await browser.new_page()  # in another language: the table is drawn for each
    await spectator.goto(address + watch_path(service, table) + "&lang=zh-Hans")
    await spectator.wait("document.body.dataset.status === 'lobby'")
    await alice.eval("document.querySelector('[data-op=start]').click()")
    for page in (alice, bob, spectator):
        await page.wait("document.body.dataset.status === 'running'")

    row = service.table(table)
    people = {row.seats[i]["user"]: i for i in range(3) if not row.seats[i]["ai"]}
    pages = {people[u]: page for u, page in zip(sorted(people, key=people.get), (alice, bob), strict=True)}
    assert sorted(pages) == [0, 2]
    plug, presses, checked = PLUGS["deal"], 0, 0
    shots = {}
    while service.table(table).status == "running":
        await service.idle()
        state = service.state(table)
        owing = [d.seat for d in plug.rules.waiting_for(state) if d.seat in pages]
        if not owing:
            await service.idle()
            continue
        seat = owing[0]
        action = plug.choose_listed(state, seat)  # the AI picks the person's move; the person clicks it
        token = next(tok for a, tok in service.buttons(table, seat) if a == action)
        page = pages[seat]
        selector = f"#buttons button[data-token=\"{token}\"]"
        await page.wait(f"document.querySelector('{selector}') && !document.querySelector('{selector}').disabled")
        if presses >= 8 and not shots and page is alice and len(service.buttons(table, seat)) >= 4:
            shots["phone"] = await alice.screenshot(ARTIFACTS / "web-table-phone.png", 390, 844, mobile=True)
            shots["desktop"] = await alice.screenshot(ARTIFACTS / "web-table-desktop.png", 1280, 900)
            await spectator.screenshot(ARTIFACTS / "web-spectator-desktop.png", 1280, 900)
            await alice.resize(1280, 900)
        version = service.table(table).version
        await page.eval(f"document.querySelector('{selector}').click()")
        spins = 0
        while service.table(table).version == version and service.table(table).status == "running":
            await service.idle()
            await asyncio.sleep(0.01)
            spins += 1
            if spins % 100 == 0:  # refused as too many presses at once (the page says so): as a
                # person would, press again a moment later (the button is still the current one)
                await page.eval(f"document.querySelector('{selector}') && document.querySelector('{selector}').click()")
        presses += 1
        if presses % 10 == 1:  # the spectator follows, and never sees a card of a hand
            await spectator.wait(f"Number(document.body.dataset.version) >= {service.table(table).version}")
            seen = await spectator.text()
            assert await spectator.eval("document.getElementById('private') === null")
            public_seen = "\n".join(public_log) + deal_text.render_table(
                service.rules(table).view(service.state(table), None), "zh-Hans",
                {i: s["name"] for i, s in enumerate(service.table(table).seats)})
            hidden = _hidden_hand_names(service, table, public_seen, "zh-Hans")
            assert hidden, "some card in a hand is unknown to the group"
            assert not [name for name in hidden if name in seen]
            checked += 1
    assert service.table(table).status == "over"
    for page in (alice, bob, spectator):
        await page.wait("document.body.dataset.status === 'over'")
    assert presses > 20 and checked >= 2
    assert shots["phone"][:8] == b"\x89PNG\r\n\x1a\n" and (ARTIFACTS / "web-table-desktop.png").stat().st_size > 10_000
    winners = service.rules(table).result(service.state(table)).winners
    assert winners  # somebody won the whole game, by the rules


async def test_forged_init_data_is_refused_and_a_real_one_shows_the_players_seat(web):
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
    assert await page.eval("document.getElementById('private').hidden")

    real = sign_init_data(fields, BOT_TOKEN)
    page = await browser.new_page(390, 844)
    await page.goto(f"{address}/tg/{created.table}#tgWebAppData={quote(real)}")
    await page.wait("document.body.dataset.status === 'running' && !document.getElementById('private').hidden")
    hand = service.rules(created.table).view(service.state(created.table), 0)["players"][0]["hand"]
    text = await page.eval("document.getElementById('private-text').textContent")
    assert all(deal_text.card_name(c, "en") in text for c in hand)


async def test_tournament_page_shows_live_standings_and_the_rounds_tables(tmp_path):
    """A screen at the venue: the standings and the round's tables, each with its spectator link;
    the page needs the signed link the chat's /standings gives."""
    from bot.web.auth import tournament_path
    from engine.service.tournaments import Tournaments
    from tests.test_service import FakeClock

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
        await page.screenshot(ARTIFACTS / "web-tournament-desktop.png", 1280, 800)
    finally:
        await browser.close()
        await runner.cleanup()
        await service.idle()
        await service.close()


async def test_a_board_game_in_the_browser_through_a_trade_built_on_the_page(web):
    """B-15 on the web: a player plays the board game against an AI seat by clicking, builds an
    offer in the page's trade builder (a deed ticked, cash typed), sends it, and the AI accepts;
    the log shows the one line of the trade made; the game goes on by clicks."""
    service, address, browser = web
    alice, table = await _open_board_lobby(browser, address, ai=1)
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    seat = next(i for i, s in enumerate(service.table(table).seats) if not s["ai"])
    plug, presses, traded, after, spins = PLUGS["board"], 0, None, 0, 0

    async def click(selector: str) -> None:
        await alice.wait(f"document.querySelector('{selector}') && !document.querySelector('{selector}').disabled")
        await alice.eval(f"document.querySelector('{selector}').click()")

    while service.table(table).status == "running" and after < 12 and presses < 400:
        await service.idle()
        state = service.state(table)
        mine = [sq for sq, owner in enumerate(state.owner) if owner == seat and not state.mortgaged[sq]
                and not any(state.houses[o] for o in board(state.options.ruleset).groups[
                    board(state.options.ruleset).group[sq]])]
        ai_cash = state.players[1 - seat].cash
        if traded is None and state.stage == "roll" and mine and not state.trades and ai_cash > 1000:
            await click(f"#buttons button[data-token=\"t:{table}:n\"]")  # "Propose a trade"
            await alice.wait("!document.getElementById('trade').hidden && document.body.dataset.trade === 'open'")
            sq = mine[0]
            await alice.eval(f"document.querySelector('#trade-mine input[data-square=\"{sq}\"]').click()")
            given = t("en", "trade.you_give", terms=t("en", "board.ui.nothing"))
            await alice.wait(f"!document.getElementById('trade-text').textContent.includes({json.dumps(given)})")
            asked = board(state.options.ruleset).price[sq] // 10  # a tenth of its price: the AI takes that
            await alice.eval(f"document.getElementById('trade-them').value = '{asked}';"
                             "document.getElementById('trade-cash').click()")
            await alice.wait(f"document.getElementById('trade-text').textContent.includes('{asked:,}')")
            await alice.screenshot(ARTIFACTS / "web-trade-builder-phone.png", 390, 844, mobile=True)
            await alice.resize(1280, 900)
            await click("#trade-finish button[data-op=s]")
            await alice.wait("document.body.dataset.trade === 'closed'")
            for _ in range(200):
                await service.idle()
                if not service.state(table).trades:
                    break
                await asyncio.sleep(0.02)
            traded = sq
            assert service.state(table).owner[sq] == 1 - seat, "the AI took the offer"
            await alice.wait("[...document.querySelectorAll('#log li')].some(li => li.textContent.includes("
                             "'made a trade'))")
            continue
        owing = [d.seat for d in plug.rules.waiting_for(state) if d.seat == seat]
        if not owing:
            spins += 1
            assert spins < 1000, (plug.rules.waiting_for(state), state.stage, service.table(table).seats)
            await asyncio.sleep(0.01)
            continue
        spins = 0
        action = plug.choose_listed(state, seat)
        if type(action).__name__ == "ProposeTrade":  # the ready-made offers are not what this test is about
            action = next(a for a in plug.rules.legal_actions(state, seat) if type(a).__name__ == "Roll")
        token = next(tok for a, tok in service.buttons(table, seat) if a == action)
        version = service.table(table).version
        await click(f"#buttons button[data-token=\"{token}\"]")
        for _ in range(500):  # the move, or a refusal: an AI offer may have moved the table first
            if service.table(table).version != version or service.table(table).status != "running":
                break
            await service.idle()
            await asyncio.sleep(0.01)
        presses += 1
        after += traded is not None
    assert traded is not None, "the player made a trade on the page"
    log = await alice.eval("[...document.querySelectorAll('#log li')].map(li => li.textContent).join('\\n')")
    assert "Offer #" not in log and "offers" not in log  # the log is the group's: no haggling
    await alice.screenshot(ARTIFACTS / "web-board-desktop.png", 1280, 900)


async def test_B10_the_creator_switches_a_rule_option_in_the_web_lobby_and_the_game_plays_it(web):
    """Issue 16 item 5 on the web: the lobby shows the board's rule options as toggles to its
    creator only; a click switches one (the Free Parking pot, B-10) for everyone's "on" line; a
    second page sees what is on but has no toggles; the game starts with the option."""
    service, address, browser = web
    alice, table = await _open_board_lobby(browser, address, ai=0)
    pot = t("en", "opt.free_parking_pot")
    toggle_shows = "[...document.querySelectorAll('#option-buttons button')].some(b => b.textContent === '{}')"
    await alice.wait(toggle_shows.format(f"⬜ {pot}"))
    bob = await _seat_page(browser, address, "Bob")
    await bob.goto(f"{address}/t/{table}?lang=en")
    await bob.wait("document.body.dataset.status === 'lobby'")
    await bob.eval("document.getElementById('name').value = 'Bob'; document.getElementById('join').click()")
    await alice.wait("document.body.textContent.includes('Bob')")
    assert await bob.eval("document.querySelectorAll('#option-buttons button').length") == 0  # not the creator
    await alice.eval("document.querySelector('#option-buttons button[data-option=\"o:pot\"]').click()")
    await alice.wait(toggle_shows.format(f"✅ {pot}"))
    await bob.wait(f"document.getElementById('options-on').textContent.includes('{pot}')")
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    state = service.state(table)
    assert state.options.free_parking_pot and not state.options.uneven_building
    pot_line = t("en", "board.ui.parking_pot", amount="").split(":")[0]  # the table shows the pot
    await alice.wait(f"document.getElementById('public-text').textContent.includes('{pot_line}')")
