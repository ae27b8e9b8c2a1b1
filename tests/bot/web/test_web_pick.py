"""Issue 47: on a phone the Deal's moves that name things on the table are chosen by tapping those
things. After the Sly Deal (or Forced Deal) card is chosen in the hand, "Choose on the table" lights
up exactly the cards the rules let the player take; a tap on one of them plays the Sly Deal; a
Forced Deal asks for the other player's card first, then for one's own card to give, and the last
tap plays it. The move made is the one the server listed for what was tapped; the list stays as a
fallback ("or choose from the list") holding exactly the same moves. While the player pays, their
own area comes first, the cards that can pay outlined. Every tap is a touch at the middle of the
thing, at 390 × 844, after it is scrolled into view: it must reach the thing, not the dock.

Skipped, with the reason, when Debian's chromium is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine.games import GAMES
from engine.service.storage import queries
from tests.bot.web.conftest import CHROMIUM
from tests.bot.web.test_web_phone import _phone_page, _settle
from words.i18n import t

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                                         "(apt-get install chromium; .ci/run does it)")

# the middle of the first element ``selector`` names, once scrolled to the middle of the screen, and
# whether a touch there reaches it (nothing drawn over it: the dock, the sheet's backdrop)
AIM = """(sel => { const e = document.querySelector(sel); if (!e) return null;
  e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
  return {x, y, reached: !!hit && (hit === e || e.contains(hit))}; })"""
PICKED = "[...document.querySelectorAll('#deal [data-pick]')].map(e => e.dataset.pick)"


async def _tap(page, selector: str) -> None:
    """A finger's tap on ``selector`` (a touch at its middle, as a phone sends it)."""
    await page.wait(f"document.querySelector({json.dumps(selector)})")
    aim = await page.eval(f"{AIM}({json.dumps(selector)})")
    assert aim and aim["reached"], (selector, aim)
    await page.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": aim["x"], "y": aim["y"]}]})
    await page.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def action_card(legal, kind: str) -> int | None:
    return next((a.card for a in legal if type(a).__name__ == kind), None)


async def _made(service, table, seat):
    log = await queries.load_log(service.db, table)
    return [service.cache.rules(table).decode_action(e.action) for e in log if e.seat == seat][-1]


async def _pick(page, service, table, seat, kind: str, intended, pace, artifacts) -> int:
    """Play ``intended`` (a Sly Deal or a Forced Deal) by taps: the card in the hand, "Choose on the
    table", then the card to take (and the card to give); what lights up at each step is exactly
    what the legal moves left name. How many taps on the table it took."""
    version = service.cache.row(table).version
    await page.wait(f"Number(document.body.dataset.version) >= {version}")
    legal = [(a, tok) for a, tok in service.buttons(table, seat)
             if type(a).__name__ == kind and a.card == intended.card]
    pace.pause(1)
    await _tap(page, f'#hand [data-card="{intended.card}"]')
    await page.wait("!document.getElementById('sheet').hidden && document.querySelector('#sheet-moves .pick-start')")
    # the fallback: the list in the sheet holds exactly these moves
    listed = await page.eval("[...document.querySelectorAll('#sheet-moves .pick-list button')]"
                             ".map(b => b.dataset.token)")
    assert sorted(listed) == sorted(tok for _, tok in legal)
    assert await page.eval("document.querySelectorAll('#sheet-moves .pick-start').length") == 1
    await _tap(page, "#sheet-moves .pick-start")
    await page.wait("document.getElementById('sheet').hidden && !document.getElementById('pick').hidden")
    assert sorted(await page.eval(PICKED)) == sorted({f"c{a.take}" for a, _ in legal})
    assert await page.eval("document.querySelector('#pick .pick-what').textContent") == t(
        "en", "web.pick.take", count=len({a.take for a, _ in legal}))
    # what lights up is what a tap reaches: every outlined card is outlined and tappable
    assert await page.eval("[...document.querySelectorAll('#deal [data-pick]')]"
                           ".every(e => e.classList.contains('can'))")
    await page.eval(f"document.querySelector('#deal .area [data-card=\"{intended.take}\"]')"
                    ".scrollIntoView({block: 'center'})")
    await page.screenshot(artifacts / f"web-deal-{kind}-choosing-phone.png", 390, 844, mobile=True)
    await page.phone()
    await _tap(page, f'#deal .area [data-card="{intended.take}"]')
    taps = 1
    if kind == "PlayForcedDeal":
        gives = {f"c{a.give}" for a, _ in legal if a.take == intended.take}
        if len(gives) > 1:
            await page.wait("document.body.dataset.picking === 'give'")
            assert sorted(await page.eval(PICKED)) == sorted(gives)
            assert await page.eval("document.querySelector('#pick .pick-what').textContent") == t("en", "web.pick.give")
            taken = await page.eval(f"document.querySelector('#deal .area [data-card=\"{intended.take}\"]')"
                                    ".classList.contains('chosen')")
            assert taken, "the card to take stays marked while the card to give is chosen"
            pace.pause(1)
            await _tap(page, f'#deal .area [data-card="{intended.give}"]')
            taps += 1
    await _settle(service, table, version)
    assert await _made(service, table, seat) == intended
    await page.wait("document.getElementById('pick') === null || document.getElementById('pick').hidden")
    return taps


