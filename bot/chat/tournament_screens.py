"""Tournament screens and commands for every chat adapter: the sign-up message and its buttons,
a round's announcement, the standings (text and picture), the short form of ``/tournament``, and
the dispatch of tournament buttons and admin sub-commands to ``Tournaments``.

Kept apart from the Telegram and Discord code so each adapter only sends what is built here.
Button data is ``T:<tournament>:<op>[:<team>]`` (ops: ``s`` sign up, ``w`` withdraw, ``j`` join a
team), short enough for Telegram's 64 bytes and Discord's 100-character custom ids.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field

from bot.chat.inputs import PressKind, number, parse_press
from bot.chat.screens import Button, Screen
from bot.web.auth import tournament_path
from engine import options as table_options
from engine.games import GAMES
from engine.service.tables import GameService, Outcome
from engine.service.tournaments import Tournaments, base_chat
from render.png import png_bytes
from render.standings import render_standings
from words.i18n import game_name, t

MAX_TEAM_BUTTONS = 20


@dataclass
class CreateRequest:
    """``/tournament`` in its short form, parsed: the arguments of ``Tournaments.create``."""

    game: str
    mode: str
    rounds: int
    starts_at: float
    match_minutes: int | None = None
    ruleset: str | None = None
    options: dict = field(default_factory=dict)
    clocks: dict = field(default_factory=dict)  # seconds per decision: "turn", "card"
    signup_minutes: int | None = None  # sign-up closes this long from now (default: at the start)
    every_minutes: int | None = None  # from one round's start to the next


SETTINGS = {"turn": "clocks", "card": "clocks", "signup": "signup_minutes", "every": "every_minutes"}


def parse_create(args: list[str], when) -> CreateRequest | None:
    """``<deal|board> <solo|team> <rounds> <+minutes|HH:MM> [match minutes] [rule set] [option[=on|off]]
    [turn=S] [card=S] [signup=M] [every=M]``; ``when`` turns the start into a time (the adapter's own
    reading of "+30" and "20:30")."""
    if len(args) < 4 or args[0] not in GAMES or args[1] not in ("solo", "team") or number(args[2], 1, 999) is None:
        return None
    start = when(args[3])
    if start is None:
        return None
    request = CreateRequest(args[0], args[1], number(args[2]), start)
    for word in args[4:]:
        setting, _, value = word.partition("=")
        if setting in SETTINGS and value:
            if number(value, 1, 10**6) is None:  # plain digits within reason (the service checks the range)
                return None
            if SETTINGS[setting] == "clocks":
                request.clocks[setting] = number(value)
            else:
                setattr(request, SETTINGS[setting], number(value))
        elif number(word, 1, 10**6) is not None:
            request.match_minutes = number(word)
        elif word in GAMES[args[0]].rules.rulesets:
            request.ruleset = word
        elif value and table_options.parse_value(value) is not None:  # e.g. rent_claim=off
            request.options[setting] = table_options.parse_value(value)
        else:  # a rule option switched on, e.g. no_trading (the service says if it is unknown)
            request.options[word] = True
    return request


async def create(tours: Tournaments, chat_key: str, user: str, is_admin: bool, request: CreateRequest,
                 name: str = "") -> Outcome:
    now = tours.core.clock()
    signup_until = None if request.signup_minutes is None else now + 60 * request.signup_minutes
    return await tours.create(chat_key, user, is_admin, request.game, request.ruleset,
                              starts_at=request.starts_at, rounds=request.rounds, mode=request.mode,
                              match_minutes=request.match_minutes, options=request.options, name=name,
                              clocks=request.clocks, signup_until=signup_until, every_minutes=request.every_minutes)


def tournament_name(row, lang: str) -> str:
    return row.name or t(lang, "tour.default_name", id=row.id)


async def signup_screen(tours: Tournaments, tid: int, lang: str, now: float) -> Screen:
    """The announcement with who entered so far and the buttons to enter (edited after each press)."""
    row = await tours.get(tid)
    entrants = [e for e in await tours.entrants(tid) if e.status == "active"]
    start = max(0, int(row.starts_at - now) // 60)
    lines = [t(lang, "tour.created", name=tournament_name(row, lang), game=game_name(row.game, lang),
               mode=t(lang, f"tour.mode.{row.mode}"), rounds=row.rounds, minutes=row.match_minutes, start=start)]
    if row.options:  # an option switched off by the organiser shows as such (rent_claim=off)
        lines.append(", ".join(k if v is True else f"{k}=off" if v is False else f"{k}={v}"
                               for k, v in sorted(row.options.items())))
    lines.append(t(lang, "tour.entrants", count=len(entrants)))
    for e in entrants:
        members = t(lang, "ui.list_sep").join(m["name"] for m in e.members)
        lines.append(f"• {e.name}" + (f" ({members})" if row.mode == "team" else ""))
    buttons = []
    if row.mode == "team":
        lines.append(t(lang, "tour.team_hint"))
        buttons = [Button(t(lang, "tour.btn.join_team", team=e.name), f"T:{tid}:j:{e.id}", -1)
                   for e in entrants[:MAX_TEAM_BUTTONS]]
    else:
        buttons = [Button(t(lang, "tour.btn.sign_up"), f"T:{tid}:s", -1)]
    buttons.append(Button(t(lang, "tour.btn.withdraw"), f"T:{tid}:w", -1))
    return Screen("\n".join(lines), buttons)


async def press(tours: Tournaments, data: str, user: str, name: str, chat: str | None = None) -> Outcome:
    """A tournament button (its data checked and unsigned by the adapter): players only ever act
    for themselves here, and only in the chat the tournament belongs to (``chat``)."""
    parsed = parse_press(data)
    if parsed is None or parsed.kind is not PressKind.TOURNAMENT:
        return Outcome(False, "service.bad_token")
    tid, op = parsed.id("tournament"), parsed.fields["op"]
    if chat is not None:
        row = await tours.get(tid)
        if row is None or base_chat(row.chat_key) != base_chat(chat):
            return Outcome(False, "service.other_chat")
    if op == "s":
        return await tours.sign_up(tid, user, name)
    if op == "w":
        return await tours.withdraw(tid, user)
    if op == "j" and parsed.id("team") is not None:
        return await tours.join_team(tid, parsed.id("team"), user, name)
    return Outcome(False, "service.bad_token")


async def current(tours: Tournaments, chat_key: str, active_only: bool = True):
    """The chat's newest tournament (the running one, or for standings the last one held)."""
    rows = await tours.in_chat(chat_key, active_only=active_only)
    return rows[-1] if rows else None


