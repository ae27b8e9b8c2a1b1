"""Every button press of every platform through one router: a move's token to the service's one
door, anything else parsed once (``bot.chat.inputs``: signed data of a known shape), checked once
against the chat it came from, and handed to the flow of its kind; and one error boundary, so that
every press and command gets an answer even when handling it broke.

A platform's front end turns an SDK event into ``route(who, data, answer, event)`` and gives the
router the few handlers whose delivery is its own (a player's own screen as a private message or
an ephemeral reply, the discard pile, the trade builder, tournaments); the rest is the same
everywhere. The path of a press, on every platform: SDK event → front end (``Who``, ``Answer``) →
``PressRouter.route`` → ``Flows`` → the service → (the table update) → ``TableChannel`` →
the platform's messenger.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.chat.asker import Answer, Who
from bot.chat.context import PlatformContext
from bot.chat.inputs import NEW_GAME, SIGNED, Press, PressKind, parse_press
from engine.games import GAMES
from engine.service.views import PublicView
from words.i18n import t

log = logging.getLogger(__name__)
# a press of these kinds is taken only in the chat its table plays in (a lobby, ending a game)
IN_CHAT = (PressKind.LOBBY, PressKind.END)
Handler = Callable[[Any, Who, Press, Answer], Awaitable[None]]  # (the SDK's event, who, the press, the answer)


class PressRouter:
    def __init__(self, ctx: PlatformContext, handlers: dict[PressKind, Handler],
                 homes: Callable[[PublicView], set[str]] = lambda view: {view.chat_key},
                 stale: Callable[[Any, Who, int, str], Awaitable[None]] | None = None) -> None:
        """``handlers``: the platform's own delivery for the kinds it shows itself; ``homes``: the
        chat keys a table plays in (its chat, and on Discord its thread); ``stale``: how a platform
        whose answers only the presser sees tells a press that came too late (the table had moved
        on, perhaps while the chat could not be written to): the refusal with the presser's own
        choices as they are now, so that the next press is on the newest state."""
        self.ctx = ctx
        self.stale = stale
        self.flows = ctx.flows
        self.handlers: dict[PressKind, Handler] = {
            PressKind.LOBBY: self._lobby, PressKind.SEAT_BACK: self._seat_back, PressKind.END: self._end,
            PressKind.SIGN_UP: self._sign_up, PressKind.STEP: self._step, PressKind.LEADERBOARD: self._leaderboard,
            PressKind.SEASON_LENGTH: self._season_length, **handlers}
        self.homes = homes
        ctx.router = self

    async def route(self, who: Who, data: str, answer: Answer, event: Any = None) -> None:
        """A press: a move token, a new game's choice, or signed data of a known shape; anything
        else, and a press carried into another chat, gets a clear private notice and changes nothing."""
        if data[:2] == NEW_GAME and data[2:] in GAMES:
            await self.flows.open_lobby(who, data[2:], None, {}, answer)
            return
        if data[:2] not in SIGNED:  # a move: the service checks its token
            await answer.defer()
            outcome, refusal = await self.flows.move(who, data, answer)
            if refusal is None:
                return
            if self.stale is not None and outcome.key == "service.out_of_date" and outcome.table is not None:
                await self.stale(event, who, outcome.table, refusal)  # with their choices as they are now
            else:
                await answer.tell(refusal)
            return
        unsigned = self.ctx.service.unsign(data)
        press = parse_press(unsigned) if unsigned is not None else None
        handler = self.handlers.get(press.kind) if press is not None else None
        if handler is None:
            await answer.tell(t(who.lang, "service.bad_token"))
            return
        if press.kind in IN_CHAT and not await self.in_chat(press.id("table"), who):
            await answer.tell(t(who.lang, "service.other_chat"))
            return
        await handler(event, who, press, answer)

    async def in_chat(self, table_id: int, who: Who) -> bool:
        """Whether a table plays in the chat (or forum topic, or thread) a press came from."""
        view = await self.ctx.service.public_view(table_id)
        return view is not None and who.chat in self.homes(view)

    async def _lobby(self, event, who: Who, press: Press, answer: Answer) -> None:
        await answer.defer()  # the answer edits the lobby message once the service answered
        await self.flows.lobby_press(who, press.id("table"), press.fields["op"], answer)

    async def _seat_back(self, event, who: Who, press: Press, answer: Answer) -> None:
        await self.flows.seat_back(who, press.id("table"), answer)

    async def _end(self, event, who: Who, press: Press, answer: Answer) -> None:
        await self.flows.end_answer(who, press.id("table"), press.fields["answer"] == "y", answer)

    async def _step(self, event, who: Who, press: Press, answer: Answer) -> None:
        await self.flows.step(who, press.id("table"), press.fields["node"], int(press.fields["page"]), answer)

    async def _leaderboard(self, event, who: Who, press: Press, answer: Answer) -> None:
        f = press.fields
        await self.flows.boards.turn(who, f["game"], f["scope"], int(f["page"]), answer)

    async def _season_length(self, event, who: Who, press: Press, answer: Answer) -> None:
        await self.flows.boards.set_season(who, press.fields["length"], answer)

    async def _sign_up(self, event, who: Who, press: Press, answer: Answer) -> None:
        await self.flows.sign_up(who, press.id("schedule"), answer)


async def failed(ctx: PlatformContext, error: BaseException, what: str, chat: str | None, data: str | None,
                 tell: Callable[[str], Awaitable[Any]], errors: tuple[type[BaseException], ...] = (),
                 logger: logging.Logger = log) -> None:
    """The error boundary of a press or a command that broke: the log gets the chat, the table
    its button names and the traceback; the user a short "something went wrong, nothing changed"
    (the move, if any, either happened or not, as the database says) in the chat's language.
    ``errors``: the SDK's own errors raised when the user cannot be told (an expired interaction);
    ``logger``: the platform's, so the log says where it broke."""
    table = ctx.service.keys.table_named(data) if data else None
    logger.error("%s failed (chat %s, table %s): %s", what, chat, table, error, exc_info=error)
    lang = ctx.lang
    with contextlib.suppress(Exception):  # the database may be what failed
        lang = await ctx.flows.lang_of(chat) if chat else ctx.lang
    try:
        await tell(t(lang, "service.error"))
    except errors as e:  # already answered, or the platform unreachable: the log has it
        logger.info("could not tell the user about the error: %s", e)