@pytest.mark.slow
async def test_a_sly_deal_and_a_forced_deal_are_played_by_tapping_the_table_on_a_phone(web, artifacts, pace):
    service, address, browser = web
    alice = await _phone_page(browser, address, "Alice")
    table = await alice.open_table("Alice", "deal", 2)
    await alice.eval("document.querySelector('[data-op=start]').click()")
    await alice.wait("document.body.dataset.status === 'running'")
    seat = next(i for i, s in enumerate(service.cache.row(table).seats) if not s["ai"])
    plug, done, paid, moves, taps = GAMES["deal"], set(), 0, 0, {}
    while service.cache.row(table).status == "running" and done != {"PlaySlyDeal", "PlayForcedDeal"} and moves < 900:
        await service.idle()
        state = service.cache.state(table)
        if seat not in [d.seat for d in plug.rules.waiting_for(state)]:
            await asyncio.sleep(0.01)
            continue
        legal = plug.rules.legal_actions(state, seat)
        action = plug.choose_listed(state, seat)
        pickable = None
        for kind in ("PlaySlyDeal", "PlayForcedDeal"):
            of_card = [a for a in legal if type(a).__name__ == kind and a.card == action_card(legal, kind)]
            # a card with choices to make (for a Forced Deal, of the card to take and of the card to give):
            # the AI's own pick when it plays one, else the last listed
            if kind not in done and len({a.take for a in of_card}) > 1 and (
                    kind == "PlaySlyDeal" or len({a.give for a in of_card}) > 1):
                pickable = action if type(action).__name__ == kind else of_card[-1]
                break
        if pickable is not None:
            taps[type(pickable).__name__] = await _pick(alice, service, table, seat, type(pickable).__name__,
                                                        pickable, pace, artifacts)
            done.add(type(pickable).__name__)
            continue
        toggles = {a.card for a in legal if type(a).__name__ == "TogglePayment"}
        if toggles and paid < 3:  # paying: one's own area first, the cards that can pay outlined
            version = service.cache.row(table).version
            await alice.wait(f"Number(document.body.dataset.version) >= {version}")
            first = await alice.eval("(a => [a.dataset.seat, a.classList.contains('paying'),"
                                     " !!a.querySelector('.pay-hint'),"
                                     " [...a.querySelectorAll('.can[data-card]')].map(e => Number(e.dataset.card))])"
                                     "(document.querySelector('#deal > *'))")
            assert first[:3] == [str(seat), True, True], first
            assert set(first[3]) == toggles, (first, toggles)
            paid += 1
        version = service.cache.row(table).version
        assert (await service.act_as(table, seat, action)).ok
        await _settle(service, table, version)
        moves += 1
    assert done == {"PlaySlyDeal", "PlayForcedDeal"}, (done, moves, service.cache.row(table).status)
    assert taps == {"PlaySlyDeal": 1, "PlayForcedDeal": 2}, taps  # the Forced Deal: take, then give
    assert paid, "Alice paid at least once"
    assert not alice.errors, alice.errors
