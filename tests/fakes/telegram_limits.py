"""The Bot API's documented limits, checked the way Telegram checks them: a call Telegram would
refuse gets Telegram's answer (status 400, ``{"ok": false, "error_code": 400, "description":
"Bad Request: …"}``), so python-telegram-bot raises exactly what it raises in production.

Written from the Bot API's documentation (setMyCommands, sendMessage, sendPhoto, the edit methods,
inline keyboards and their buttons' ``style`` (9.4), answerCallbackQuery, answerInlineQuery and its
results, setChatMenuButton, createForumTopic, HTML formatting), independently of the bot's code.
Where the documentation names a rule but not Telegram's words for breaking it (a button's unknown
``style``), the description is ours, in Telegram's shape.

``deep_link_problem`` checks a ``t.me`` link the way the Telegram apps read it (a start parameter
of 1-64 of ``A-Za-z0-9_-``, ``admin`` rights Telegram knows): Telegram takes any URL in a button,
but an app ignores a link it cannot read, so a test checks the links the bot makes with it.
"""

from __future__ import annotations

import json
import re
from typing import Any

COMMANDS_MAX, COMMAND_MAX, COMMAND_DESCRIPTION_MAX = 100, 32, 256
TEXT_MAX, CAPTION_MAX, ALERT_MAX = 4096, 1024, 200
CALLBACK_DATA_MAX = 64  # bytes
BUTTONS_PER_ROW, BUTTONS_MAX = 8, 100
STYLES = ("danger", "success", "primary")  # InlineKeyboardButton.style (Bot API 9.4)
INLINE_RESULTS_MAX, RESULT_ID_MAX = 50, 64  # answerInlineQuery: results per answer, bytes of a result's id
TOPIC_NAME_MAX = 128  # createForumTopic: 1-128 characters
_START_PARAM = re.compile(r"[A-Za-z0-9_-]{1,64}")
# the administrator rights a deep link's ``admin`` may ask for (Bot API, "Deep linking")
ADMIN_RIGHTS = ("change_info", "post_messages", "edit_messages", "delete_messages", "restrict_members",
                "invite_users", "pin_messages", "manage_topics", "promote_members", "manage_video_chats",
                "anonymous", "manage_chat", "post_stories", "edit_stories", "delete_stories")
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
# what HTML parse mode accepts: these tags, and &lt; &gt; &amp; &quot; or numeric entities
_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "tg-emoji",
         "code", "pre", "blockquote"}
_TAG = re.compile(r"<(/?)([a-z-]+)((?:\s+[a-z-]+(?:=\"[^\"<>]*\"|='[^'<>]*')?)*)\s*>")
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});")


