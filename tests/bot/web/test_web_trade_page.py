"""Issue 47, the board's trade builder on a phone: cash typed into "They pay" goes with the offer when
"Send offer" is pressed without "Set cash" first; the net-value estimate is explained in one line
under the summary; once an offer was made between two rolls, "Propose a trade" is gone and the page
says why (the rules' own reason, one offer between two rolls).

Skipped, with the reason, when Debian's chromium is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine.board.data import board
from engine.games import GAMES
from engine.service.storage import queries
from tests.bot.web.conftest import CHROMIUM
from tests.bot.web.test_web_phone import _phone_page, _settle
from words.i18n import t

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                         "(apt-get install chromium; .ci/run does it)")


async def test_cash_typed_in_the_builder_goes_with_the_offer_and_the_page_says_why_no_second_offer(web, pace):
    service, address, browser = web
    alice = await _phone_page(browser, address, "Alice")
    table = await alice.open_table("Alice", "board", 1)
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    seat = next(i for i, s in enumerate(service.cache.row(table).seats) if not s["ai"])
    plug, moves, offered = GAMES["board"], 0, None
    while offered is None and moves < 300:
        await service.idle()
        state = service.cache.state(table)
        if seat not in [d.seat for d in plug.rules.waiting_for(state)]:
            await asyncio.sleep(0.01)
            continue
        b = board(state.options.ruleset)
        mine = [sq for sq, owner in enumerate(state.owner) if owner == seat and not state.mortgaged[sq]
                and not any(state.houses[o] for o in b.groups[b.group[sq]])]
        if state.stage == "roll" and mine and not state.trades and state.players[1 - seat].cash > 1000:
            version = service.cache.row(table).version
            await alice.wait(f"Number(document.body.dataset.version) >= {version} && "
                             "document.querySelector('#extras button[data-extra=trade]')")
            pace.pause(3)
            await alice.eval("document.querySelector('#extras button[data-extra=trade]').click()")
            await alice.wait("!document.getElementById('trade').hidden && document.body.dataset.trade === 'open'")
            sq = mine[0]
            await alice.eval(f"document.querySelector('#trade-mine input[data-square=\"{sq}\"]').click()")
            await alice.wait(f"document.querySelector('#trade-mine input[data-square=\"{sq}\"]').checked && "
                             "!document.getElementById('trade-note').hidden")
            # the estimate, explained in one line under the summary
            note = await alice.eval("document.getElementById('trade-note').textContent")
            assert note == t("en", "web.trade.net_help")
            asked = b.price[sq] // 10
            # typed, and "Send offer" pressed at once: no "Set cash"
            await alice.eval(f"document.getElementById('trade-them').value = '{asked}';"
                             "document.querySelector('#trade-finish button[data-op=s]').click()")
            await _settle(service, table, version)
            log = await queries.load_log(service.db, table)
            made = [service.cache.rules(table).decode_action(e.action) for e in log if e.seat == seat]
            offered = next(a for a in reversed(made) if type(a).__name__ == "ProposeTrade")
            assert (offered.give, offered.get_cash, offered.give_cash) == ((sq,), asked, 0), offered
            break
        action = plug.choose_listed(state, seat)
        if type(action).__name__ == "ProposeTrade":
            action = next(a for a in plug.rules.legal_actions(state, seat) if type(a).__name__ == "Roll")
        version = service.cache.row(table).version
        assert (await service.act_as(table, seat, action)).ok
        await _settle(service, table, version)
        moves += 1
    assert offered is not None, "Alice never could offer a trade"
    # one offer between two rolls: "Propose a trade" is gone, and the page says why, while Alice may roll
    for _ in range(500):
        await service.idle()
        if not service.cache.state(table).trades:  # the AI answered
            break
        await asyncio.sleep(0.01)
    assert service.cache.state(table).stage == "roll" and seat in [d.seat for d in plug.rules.waiting_for(
        service.cache.state(table))]
    why = t("en", "board.err.one_offer_per_window")
    await alice.wait(f"(document.querySelector('#extras .trade-why') || {{}}).textContent?.includes({json.dumps(why)})")
    assert not await alice.eval("document.querySelector('#extras button[data-extra=trade]')")
    assert not alice.errors, alice.errors
