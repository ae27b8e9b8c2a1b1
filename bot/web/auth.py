"""Who is at the other end of a web page: a signed session, or a Telegram Mini App user.

- **Sessions.** A browser gets a random id once (``web:<16 hex>``), kept in a cookie signed with
  the service's secret (``service.sign``), so a cookie can only name an id this service gave out.
  A Telegram user proven by ``initData`` gets ``t:<user id>`` signed the same way: their seat at a
  Telegram table (chat key user ``tg:<id>``).
- **Telegram Mini Apps.** ``initData`` is checked exactly as Telegram documents it: the
  data-check-string (every field but ``hash``, sorted, ``key=value`` joined by newlines) must carry
  ``hash`` = HMAC-SHA256(key = HMAC-SHA256(key "WebAppData", bot token), data-check-string), and
  ``auth_date`` must be recent. The ``start_param`` it carries (a ``startapp`` link's parameter) is
  read only from that signed data, never from what the page says.
- **``startapp`` links.** ``https://t.me/<bot>?startapp=<param>`` opens the bot's Main Mini App (our
  ``/tg``); the parameter says where it lands (``start_of``): ``t<table>`` a table's page,
  ``new_<game>`` a new web table of that game with its opener seated (``new_deal``, ``new_board``),
  nothing the web lobby. ``startapp_link`` makes such a link for the chat bots' buttons.

Signed data of the web (``service.sign``, one letter and a colon, like the chat buttons' ``l:``,
``h:``, ``T:``…): ``w:`` a browser session, ``t:`` a Telegram user's session, ``d:`` a Discord
user's session (signed in through the Discord Activity, ``activity.py``), ``v:`` a spectator
link, ``W:`` a tournament page, ``R:`` a finished game's page (its result and replay), ``P:`` a
player's profile page. A signed value only opens what its letter says.

No aiohttp here: plain functions, tested on their own.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.chat.inputs import clean_name

SESSION_COOKIE = "tycoon_session"
INIT_DATA_MAX_AGE = 24 * 3600  # seconds an initData stays good (Telegram suggests checking it)
_SESSION = re.compile(r"(?:w:[0-9a-f]{16}|t:[1-9][0-9]{0,15}|d:[1-9][0-9]{0,19})")
_USER_PREFIX = {"w": "web", "t": "tg", "d": "dc"}  # a session's letter -> its chat-key user


def new_session(sign) -> str:
    """A fresh browser identity, signed (``sign``: the service's ``sign``)."""
    return sign(f"w:{secrets.token_hex(8)}")


def telegram_session(sign, user_id: int) -> str:
    return sign(f"t:{user_id}")


def discord_session(sign, user_id: int) -> str:
    """A Discord user proven by Discord's OAuth2 (the Activity): their seat is the bot's ``dc:<id>``."""
    return sign(f"d:{user_id}")


def user_of(unsign, cookie: str | None) -> str | None:
    """The chat-key user a signed session names (``web:…``, ``tg:…`` or ``dc:…``); None when forged
    or garbled."""
    if not cookie or len(cookie) > 80:
        return None
    data = unsign(cookie)
    if data is None or not _SESSION.fullmatch(data):
        return None
    kind, _, rest = data.partition(":")
    return f"{_USER_PREFIX[kind]}:{rest}"


@dataclass(frozen=True)
class TelegramUser:
    id: int
    name: str
    lang: str | None
    start_param: str | None = None  # the ``startapp`` parameter the Mini App was opened with, signed


class InitDataError(ValueError):
    """``initData`` that is not Telegram's, or too old: the reason, for the log and the page."""


def check_init_data(init_data: str, bot_token: str, now: float, max_age: float = INIT_DATA_MAX_AGE) -> TelegramUser:
    """The Telegram user ``init_data`` proves, or ``InitDataError``."""
    if not isinstance(init_data, str) or not init_data or len(init_data) > 4096:
        raise InitDataError("missing or too long")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError as e:
        raise InitDataError("not a query string") from e
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataError("a field given twice")
    received = fields.pop("hash", "")
    if not re.fullmatch(r"[0-9a-f]{64}", received):
        raise InitDataError("no hash")
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, received):
        raise InitDataError("bad signature")
    auth_date = fields.get("auth_date", "")
    if not (auth_date.isascii() and auth_date.isdigit()) or not -60 <= now - int(auth_date) <= max_age:
        raise InitDataError("expired")
    try:
        user = json.loads(fields.get("user", ""))
        uid = user["id"]
    except (ValueError, KeyError, TypeError) as e:
        raise InitDataError("no user") from e
    if not isinstance(uid, int) or isinstance(uid, bool) or not 0 < uid < 10**16:
        raise InitDataError("no user")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip() or user.get("username")
    lang = user.get("language_code") if isinstance(user.get("language_code"), str) else None
    return TelegramUser(uid, clean_name(name if isinstance(name, str) else None, str(uid)), lang,
                        fields.get("start_param") or None)


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """``initData`` as Telegram would send it for ``fields`` (tests, and a local Mini App trial)."""
    from urllib.parse import urlencode

    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    return urlencode({**fields, "hash": hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()})