def _units(text: str) -> int:
    """Telegram counts lengths in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def visible_html(text: str) -> str | None:
    """The text an HTML-formatted message shows (tags gone, entities decoded), or None when
    Telegram cannot parse it ("can't parse entities")."""
    out, i, stack = [], 0, []
    while i < len(text):
        ch = text[i]
        if ch == "<":
            match = _TAG.match(text, i)
            if match is None or match[2] not in _TAGS:
                return None
            closing, name = match[1] == "/", match[2]
            if closing:
                if not stack or stack.pop() != name:
                    return None
            else:
                stack.append(name)
            i = match.end()
        elif ch == "&":
            match = _ENTITY.match(text, i)
            if match is None:
                return None
            entity = match[0]
            out.append({"&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"'}.get(entity, "?"))
            i = match.end()
        elif ch == ">":
            return None
        else:
            out.append(ch)
            i += 1
    return None if stack else "".join(out)


def _shown(params: dict, field: str) -> tuple[str, str | None]:
    """A text or caption as sent, and what it shows (None: not parseable)."""
    text = str(params.get(field) or "")
    if str(params.get("parse_mode") or "").upper() == "HTML":
        return text, visible_html(text)
    return text, text


def _check_text(params: dict, field: str, most: int, required: bool) -> str | None:
    raw, shown = _shown(params, field)
    if shown is None:
        return "Bad Request: can't parse entities: unsupported start tag or unmatched end tag"
    if required and not shown.strip():
        return "Bad Request: message text is empty"
    if _units(shown) > most:
        return "Bad Request: message is too long" if field == "text" else "Bad Request: message caption is too long"
    return None


def _check_keyboard(markup: Any, where: str = "private") -> str | None:
    """An inline keyboard's problem. ``where``: ``private`` (a chat with a user), ``group`` or
    ``inline`` (a message an inline query's result sends): a ``web_app`` button is taken in
    private chats only, a ``callback_game`` in none of ours."""
    if not markup:
        return None
    markup = _json(markup)
    rows = markup.get("inline_keyboard")
    if rows is None:
        return None  # a reply keyboard or its removal: not used by the bot
    buttons = [b for row in rows for b in row]
    if any(len(row) > BUTTONS_PER_ROW for row in rows) or len(buttons) > BUTTONS_MAX:
        return "Bad Request: reply markup is too long"
    for b in buttons:
        if not str(b.get("text") or "").strip():
            return "Bad Request: BUTTON_TEXT_EMPTY"
        kinds = [k for k in ("callback_data", "url", "web_app", "switch_inline_query", "login_url", "pay",
                             "copy_text", "callback_game", "switch_inline_query_current_chat",
                             "switch_inline_query_chosen_chat") if k in b]
        if len(kinds) != 1:
            return "Bad Request: can't parse inline keyboard button: exactly one of the optional fields must be used"
        if "style" in b and b["style"] not in STYLES:
            return ("Bad Request: can't parse inline keyboard button: style must be one of \"danger\", "
                    "\"success\" or \"primary\"")
        if "callback_data" in b and not 1 <= len(str(b["callback_data"]).encode()) <= CALLBACK_DATA_MAX:
            return "Bad Request: BUTTON_DATA_INVALID"
        if "url" in b and not re.match(r"(https?|tg)://", str(b["url"])):
            return "Bad Request: BUTTON_URL_INVALID"
        if "web_app" in b:
            if where != "private":  # "available only in private chats between a user and the bot"
                return "Bad Request: BUTTON_TYPE_INVALID"
            if not str(_json(b["web_app"]).get("url", "")).startswith("https://"):
                return "Bad Request: BUTTON_URL_INVALID"
        if "switch_inline_query_chosen_chat" in b:
            chosen = _json(b["switch_inline_query_chosen_chat"]) or {}
            if not any(chosen.get(f"allow_{kind}_chats") for kind in ("user", "bot", "group", "channel")):
                return "Bad Request: can't parse inline keyboard button: at least one chat type must be allowed"
    return None


def _where(params: dict) -> str:
    chat = str(params.get("chat_id", ""))
    return "group" if chat.startswith("-") or chat.startswith("@") else "private"


def check_inline_answer(params: dict) -> str | None:
    """answerInlineQuery's rules: at most 50 results, each of a known type with an id of 1-64 bytes
    unique in the answer, an article with a title and a message to send (1-4096 characters shown,
    a keyboard that a message sent via the bot may carry); a ``button`` with its text and exactly
    one of ``web_app`` or a valid ``start_parameter``; ``cache_time`` not negative."""
    results = _json(params.get("results")) or []
    if not isinstance(results, list):
        return "Bad Request: can't parse inline query results JSON object"
    if len(results) > INLINE_RESULTS_MAX:
        return "Bad Request: RESULTS_TOO_MUCH"
    seen = set()
    for r in results:
        rid = str(r.get("id") or "")
        if not 1 <= len(rid.encode()) <= RESULT_ID_MAX:
            return "Bad Request: RESULT_ID_INVALID"
        if rid in seen:
            return "Bad Request: RESULT_ID_DUPLICATE"
        seen.add(rid)
        if r.get("type") != "article":  # the only kind the bot sends
            return "Bad Request: RESULT_TYPE_INVALID"
        if not str(r.get("title") or "").strip():
            return "Bad Request: can't parse InlineQueryResultArticle: Field \"title\" must be of type String"
        content = r.get("input_message_content") or {}
        if "message_text" not in content:
            return ("Bad Request: can't parse InlineQueryResultArticle: Field \"input_message_content\" must be of "
                    "type Object")
        problem = _check_text(content, "message_text", TEXT_MAX, required=True)
        if problem is not None:
            return problem.replace("message text is empty", "MESSAGE_EMPTY").replace(
                "message is too long", "MESSAGE_TOO_LONG")
        problem = _check_keyboard(r.get("reply_markup"), "inline")
        if problem is not None:
            return problem
    button = _json(params.get("button")) if params.get("button") else None
    if button is not None:
        if not str(button.get("text") or "").strip():
            return "Bad Request: BUTTON_TEXT_EMPTY"
        has_app, start = "web_app" in button, button.get("start_parameter")
        if has_app == (start is not None):
            return "Bad Request: can't parse InlineQueryResultsButton: exactly one of the optional fields must be used"
        if start is not None and not _START_PARAM.fullmatch(str(start)):
            return "Bad Request: START_PARAM_INVALID"
    if int(params.get("cache_time") or 0) < 0:
        return "Bad Request: CACHE_TIME_INVALID"
    return None


def check_menu_button(params: dict) -> str | None:
    """setChatMenuButton: a ``commands``, ``default`` or ``web_app`` button; a web app's with a text
    and an https address."""
    button = _json(params.get("menu_button")) if params.get("menu_button") else {"type": "default"}
    kind = button.get("type")
    if kind not in ("commands", "default", "web_app"):
        return "Bad Request: can't parse menu button: unsupported type"
    if kind == "web_app":
        if not str(button.get("text") or "").strip():
            return "Bad Request: BUTTON_TEXT_EMPTY"
        if not str((_json(button.get("web_app")) or {}).get("url", "")).startswith("https://"):
            return "Bad Request: BUTTON_URL_INVALID"
    return None


def deep_link_problem(url: str) -> str | None:
    """What keeps a Telegram app from reading a ``t.me`` deep link to a bot (None: it reads it)."""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    if parts.scheme != "https" or parts.netloc != "t.me" or not re.fullmatch(r"/[A-Za-z][A-Za-z0-9_]{4,31}",
                                                                            parts.path):
        return "not a bot's t.me link"
    query = parse_qs(parts.query, keep_blank_values=True)
    kinds = [k for k in ("start", "startgroup", "startapp", "startchannel") if k in query]
    if len(kinds) != 1:
        return "exactly one of start, startgroup, startapp, startchannel"
    value = query[kinds[0]][0]
    if value and not _START_PARAM.fullmatch(value):
        return "a start parameter is 1-64 of A-Za-z0-9_-"
    if "admin" in query:
        if kinds[0] not in ("startgroup", "startchannel"):
            return "admin goes with startgroup or startchannel"
        rights = query["admin"][0].split(" ") if " " in query["admin"][0] else query["admin"][0].split("+")
        if not rights or any(r not in ADMIN_RIGHTS for r in rights):
            return f"unknown administrator rights: {query['admin'][0]}"
    return None


def check_commands(params: dict) -> str | None:
    commands = _json(params.get("commands")) or []
    if len(commands) > COMMANDS_MAX:
        return "Bad Request: too many commands"
    for c in commands:
        if not _COMMAND.fullmatch(str(c.get("command", ""))):
            return "Bad Request: BOT_COMMAND_INVALID"
        if not 1 <= len(str(c.get("description", "")).strip()) <= COMMAND_DESCRIPTION_MAX:
            return "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID"
    language = params.get("language_code")
    if language and not re.fullmatch(r"[a-z]{2}", str(language)):
        return "Bad Request: LANG_CODE_INVALID"
    return None


def check_call(method: str, params: dict) -> str | None:
    """Telegram's "Bad Request: …" description for a call it refuses, else None."""
    if method == "setMyCommands":
        return check_commands(params)
    if method == "answerInlineQuery":
        return check_inline_answer(params)
    if method == "setChatMenuButton":
        return check_menu_button(params)
    if method == "createForumTopic":
        name = str(params.get("name") or "")
        if not name.strip():
            return "Bad Request: TOPIC_TITLE_EMPTY"
        return "Bad Request: TOPIC_TITLE_TOO_LONG" if len(name) > TOPIC_NAME_MAX else None
    problem = None
    if method in ("sendMessage", "editMessageText"):
        problem = _check_text(params, "text", TEXT_MAX, required=True)
    elif method in ("sendPhoto", "sendDocument", "editMessageCaption"):
        problem = _check_text(params, "caption", CAPTION_MAX, required=False)
    elif method == "editMessageMedia":
        media = _json(params.get("media")) or {}
        problem = _check_text(media, "caption", CAPTION_MAX, required=False)
    elif method == "answerCallbackQuery" and _units(str(params.get("text") or "")) > ALERT_MAX:
        problem = "Bad Request: MESSAGE_TOO_LONG"
    return problem or _check_keyboard(params.get("reply_markup"), _where(params))


# -- flood limits ------------------------------------------------------------------------------------
# The Bot FAQ ("My bot is hitting limits, how do I avoid this?"): avoid more than one message a second
# in one chat (short bursts are let through), no more than 20 messages a minute in one group, about 30
# messages a second in all. Edits count as messages (grammY's and our own measurements); answers to
# callback queries count only towards the bot's total. Over a limit, Telegram answers 429 with
# ``parameters.retry_after`` (whole seconds) and refuses that chat's calls until then.
CHAT_BURST, CHAT_RATE = 3, 1.0  # a chat's bucket: three at once, then one a second
GROUP_CALLS, GROUP_WINDOW = 20, 60.0  # in any minute, in one group
BOT_CALLS, BOT_WINDOW = 30, 1.0  # in any second, in all chats
_MESSAGES = ("send", "edit", "delete", "copy", "forward")  # methods that count as a chat's messages
_UNCOUNTED = ("getUpdates", "getMe", "setMyCommands", "setWebhook", "deleteWebhook", "getChatMember", "getChat")


class FloodLimits:
    """Telegram's flood control, kept per chat and for the bot, on ``clock`` (monotonic seconds).

    ``scale`` shrinks every window and gap alike (0.05: a group's minute is 3 s), so that a test
    can reach the limits in seconds; a 429's ``retry_after`` is then a fraction of a second, where
    Telegram says whole seconds. ``flood(chat, seconds)`` makes Telegram refuse a chat for a while
    (the penalty of a chat that went over, injected). ``refusals`` lists every 429 given:
    ``(method, chat, retry_after, injected)``."""

    def __init__(self, scale: float = 1.0, clock=None) -> None:
        import time

        self.scale, self.clock = scale, clock or time.monotonic
        self._bucket: dict[int, tuple[float, float]] = {}  # chat -> (tokens, when counted)
        self._group: dict[int, list[float]] = {}  # group -> its calls in the last window
        self._bot: list[float] = []
        self._flooded: dict[int, float] = {}  # chat -> refused until
        self.refusals: list[tuple[str, int | None, float, bool]] = []
        self.counted = 0

    def flood(self, chat: int, seconds: float) -> None:
        self._flooded[chat] = self.clock() + seconds

    def _retry(self, seconds: float) -> float | int:
        import math

        if self.scale >= 1:
            return max(1, math.ceil(seconds))
        return max(0.01, math.ceil(seconds * 100) / 100)

    def check(self, method: str, params: dict) -> float | None:
        """The ``retry_after`` of a 429 for this call, or None when Telegram takes it (and counts it)."""
        if method in _UNCOUNTED:
            return None
        now = self.clock()
        chat = params.get("chat_id")
        chat = int(chat) if chat is not None and str(chat).lstrip("-").isdigit() else None
        message = chat is not None and method.startswith(_MESSAGES)
        if message and self._flooded.get(chat, 0) > now:
            wait = self._flooded[chat] - now
            self.refusals.append((method, chat, self._retry(wait), True))
            return self._retry(wait)
        bot_window = BOT_WINDOW * self.scale
        self._bot = [t for t in self._bot if t > now - bot_window]
        waits = []
        if len(self._bot) >= BOT_CALLS:
            waits.append(self._bot[-BOT_CALLS] + bot_window - now)
        if message:
            tokens, then = self._bucket.get(chat, (CHAT_BURST, now))
            tokens = min(CHAT_BURST, tokens + (now - then) * CHAT_RATE / self.scale)
            if tokens < 1:
                waits.append((1 - tokens) * self.scale / CHAT_RATE)
            if chat < 0:
                window = GROUP_WINDOW * self.scale
                calls = self._group[chat] = [t for t in self._group.get(chat, []) if t > now - window]
                if len(calls) >= GROUP_CALLS:
                    waits.append(calls[-GROUP_CALLS] + window - now)
        if waits:
            wait = max(waits)
            if message:  # the chat is refused until then, whatever it sends meanwhile
                self._flooded[chat] = max(self._flooded.get(chat, 0), now + wait)
            self.refusals.append((method, chat, self._retry(wait), False))
            return self._retry(wait)
        self._bot.append(now)
        self.counted += 1
        if message:
            self._bucket[chat] = (tokens - 1, now)
            if chat < 0:
                self._group[chat].append(now)
        return None


def too_many(retry_after: float) -> dict:
    """Telegram's answer to a call over a flood limit (status 429)."""
    return {"ok": False, "error_code": 429, "description": f"Too Many Requests: retry after {retry_after:g}",
            "parameters": {"retry_after": retry_after}}
