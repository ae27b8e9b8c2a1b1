"""What a chat's members ask of the bot, worked out once for every platform: ``/join`` ``/leave``
``/endgame`` (asked twice for a running game), taking one's seat back, one's own screen, the Deal
discard pile, a move's refusal, ``/rules`` ``/lang`` ``/stats``, scheduled matches and their
sign-up, the service's notices, a damaged table; the lobby and its one message come from
``LobbyFlows`` (``bot/chat/lobby_flows.py``). A platform's front end parses its own input (commands,
button data, slash-command options) into these calls and answers through an ``Answer``
(``bot/chat/asker.py``, with ``Who`` asks); the messages themselves go out through the table channel's
messenger.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.chat import leaderboards, option_screens, signups, slow
from bot.chat.asker import Answer, Who
from bot.chat.channel import TableChannel
from bot.chat.leaderboards import Leaderboards
from bot.chat.lobby_flows import LobbyFlows, admin_for
from bot.chat.messenger import Text
from bot.chat.presenter import discard_pile_picture, pile_answer, refused_text
from bot.chat.screens import Button, Screen, private_screen, step_buttons
from bot.chat.steps import find, keys
from bot.chat.updates import damaged_text
from bot.web.auth import profile_path
from engine import options as table_options
from engine.games import GAMES
from engine.service.outcome import Outcome
from engine.service.tables import GameService
from engine.service.tournaments import base_chat
from engine.service.updates import TableUpdate
from engine.service.views import PrivateView, PublicView
from words.i18n import game_name, normalise_lang, t

log = logging.getLogger(__name__)

def rules_text(view: PublicView | None, lang: str) -> str:
    """The games' rules in short (both outside a table); at a table its rule set and options."""
    games = [view.game] if view else list(GAMES)
    text = "\n\n".join(t(lang, f"ch.rules.{g}") for g in games)
    return f"{text}\n\n{option_screens.rules_text(view, lang)}" if view else text


@dataclass(frozen=True)
class OwnScreen:
    """A player's own screen at a table, with the views it was drawn from."""

    public: PublicView
    own: PrivateView
    screen: Screen
    back: bool  # they just took back the seat the AI kept for them