def watch_path(sign, table: int) -> str:
    """The spectator page of a table, with the signed key that opens it (``sign``: the service's)."""
    return f"/watch/{table}?k={sign(f'v:{table}')}"


def telegram_path(table: int) -> str:
    """The Telegram Mini App page of a table (its player proves who they are with ``initData``)."""
    return f"/tg/{table}"


# -- startapp links: the Main Mini App opened on a table ------------------------------------------------

_START_TABLE = re.compile(r"t([1-9][0-9]{0,15})")
_START_NEW = re.compile(r"new_([a-z]{1,20})")
_BOT_USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,31}")  # Telegram's usernames: 5 to 32 characters


@dataclass(frozen=True)
class StartApp:
    """Where a ``startapp`` parameter lands: ``kind`` "table" (``table``), "new" (``game``: a new web
    table of it) or "lobby" (no parameter: the web lobby)."""

    kind: str
    table: int | None = None
    game: str | None = None


def start_of(param: str | None) -> StartApp | None:
    """The place a ``startapp`` parameter names, parsed strictly; None for one no link of ours makes
    (the game of ``new_<game>`` is checked against the registry by the caller)."""
    if not param:
        return StartApp("lobby")
    if not isinstance(param, str) or len(param) > 64:
        return None
    if m := _START_TABLE.fullmatch(param):
        return StartApp("table", table=int(m[1]))
    if m := _START_NEW.fullmatch(param):
        return StartApp("new", game=m[1])
    return None


def startapp_link(bot_username: str, table: int | None = None, *, new_game: str | None = None) -> str:
    """The ``t.me`` link that opens the bot's Main Mini App on ``table`` (``startapp=t<table>``), on a
    new web table of ``new_game`` (``startapp=new_<game>``), or, with neither, on the web lobby."""
    bot = bot_username.removeprefix("@")
    if not _BOT_USERNAME.fullmatch(bot):
        raise ValueError(f"not a bot's username: {bot_username!r}")
    if table is not None:
        if isinstance(table, bool) or not isinstance(table, int) or table < 1:
            raise ValueError(f"not a table: {table!r}")
        return f"https://t.me/{bot}?startapp=t{table}"
    if new_game is not None:
        if not _START_NEW.fullmatch(f"new_{new_game}"):
            raise ValueError(f"not a game: {new_game!r}")
        return f"https://t.me/{bot}?startapp=new_{new_game}"
    return f"https://t.me/{bot}?startapp"


def tournament_path(sign, tournament: int) -> str:
    """A tournament's live page (standings and the round's tables, for a screen at the venue)."""
    return f"/tournament/{tournament}?k={sign(f'W:{tournament}')}"


def result_path(sign, table: int) -> str:
    """A finished game's page (who won, the chart, the replay), with the signed key that opens it:
    the link a chat's game-end message shares."""
    return f"/r/{table}?k={sign(f'R:{table}')}"


_PROFILE_USER = re.compile(r"[0-9a-z:]{1,40}")  # what a signed value may carry (``tokens.sign``)


def profile_path(sign, user: str) -> str | None:
    """A player's profile page (their ratings, streaks and latest games), with its signed key; None
    for a user id a link cannot carry (an AI seat has none either: the caller leaves those out)."""
    if not isinstance(user, str) or not _PROFILE_USER.fullmatch(user) or user.startswith("ai:"):
        return None
    return f"/p/{user}?k={sign(f'P:{user}')}"
