"""What a slow game's own clocks say in a chat (issue 48; the clocks: engine/service/slow.py), for
every platform through the table channel's messenger:

- **The reminder** (``slow.reminder``), at half a clock's time, to the player who owes the move,
  privately: their own message posted anew (which notifies them, with every button of their
  moves), headed by a line that names the table, what is asked and when the clock runs out.
  A player the bot cannot write to privately (never opened a private chat with it, closed DMs) is
  mentioned in the group instead, with the button that opens their own screen there.
- **The daily summary** (``slow.summary``), in the group, instead of a message per move: what
  happened since the last summary (its newest ``SHOWN`` log lines, and how many moves), the
  standings by worth, and who the table waits for, mentioned (the day's one ping), with the button
  to one's own screen.

Each notice comes once across processes (the service decided it); it is shown in the chat's language.
"""

from __future__ import annotations

import asyncio
import logging

from bot.chat.channel import TableChannel, sentence
from bot.chat.messenger import Text
from bot.chat.screens import Button, event_lines, private_screen
from engine.service.outcome import Outcome
from words.games import WORDS
from words.i18n import game_name, t

log = logging.getLogger(__name__)
NOTICES = ("slow.reminder", "slow.summary")
SHOWN = 6  # a summary's log lines: the newest of the day


async def tell(tables: TableChannel, outcome: Outcome, lang: str) -> None:
    """A slow game's notice, shown where it belongs."""
    if outcome.key == "slow.reminder":
        await remind(tables, outcome.params, lang)
    elif outcome.key == "slow.summary":
        await summarize(tables, outcome.params, lang)


def _when(tables: TableChannel, due: float | None, lang: str) -> str:
    return tables.messenger.when(due, tables.service.clock(), lang) if due else "–"


async def remind(tables: TableChannel, params: dict, lang: str) -> None:
    """The player owing a move hears it privately (else by a mention in the group)."""
    table, seat = params["table"], params["seat"]
    seen = await tables.service.seat_view(table, params["user"])
    if seen is None:
        return
    public, own = seen
    asks = [a for a in own.asks if not a.ai]
    if public.status != "running" or own.ai_keeps or not asks:  # moved on since: nothing to remind of
        return
    ask = next((a for a in asks if a.kind == params.get("kind")), asks[0])
    words = WORDS[public.game]
    when = _when(tables, params.get("due_at") or ask.due_at, lang)
    asked = words.prompt(own.board, ask.decision, lang, public.names, public.ruleset).rstrip(" :：")
    line = t(lang, "slow.reminder", game=game_name(public.game, lang), table=table, asked=asked, when=when)
    info = public.seats[seat]
    if info.dm is not False:
        screen = await asyncio.to_thread(private_screen, own, public.names, lang)
        screen.text = f"{line}\n\n{screen.text}"
        if await tables.private(table, seat, info, screen, lang, anew=True):
            return
    place = tables.messenger.table_place(public)
    text = Text("", sentence(lang, "slow.reminder_group", [info], game=game_name(public.game, lang), table=table,
                             when=when))
    await tables.post(place, text, [tables.messenger.reach(table, seat, info, lang)])


def standings(view, lang: str) -> list[str]:
    """The players by worth, richest first."""
    money = WORDS[view.game].money
    ranked = sorted(view.worth.items(), key=lambda item: (-item[1], item[0]))
    return [t(lang, "slow.summary.place", n=n, name=view.names.get(seat, "?"), worth=money(worth, lang, view.ruleset))
            for n, (seat, worth) in enumerate(ranked, 1)]


async def summarize(tables: TableChannel, params: dict, lang: str) -> None:
    """The day's one message in the group: the moves since the last, the standings, who is asked."""
    service, table = tables.service, params["table"]
    view = await service.public_view(table)
    if view is None or view.status not in ("running", "paused"):
        return
    since, upto = int(params["since"]), int(params["upto"])
    events = await service.slow.events(table, since, upto)
    lines = await asyncio.to_thread(event_lines, view, events, lang, view.names)
    body = [t(lang, "slow.summary.head", game=game_name(view.game, lang), table=table)]
    if upto > since:
        body.append(t(lang, "slow.summary.moves", n=upto - since))
        if len(lines) > SHOWN:
            body.append(t(lang, "slow.summary.earlier", n=len(lines) - SHOWN))
        body += lines[-SHOWN:]
    else:
        body.append(t(lang, "slow.summary.quiet"))
    body += [t(lang, "slow.summary.standings"), *standings(view, lang)]
    asked = [a for a in view.asks if not a.ai]
    people = [view.seats[s] for s in dict.fromkeys(a.seat for a in asked)]
    if people:  # the day's one ping: whom the table waits for
        due = min((a.due_at for a in asked if a.due_at), default=None)
        after = sentence(lang, "slow.summary.waiting", people, when=_when(tables, due, lang))
    else:
        after = (t(lang, "slow.summary.paused" if view.status == "paused" else "slow.summary.ai"),)
    buttons = [Button(t(lang, WORDS[view.game].own_screen), f"h:{table}", -1)] if view.status == "running" else []
    await tables.post(tables.messenger.table_place(view), Text("\n".join(body), after), buttons)
