"""Issue 47, the board's trade builder on a phone: cash typed into "They pay" goes with the offer when
"Send offer" is pressed without "Set cash" first; the net-value estimate is explained in one line
under the summary; once an offer was made between two rolls, "Propose a trade" is gone and the page
says why (the rules' own reason, one offer between two rolls); the rules' ready-made offers are
the builder's suggestions, not moves.

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
from words.board_text import trade_terms
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


# every button of the moves panel, the sheet and the controls beside the moves: its token (a move's)
# or its control, and its words
SHOWN_MOVES = """[...document.querySelectorAll('#turn button, #mine button, #sheet-moves button')]
  .map(b => [b.dataset.token || b.dataset.extra || '', b.textContent])"""
SUGGESTIONS = """[...document.querySelectorAll('#trade-suggestions li')]
  .map(li => [li.querySelector('span').textContent, li.querySelector('button').dataset.token,
              li.getClientRects().length > 0])"""


async def test_the_rules_ready_made_offers_are_the_builders_suggestions_not_moves(web, pace):
    """Issue 47 on a 390 × 844 phone: at a decision where the rules list ready-made trade offers,
    none is among the moves (the dock, the player's section, a square's sheet); "Propose a trade"
    counts them, and the builder it opens lists each as a suggestion in one line saying who gives
    what; pressing one sends that very move (the table's action log has it)."""
    service, address, browser = web
    alice = await _phone_page(browser, address, "Alice")
    table = await alice.open_table("Alice", "board", 1)
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    seat = next(i for i, s in enumerate(service.cache.row(table).seats) if not s["ai"])
    plug, decisions, sent = GAMES["board"], 0, None
    while sent is None and decisions < 2000 and service.cache.row(table).status == "running":
        await service.idle()
        state = service.cache.state(table)
        if seat not in [d.seat for d in plug.rules.waiting_for(state)]:
            await asyncio.sleep(0.01)
            continue
        buttons = service.buttons(table, seat)
        offers = [(a, tok) for a, tok in buttons if type(a).__name__ == "ProposeTrade"]
        version = service.cache.row(table).version
        if not offers:
            action = plug.choose_listed(state, seat)
            if type(action).__name__ == "ProposeTrade":  # not listed here: composed by the AI's own judgment
                action = next(a for a, _ in buttons if type(a).__name__ == "Roll")
            assert (await service.act_as(table, seat, action)).ok
            await _settle(service, table, version)
            decisions += 1
            continue
        await alice.wait(f"Number(document.body.dataset.version) >= {version} && "
                         "document.querySelector('#extras button[data-extra=trade]')")
        tokens = [tok for _, tok in offers]
        # none among the moves: the dock's, the section's, nor any square's sheet (each square tapped)
        shown = await alice.eval(SHOWN_MOVES)
        for square in range(40):
            await alice.eval(f"document.querySelector('.sq[data-square=\"{square}\"]').click()")
            shown += await alice.eval(SHOWN_MOVES)
        await alice.eval("document.getElementById('sheet-close').click()")
        assert not {tok for tok, _ in shown} & set(tokens), shown
        others = {tok for a, tok in buttons if type(a).__name__ != "ProposeTrade"}
        assert others <= {tok for tok, _ in shown}, (others, shown)  # every other move still offered
        assert await alice.eval("document.getElementById('trade').hidden")  # the builder closed: one entry
        propose = await alice.eval("document.querySelector('#extras button[data-extra=trade]').textContent")
        assert propose.endswith(t("en", "web.trade.propose_count", label="", count=len(offers)).strip()), propose
        pace.pause(3)
        await alice.eval("document.querySelector('#extras button[data-extra=trade]').click()")
        await alice.wait("!document.getElementById('trade').hidden && document.body.dataset.trade === 'open' && "
                         "!document.getElementById('trade-suggest').hidden")
        listed = await alice.eval(SUGGESTIONS)
        assert [tok for _, tok, _ in listed] == tokens, (listed, tokens)
        assert all(seen for _, _, seen in listed), listed
        ruleset, names = state.options.ruleset, dict(enumerate(s["name"] for s in service.cache.row(table).seats))
        for (text, _, _), (offer, _) in zip(listed, offers, strict=True):
            give = trade_terms(offer.give, offer.give_cash, offer.give_cards, "en", ruleset)
            get = trade_terms(offer.get, offer.get_cash, offer.get_cards, "en", ruleset)
            assert text == f"You give {give}; you get {get} from {names[offer.target]}", text
        chosen, token = offers[-1]
        pace.pause(3)
        await alice.eval(f"document.querySelector('#trade-suggestions button[data-token={json.dumps(token)}]')"
                         ".click()")
        await _settle(service, table, version)
        log = await queries.load_log(service.db, table)
        made = [service.cache.rules(table).decode_action(e.action) for e in log if e.seat == seat]
        sent = made[-1]
        assert sent == chosen, (sent, chosen)
        assert await alice.eval("document.getElementById('trade').hidden")  # the builder went with it
    assert sent is not None, f"the rules never listed a ready-made offer in {decisions} decisions"
    assert not alice.errors, alice.errors