async def team_command(tours: Tournaments, chat_key: str, user: str, name: str, team_name: str,
                       lang: str) -> str:
    """``/team <name>``: the captain signs a team up for the chat's tournament."""
    row = await current(tours, chat_key)
    if row is None:
        return t(lang, "tour.no_tournament")
    out = await tours.create_team(row.id, user, name, team_name)
    if not out.ok:
        return t(lang, out.key, **out.params)
    return t(lang, "tour.team_created", team=team_name.strip()[:40], members=name)


async def rep_command(tours: Tournaments, chat_key: str, user: str, args: list[str], lang: str) -> str:
    """``/rep <match> <member number>``: the captain names who plays that match."""
    row = await current(tours, chat_key)
    if row is None:
        return t(lang, "tour.no_tournament")
    team = next((e for e in await tours.entrants(row.id) if e.status == "active" and e.captain == user), None)
    if team is None:
        return t(lang, "tour.captain_only", team="?")
    listing = t(lang, "ui.list_sep").join(f"{i}. {m['name']}" for i, m in enumerate(team.members, 1))
    match = number(args[0], 1, 999) if len(args) == 2 else None
    member_no = number(args[1], 1, len(team.members)) if len(args) == 2 else None
    if match is None or member_no is None:
        return t(lang, "tour.rep_usage", members=listing)
    member = team.members[member_no - 1]
    out = await tours.name_representative(row.id, user, team.id, match, member["user"])
    if not out.ok:
        return t(lang, out.key, **out.params)
    return t(lang, "tour.rep_named", name=member["name"], round=out.params["round"], team=team.name)