class Flows(LobbyFlows):
    """The platform-neutral part of a chat front end (one per bot, beside its table channel)."""

    default_lang = "zh-Hans"  # the bot's language, for a chat that never chose one
    admins_only = "ch.admins_only"  # the refusal for a setting only the chat's managers may change

    def __init__(self, service: GameService, tables: TableChannel, seed: int | None = None) -> None:
        super().__init__(service, tables, seed)
        self.boards = Leaderboards(service)  # /top, /season, a season's end
        self.learnt: dict[str, str] = {}  # a chat's language as its platform reports it (a server's locale)

    async def table_here(self, who: Who) -> PublicView | None:
        """The open or running table of the chat the command came from."""
        row = await self.service.lobby.table_in_chat(who.chat)
        if row is None:
            return None
        return await self.service.public_view(row.id)

    async def command(self, who: Who, op: str, answer: Answer, view: PublicView | None = None) -> None:
        """``/join``, ``/leave``, ``/endgame`` on the chat's table: a lobby's operations; ``/join`` in a
        running game gives a player back the seat the AI kept for them; ending a running game is
        asked first, of those who may end it only."""
        view = view or await self.table_here(who)
        if view is None:
            damaged = await self.service.lobby.damaged_in_chat(who.chat) if op == "cancel" else None
            if damaged is not None:  # nothing to end: the game was set aside, a new one may start
                await answer.tell(t(who.lang, "service.table_damaged", table=damaged.id))
                return
            await answer.tell(t(who.lang, "service.no_lobby"))
            return
        if op == "cancel" and view.status == "running":
            allowed = await self.service.lobby.may_cancel(view.table, who.user, is_admin=await who.manages())
            if not allowed.ok:  # told now, not after answering "yes"
                await answer.tell(t(who.lang, allowed.key, **allowed.params))
                return
            await answer.ask(t(who.lang, "ch.endgame_confirm"),
                             [Button(t(who.lang, "ch.btn.endgame_yes"), f"e:{view.table}:y", -1, "danger"),
                              Button(t(who.lang, "ch.btn.endgame_no"), f"e:{view.table}:n", -1)])
            return
        manages = await admin_for(op, view, who)
        out = await self.service.lobby.op(view.table, op, who.user, who.name, is_admin=manages)
        if not out.ok:
            await answer.tell(t(who.lang, out.key, **out.params))
            return
        if out.key == "service.seat_back":
            await answer.tell(t(who.lang, "service.welcome_back"))
        elif op == "cancel" and view.status == "lobby":
            await answer.reply(t(who.lang, "ch.cancelled"))
            await self.show_lobby(view.table, who.lang, t(who.lang, "ch.cancelled"))
        else:  # the lobby message shows who is in; in a running game the table's update says who left
            await answer.done()
            if view.status == "lobby":
                await self.show_lobby(view.table, who.lang)

    async def end_answer(self, who: Who, table_id: int, yes: bool, answer: Answer) -> None:
        """The answer to ``/endgame``'s question: only the game's creator or a chat manager ends it."""
        if not yes:
            await answer.update(t(who.lang, "ch.game_goes_on"))
            return
        out = await self.service.lobby.cancel(table_id, who.user, is_admin=await who.manages(), name=who.name)
        if not out.ok:
            await answer.tell(t(who.lang, out.key, **out.params))
            return
        await answer.update(t(who.lang, "service.ended_by", by=who.name))

    async def changed_elsewhere(self, table_id: int) -> None:
        """A lobby of this platform changed through another door (the web table in Telegram's Mini
        App, the Discord Activity): its one message in the chat shows it; other platforms' tables
        are left to theirs."""
        view = await self.service.public_view(table_id)
        if view is None or not view.chat_key.startswith(f"{self.prefix}:"):
            return
        lang = await self.lang_of(base_chat(view.chat_key))
        await self.show_lobby(table_id, lang, t(lang, "ch.cancelled") if view.status == "cancelled" else None)

    async def lobby_press(self, who: Who, table_id: int, op: str, answer: Answer) -> None:
        """A lobby's press, or one of the buttons under an ended game's result: a rematch, the
        chat's standings, a new game."""
        if op == "stats":  # the leaderboard, in pages (``/top``)
            await self.boards.top(who, answer)
        elif op == "again":
            await self.rematch(who, table_id, answer)
        elif op.startswith("n:"):
            game = op[2:]
            if game not in GAMES:
                await answer.tell(t(who.lang, "service.bad_token"))
                return
            await self.open_lobby(who, game, None, {}, answer)
        else:
            await super().lobby_press(who, table_id, op, answer)

    async def rematch(self, who: Who, table_id: int, answer: Answer) -> None:
        """A new lobby like the ended table's: its game, rule set, options and AI seats, opened by
        the one who pressed; the others are named and join with one tap."""
        ended = await self.service.public_view(table_id)
        if ended is None or ended.status != "over":
            await answer.tell(t(who.lang, "service.not_running"))
            return
        # the options a lobby may switch (a tournament's fixed ones are the tournament's, not the chat's)
        chosen = {k: v for k, v in ended.options.items()
                  if table_options.by_name(ended.game, k) is not None and isinstance(v, bool)}
        table = await self.open_lobby(who, ended.game, ended.ruleset, chosen, answer, post=False)
        if table is None:
            return
        await self.service.lobby.set_up_like(table, ended, who.user, who.name, seed=self.seed)
        # the last game's other players, called once (a mention: the platform tells them)
        others = [s for s in ended.seats if s.person and s.user != who.user]
        await self.post_lobby(table, who.lang, answer, t(who.lang, "end.again_by", name=who.name), call=others)

    async def seat_back(self, who: Who, table_id: int, answer: Answer) -> None:
        out = await self.service.lobby.back(table_id, who.user)
        await answer.tell(t(who.lang, "service.welcome_back") if out.ok else t(who.lang, out.key, **out.params))

    # -- a player's own screen -------------------------------------------------------------------

    async def own(self, who: Who, table_id: int) -> OwnScreen | None:
        """The player's own screen at this table (their seat back first, when the AI kept it); None
        when they play no seat there."""
        seen = await self.service.seat_view(table_id, who.user)
        if seen is None or seen[0].status not in ("running", "paused", "over"):
            return None
        back = seen[1].ai_keeps and (await self.service.lobby.back(table_id, who.user)).ok
        public, own = await self.service.seat_view(table_id, who.user) if back else seen
        screen = await asyncio.to_thread(private_screen, own, public.names, who.lang)
        return OwnScreen(public, own, screen, back)

    async def step(self, who: Who, table_id: int, node: str, page: int, answer: Answer) -> None:
        """The next step of a player's choices (``bot.chat.steps``), found again among their choices
        as they are now: their own message shows it, with the way they came; a step that is gone
        (the table moved on) shows their choices from the start, and says why."""
        seen = await self.service.seat_view(table_id, who.user)
        if seen is None or seen[0].status != "running":
            await answer.tell(t(who.lang, "service.not_a_player" if seen is None else "service.not_running"))
            return
        public, own = seen
        screen = private_screen(own, public.names, who.lang, pictures=False)
        prefix = find(screen.choices, node) if not own.ai_keeps else None
        if not prefix:  # the first step, or a step that is gone
            gone = t(who.lang, "ch.step.changed") if prefix is None else None
            await answer.menu(screen.text, screen.buttons, gone)
            return
        shown = step_buttons(keys(screen.choices, who.lang, prefix, page), table_id, own.seat)
        await answer.menu(f"{screen.text}\n\n{t(who.lang, 'ch.step.path', path=' › '.join(prefix))}", shown)

    async def pile(self, who: Who, table_id: int) -> tuple[str, bytes | None, bool]:
        """D-18: the discard pile for a player the rules let look through it now: (its text, its
        picture, True); else (why not, None, False)."""
        cards, text = await pile_answer(self.service, who.user, table_id, who.lang)
        picture = await asyncio.to_thread(discard_pile_picture, cards, who.lang) if cards else None
        return text, picture, cards is not None

    async def move(self, who: Who, token: str, answer: Answer) -> tuple[Outcome, str | None]:
        """A move's button: the service checks its token. The outcome, and for a refusal what to
        tell the presser alone (the caller tells it)."""
        outcome = await self.service.act(who.user, token)
        if outcome.ok:
            await answer.done()  # the table update that follows shows the move to everyone
            return outcome, None
        return outcome, await refused_text(self.service, outcome, who.lang, chat_lang=self.lang_of)

    # -- the chat's settings and results ---------------------------------------------------------

    async def lang_of(self, chat: str, default: str | None = None) -> str:
        """A chat's chosen language, else ``default``, else the bot's (a tournament table speaks
        its chat's)."""
        chat = base_chat(chat)
        chosen = await self.service.chats.lang(chat)
        return normalise_lang(chosen or default or self.learnt.get(chat) or self.default_lang)

    async def rules(self, who: Who, view: PublicView | None = None) -> str:
        """``/rules``: the game's rules in short; for the chat's table its rule set and options."""
        return rules_text(view or await self.table_here(who), who.lang)

    async def set_lang(self, who: Who, code: str | None, answer: Answer, private_chat: bool = False) -> None:
        if not private_chat and not await who.manages():
            await answer.tell(t(who.lang, self.admins_only))
            return
        if not code:
            await answer.tell(t(who.lang, "ch.lang_usage"))
            return
        lang = normalise_lang(code)
        await self.service.chats.set_settings(who.chat, lang=lang)
        await answer.reply(t(lang, "ch.lang_set"))

    async def stats(self, who: Who) -> str:
        """``/stats``: the chat's ratings per game (engine/service/ratings.py), then wins and games."""
        table = await self.service.chats.standings(who.chat)
        lines = [f"{i + 1}. {e['name']}: {e['wins']}/{e['games']}" for i, e in enumerate(table[:20])]
        if not lines:
            return t(who.lang, "ch.no_results")
        rated = []
        season = await self.service.chats.season(who.chat)
        for game in GAMES:
            for key, chosen in (("ch.ratings_season", season), ("ch.ratings", None)):  # this season, all time
                if key == "ch.ratings_season" and season is None:  # the chat has no seasons
                    continue
                best = await self.service.chats.ratings(who.chat, game, chosen)
                if best:
                    rated.append(t(who.lang, key, game=game_name(game, who.lang), season=season))
                    rated += [f"{i + 1}. {r.name}: {r.shown:.1f} ({r.wins}/{r.games})" for i, r in enumerate(best)]
        return "\n".join([*rated, t(who.lang, "ch.standings"), *lines])

    async def me(self, who: Who) -> str:
        """``/me``: the asker's ratings and ranks per game (this chat's season, all time, everywhere)
        and their latest games here; answered to them alone (the platform's private way)."""
        lang, lines = who.lang, [t(who.lang, "ch.me.head", name=who.name)]
        for game in GAMES:
            mine = await self.service.chats.profile(who.chat, who.user, game)
            if mine["everywhere"] is None:
                continue
            lines.append(t(lang, "ch.me.game", game=game_name(game, lang)))
            for scope, (rating, rank, of) in ((k, v) for k, v in mine.items() if v is not None):
                lines.append(t(lang, f"ch.me.{scope}", rating=f"{rating.shown:.1f}", rank=rank, of=of,
                               wins=rating.wins, games=rating.games))
        for game in GAMES:  # achievements: each once, with how often
            earned = await self.service.chats.achievements(who.user, game)
            if earned:
                lines.append(t(lang, "ch.me.feats", game=game_name(game, lang), feats=t(lang, "ui.list_sep").join(
                    t(lang, f"feat.{e.key}") + (f" ×{e.count}" if e.count > 1 else "") for e in earned)))
        if len(lines) == 1:
            lines.append(t(lang, "ch.me.none"))
        page = profile_path(self.service.sign, who.user)
        if self.tables.messenger.web_url and page:  # the same, with streaks and every game, on the web
            lines.append(t(lang, "ch.me.page", url=self.tables.messenger.web_url + page))
        recent = await self.service.chats.recent(who.chat, who.user)
        if recent:
            lines.append(t(lang, "ch.me.recent", games=t(lang, "ui.list_sep").join(
                t(lang, "ch.me.won" if won else "ch.me.played", table=table, game=game_name(game, lang))
                for table, game, won in recent)))
        return "\n".join(lines)

    # -- scheduled matches -----------------------------------------------------------------------

    async def schedule(self, who: Who, game: str, begins: float, minutes: int, ruleset: str | None, ai: int,
                       answer: Answer, when: str,
                       note: Callable[[int], Awaitable[str | None]] | None = None) -> int | None:
        """A timed match (the caller checked who may); its sign-up message, remembered so that it
        loses its button when the match starts or is called off; ``note`` adds a platform's line
        (Discord's calendar). The schedule's id, or None."""
        out = await self.service.schedules.schedule(who.chat, who.user, game, ruleset, begins, minutes, ai_fill=ai)
        if not out.ok:
            await answer.tell(t(who.lang, out.key, **out.params))
            return None
        sid = out.params["schedule"]
        text = t(who.lang, "ch.scheduled", game=game_name(game, who.lang), when=when, length=minutes)
        extra = await note(sid) if note is not None else None
        text += f"\n{extra}" if extra else ""
        sent = await answer.reply(text, [Button(t(who.lang, "ch.btn.sign_up"), f"s:{sid}", -1)])
        if sent is not None:
            await self.remember_signup(f"s{sid}", self.tables.messenger.chat_place(who.chat), sent)
        return sid

    async def remember_signup(self, what: str, place, message_id: int) -> None:
        where = self.tables.messenger.key(place, 0)[0]
        await signups.remember(self.service, self.prefix, what, f"{where}:{message_id}")

    async def close_signup(self, what: str) -> None:
        """The sign-up messages of a match (``s<id>``) or tournament (``T<id>``) lose their buttons."""
        for ref in await signups.take(self.service, self.prefix, what):
            where, message = ref.rsplit(":", 1)
            await self.tables.messenger.strip(int(where), int(message))

    async def sign_up(self, who: Who, schedule_id: int, answer: Answer) -> None:
        chat = await self.service.schedules.chat_of(schedule_id)
        if chat is not None and base_chat(chat) != base_chat(who.chat):
            await answer.tell(t(who.lang, "service.other_chat"))
            return
        out = await self.service.schedules.sign_up(schedule_id, who.user, who.name)
        await answer.tell(t(who.lang, "ch.signed_up") if out.ok else t(who.lang, out.key, **out.params))

    # -- what the service says -------------------------------------------------------------------

    async def on_update(self, update: TableUpdate) -> None:
        """A table of this platform changed: shown in its own chat, wherever the press came from."""
        lang = await self.lang_of(update.chat_key)
        if update.kind == "damaged":
            place = self.tables.messenger.chat_place(update.chat_key)
            await self.tables.post(place, Text(damaged_text(update, lang)), [])
            return
        await self.tables.show(update, lang)

    async def on_notice(self, outcome: Outcome) -> bool:
        """What the clocks did outside a table, in the chat it belongs to: sign-up closed, a match
        announced or called off, a tournament's news. False when it is not this platform's."""
        chat = (outcome.params or {}).get("chat")
        if not chat or not chat.startswith(f"{self.prefix}:"):
            return False
        lang = await self.lang_of(chat)
        if outcome.key in slow.NOTICES:  # a slow game's reminder (private) or daily summary (issue 48)
            await slow.tell(self.tables, outcome, lang)
            return True
        place = self.tables.messenger.chat_place(chat)
        closed = signups.of_outcome(outcome)
        if closed is not None:  # sign-up is over: its messages lose the button
            await self.close_signup(closed)
        if outcome.key == "ratings.season_over":  # a season ended: its final standings, once
            await self.tables.post(place, Text(leaderboards.season_over(outcome.params, lang)),
                                   [Button(t(lang, "ch.top.btn.a"), f"R:{game}:a:0", -1)
                                    for game in list(outcome.params["standings"])[:1]],
                                   await leaderboards.season_picture(outcome.params, lang), name="season.png")
            return True
        if outcome.key == "service.match_announced":
            sid = outcome.params["schedule"]
            sent = await self.tables.post(place, Text(t(lang, "service.match_announced")),
                                          [Button(t(lang, "ch.btn.sign_up"), f"s:{sid}", -1)])
            await self.remember_signup(f"s{sid}", place, sent)
        elif outcome.key in ("service.schedule_too_few", "service.storage_full") or (
                (outcome.key or "").startswith("tour.") and outcome.key not in ("tour.round_started",
                                                                                 "tour.round_over")):
            # called off for too few entrants, a round waiting for the last one, a full disk (once)
            await self.tables.post(place, Text(t(lang, outcome.key, **outcome.params)), [])
        return True
