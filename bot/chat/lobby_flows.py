"""The lobby in a chat, for every platform: its one message (edited as people join, posted again
only when it cannot be edited, and recorded once even when presses race), opening it, and the
presses on its buttons. ``Flows`` (``bot/chat/flows.py``) builds on it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.chat import option_screens, pace
from bot.chat.asker import Answer, Who
from bot.chat.channel import TableChannel
from bot.chat.messenger import Mention, Text
from bot.chat.screens import Button
from engine.service.tables import GameService
from engine.service.views import PublicView, Seat
from words.i18n import game_name, ruleset_name, t

# an AI seat of each level (``engine.games.LEVELS``), the default one without its level in the op
LOBBY_OPS = [("join", "ch.btn.join"), ("leave", "ch.btn.leave"), ("ai:basic", "ch.btn.add_ai_basic"),
             ("ai", "ch.btn.add_ai"), ("ai:strong", "ch.btn.add_ai_strong"), ("noai", "ch.btn.remove_ai"),
             ("start", "ch.btn.start"), ("cancel", "ch.btn.cancel")]


def seat_line(seat, lang: str) -> str:
    """A seat as the lobby lists it: its name, and an AI seat's level."""
    if not seat.level:
        return seat.name
    return t(lang, "ai.seat_level", name=seat.name, level=t(lang, "ai.level." + seat.level))


async def admin_for(op: str, view: PublicView | None, who: Who) -> bool:
    """Whether ``who`` acts as a chat admin on a lobby's ``op``: a chat admin may end a lobby, and
    run it (AI seats, the start) for the player who opened it (``engine.service.lobby.runs``). The
    platform is asked only when it matters (someone else's lobby)."""
    hosting = op in ("cancel", "start", "ai", "noai") or op.startswith("ai:")
    return hosting and (op == "cancel" or view is None or view.creator != who.user) and await who.manages()


