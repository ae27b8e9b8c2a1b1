"""A rematch of a finished web table: a new lobby of the same game, rule set, options and AI seats,
in the same web "chat" (the table's ``web:…`` chat key), so that the service's rule of one open
table a chat makes the first press open it and every later press find it. The chat bots' Rematch
(``bot.chat.flows.Flows.rematch``) makes the same service calls (``Lobby.set_up_like`` for the AI
seats); the web differs only in who is invited: the last game's players, seated with one tap each
(a press joins the lobby already open).

Also what a page shows around it: the rematch a finished table led to, and, in that lobby, the
last game's players not seated yet.
"""

from __future__ import annotations

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.chat import option_screens
from engine.service.outcome import Outcome, is_ai_user
from engine.service.storage.rows import TableRow
from engine.service.tables import GameService
from engine.service.views import PublicView


async def rematch(service: GameService, ended: PublicView, user: str, name: str, seed: int | None = None) -> Outcome:
    """The rematch lobby of ``ended`` for ``user`` (seated in it): opened now, or joined when
    someone opened it first. ``Outcome.table`` is the lobby."""
    if ended.status != "over" or not ended.chat_key.startswith("web:"):
        return Outcome(False, "service.not_running", table=ended.table)
    seat = ended.seat_of(user)
    name = ended.seats[seat].name if seat is not None else name
    # the rule options as the lobby switched them (``option_screens.values``, as the lobby shows them)
    opened = await service.lobby.new_table(ended.chat_key, ended.game, ended.ruleset, user, name,
                                           options=option_screens.values(ended))
    if not opened.ok:
        if opened.key != "service.table_exists":
            return opened
        lobby = await service.public_view(opened.table)
        if lobby is None or lobby.status != "lobby":  # the rematch already started without them
            return Outcome(False, "service.no_lobby", table=opened.table)
        if lobby.seat_of(user) is None:
            joined = await service.lobby.join(opened.table, user, name)
            if not joined.ok:
                return joined
        return Outcome(True, table=opened.table)
    await service.lobby.set_up_like(opened.table, ended, user, name, seed=seed)
    return opened


async def rematch_of(service: GameService, ended: PublicView) -> int | None:
    """The table opened as this finished web table's rematch (a lobby or its game), if any."""
    if ended.status != "over" or not ended.chat_key.startswith("web:"):
        return None
    later = await service.lobby.table_in_chat(ended.chat_key)
    return later.id if later is not None and later.id > ended.table else None


async def invited(service: GameService, lobby: PublicView) -> list[str]:
    """The players of the game this lobby is the rematch of who have not sat down in it yet."""
    if lobby.status != "lobby" or not lobby.chat_key.startswith("web:"):
        return []
    async with AsyncSession(service.db) as session:
        before = (await session.exec(select(TableRow).where(
            TableRow.chat_key == lobby.chat_key, TableRow.id < lobby.table, TableRow.status == "over")
            .order_by(TableRow.id.desc()).limit(1))).first()
    if before is None:
        return []
    return [s["name"] for s in before.seats if not is_ai_user(s["user"]) and lobby.seat_of(s["user"]) is None]