async def admin_command(tours: Tournaments, chat_key: str, user: str, is_admin: bool, args: list[str],
                        lang: str, substitute: tuple[str, str] | None = None) -> tuple[Outcome, str]:
    """``/tournament pause|resume|cancel [match]|correct …|replace …`` on the chat's running tournament;
    ``substitute`` (user, name) is the player the adapter found for ``replace`` (Telegram: the author
    of the message the command answers)."""
    op = args[0]
    row = await current(tours, chat_key, active_only=op != "correct")  # results stay correctable after the end
    if row is None:
        return Outcome(False, "tour.no_tournament"), t(lang, "tour.no_tournament")
    if op == "cancel" and len(args) > 1 and number(args[1]) is not None:
        out = await tours.cancel_table(row.id, user, is_admin, number(args[1]), " ".join(args[2:]))
        return out, (t(lang, "tour.table_cancelled", match=args[1]) if out.ok else t(lang, out.key, **out.params))
    if op == "replace":
        ai = len(args) == 4 and args[3].lower() == "ai"
        match, seat = (number(args[1]), number(args[2], 1, 8)) if len(args) in (3, 4) else (None, None)
        if match is None or seat is None or not (ai or substitute):
            return Outcome(False, "tour.replace_usage"), t(lang, "tour.replace_usage")
        sub_user, sub_name = (None, t(lang, "tour.ai")) if ai else substitute
        out = await tours.replace(row.id, user, is_admin, match, seat - 1, sub_user, sub_name)
        text = t(lang, "tour.replaced", seat=args[2], match=args[1], name=sub_name)
        return out, (text if out.ok else t(lang, out.key, **out.params))
    if op == "correct":
        winners = args[2].split(",") if len(args) > 2 else []
        ids = [number(w) for w in winners]
        if len(args) < 4 or number(args[1]) is None or not (args[2] == "-" or None not in ids):
            return Outcome(False, "tour.correct_usage"), t(lang, "tour.correct_usage")
        reason = " ".join(args[3:])
        out = await tours.correct(row.id, user, is_admin, number(args[1]), [] if args[2] == "-" else ids, reason)
        done = t(lang, "tour.corrected", match=args[1], reason=reason)
    elif op == "cancel":
        out = await tours.cancel(row.id, user, is_admin, " ".join(args[1:]))
        done = t(lang, "tour.cancelled")
    else:
        out = await {"pause": tours.pause, "resume": tours.resume}[op](row.id, user, is_admin)
        done = t(lang, {"pause": "tour.paused", "resume": "tour.resumed"}[op])
    return out, (done if out.ok else t(lang, out.key, **out.params))


ADMIN_OPS = ("pause", "resume", "cancel", "correct", "replace")


def round_text(service: GameService, outcome: Outcome, row, lang: str) -> str:
    """A round's start: which table, who sits there, the match number an admin refers to."""
    p = outcome.params
    lines = [t(lang, "tour.round_started", round=p["round"], rounds=row.rounds, tables=len(p["tables"]),
               minutes=row.match_minutes)]
    for n, (table, match) in enumerate(zip(p["tables"], p["matches"], strict=True), 1):
        names = t(lang, "ui.list_sep").join(s["name"] for s in service.cache.row(table).seats)
        lines.append(t(lang, "tour.table_line", n=n, names=names) + f"  (#{match})")
    return "\n".join(lines)


def topic_title(row, round_no: int, n: int, lang: str) -> str:
    return t(lang, "tour.topic", name=tournament_name(row, lang), round=round_no, n=n)[:128]


async def standings_screen(tours: Tournaments, chat_key: str, lang: str) -> Screen | None:
    """The latest tournament's standings: lines of text and the picture."""
    row = await current(tours, chat_key, active_only=False)
    if row is None:
        return None
    standings = await tours.standings(row.id)
    standings["name"] = tournament_name(row, lang)
    lines = [t(lang, "tour.standings.title", name=standings["name"])]
    for e in standings["rows"]:
        score = f"{e['points' if standings['mode'] == 'team' else 'wins']} · {e['value']:,}"
        lines.append(t(lang, "tour.standings_line", place=t(lang, "tour.place", place=e["place"]),
                       number=e["entrant"], name=e["name"], score=score))
    web = (os.environ.get("TYCOON_WEB_URL") or "").rstrip("/")
    if web.startswith(("https://", "http://")):  # the web table's live page, for a screen at the venue
        lines.append(t(lang, "web.tour.link", url=web + tournament_path(tours.core.keys.sign, row.id)))
    picture = await asyncio.to_thread(lambda: png_bytes(render_standings(standings, lang)[0]))
    return Screen("\n".join(lines), [], picture)


async def round_over_screen(tours: Tournaments, out: Outcome, lang: str) -> Screen | None:
    """What goes to the chat when a round ended (``Tournaments.table_finished``): the standings so
    far, or the final ones, headed by which it is."""
    screen = await standings_screen(tours, base_chat(out.params["chat"]), lang)
    if screen is None:
        return None
    head = t(lang, "tour.final" if out.params["last"] else "tour.round_over", round=out.params["round"])
    return Screen(f"{head}\n{screen.text}", [], screen.picture)


async def rep_user_command(tours: Tournaments, chat_key: str, user: str, round_no: int, member: str,
                           lang: str) -> str:
    """``/rep`` where the platform names the player directly (Discord's user option): the same as
    ``rep_command`` with that player's member number (none when not in the team: the usage lists them)."""
    row = await current(tours, chat_key)
    team = None if row is None else next((e for e in await tours.entrants(row.id)
                                          if e.status == "active" and e.captain == user), None)
    number = 0 if team is None else next((i for i, m in enumerate(team.members, 1) if m["user"] == member), 0)
    return await rep_command(tours, chat_key, user, [str(round_no), str(number)], lang)