class LobbyFlows:
    """The lobby's part of a chat front end's flows."""

    def __init__(self, service: GameService, tables: TableChannel, seed: int | None = None) -> None:
        self.service = service
        self.tables = tables
        self.seed = seed  # tests fix the deal; in play every game gets a fresh random seed

    @property
    def prefix(self) -> str:
        return self.tables.prefix

    # -- the lobby ---------------------------------------------------------------------------------

    def lobby_text(self, view: PublicView, lang: str) -> str:
        seats = "\n".join(f"{i + 1}. {seat_line(s, lang)}" for i, s in enumerate(view.seats))
        key = "ch.lobby" if view.status == "lobby" else "ch.lobby_started"
        text = t(lang, key, game=game_name(view.game, lang), ruleset=ruleset_name(view.ruleset, lang), seats=seats)
        lines = [text, option_screens.on_line(view, lang)]  # what the group chose stays in view after the start
        lines.append(pace.pace_line(view, lang))  # a slow game: its pace, the reminders, the daily summary
        if view.status == "lobby" and view.own_from_start:  # hands come privately: how to get them
            lines.append(self.tables.messenger.private_note(view.table, lang) or "")
        return "\n".join(line for line in lines if line)

    def lobby_buttons(self, view: PublicView, lang: str) -> list[Button]:
        """The lobby's buttons, then the rule options (only the creator's presses of those count)."""
        if view.status != "lobby":
            return []  # started or ended: the lobby's buttons have nothing left to do
        buttons = [Button(t(lang, label), f"l:{view.table}:{op}", -1) for op, label in LOBBY_OPS]
        return buttons + [Button(label, data, -1) for label, data in option_screens.lobby_buttons(view, lang)]

    async def show_lobby(self, table_id: int, lang: str, text: str | None = None) -> None:
        """The lobby's one message, edited as it changes; posted again only when it cannot be edited.

        Ordered by state, not by arrival: the table's message record is held while the lobby is
        read and its edit is made, so two presses' redraws (a Join's and the Start's) are made one
        after the other, each of the lobby as it stands then, and the last edit Telegram gets
        shows the newest lobby (after the start: no buttons), however slow the first one is."""
        seen = await self.service.public_view(table_id)
        if seen is None:
            return
        # the lobby message's place, so that what it shows goes with the record (another process
        # edits it next: an edit to what it already shows is never sent)
        async with self.tables.held(table_id, None, self.tables.messenger.table_place(seen)) as record:
            view = await self.service.public_view(table_id)
            if view is None:
                return
            place = self.tables.messenger.table_place(view)
            body = Text(text if text is not None else self.lobby_text(view, lang))
            buttons = [] if text is not None else self.lobby_buttons(view, lang)
            key = f"{self.prefix}_lobby"
            message = record.get(key, view.messages.get(key))
            if message is not None and await self.tables.edit(place, message, body, buttons, None):
                return
            sent = await self.tables.post(place, body, buttons)
            await self._keep_one_lobby(table_id, place, key, message, sent, body, buttons)

    async def _keep_one_lobby(self, table_id: int, place, key: str, old, sent, body: Text,
                              buttons: list[Button]) -> None:
        """Record the lobby message just posted unless a racing press recorded another first: then
        ours loses its buttons and the recorded one shows the lobby (one lobby with buttons)."""
        if sent is None:
            return
        held = await self.service.lobby.swap_message(table_id, key, old, sent)
        if held is None or held == sent:
            return
        await self.tables.strip(place, sent)
        await self.tables.edit(place, held, body, buttons, None)

    async def open_lobby(self, who: Who, game: str, ruleset: str | None, options: dict, answer: Answer,
                         post: bool = True) -> int | None:
        """A lobby in the chat (the chat keeps one table at a time): the table's id, or None."""
        out = await self.service.lobby.new_table(who.chat, game, ruleset, who.user, who.name, options=options)
        if not out.ok:
            await answer.tell(t(who.lang, out.key, **out.params))
            return None
        if post:
            await self.post_lobby(out.table, who.lang, answer)
        return out.table

    async def post_lobby(self, table_id: int, lang: str, answer: Answer, note: str | None = None,
                         call: Sequence[Seat] = ()) -> None:
        """The lobby's message as the answer to the one who opened it, remembered to be edited;
        ``note``: a line above it; ``call``: the players it mentions once, at its end (a rematch
        calls the last game's players: the later edits of the lobby mention nobody)."""
        view = await self.service.public_view(table_id)
        text = self.lobby_text(view, lang)
        body, buttons = Text(f"{note}\n\n{text}" if note else text), self.lobby_buttons(view, lang)
        after = tuple(part for i, seat in enumerate(call) for part in ((", ",) if i else ()) + (Mention(seat),))
        sent = await answer.reply(Text(body.body, after) if after else body.body, buttons)
        place = self.tables.messenger.table_place(view)
        await self._keep_one_lobby(table_id, place, f"{self.prefix}_lobby", None, sent,
                                   body, buttons)

    async def lobby_press(self, who: Who, table_id: int, op: str, answer: Answer) -> None:
        view = await self.service.public_view(table_id)
        if view is not None and view.status != "lobby":  # a lobby message from before the start
            await answer.tell(t(who.lang, "ch.lobby_closed"))
            await self.show_lobby(table_id, who.lang)
            return
        manages = await admin_for(op, view, who)
        out = await self.service.lobby.op(table_id, op, who.user, who.name, is_admin=manages, seed=self.seed)
        if not out.ok:
            await answer.tell(t(who.lang, out.key, **out.params))
            return
        note = pace.lobby_note(out.params, who.lang)  # a pace turned a timed match off, or the other way
        await (answer.tell(note) if note else answer.done())
        after = await self.service.public_view(table_id)
        cancelled = after is None or after.status == "cancelled"
        await self.show_lobby(table_id, who.lang, t(who.lang, "ch.cancelled") if cancelled else None)
