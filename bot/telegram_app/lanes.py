"""Telegram's flood limits kept per chat: every chat has its own lane, so one group's wait never
holds up another, and answers to button presses never wait behind messages.

python-telegram-bot's ``AIORateLimiter`` holds every request of the process when any chat gets a
429, and its group bucket lets about 30 calls through in a minute where a group allows 20. This
is a ``telegram.ext.BaseRateLimiter`` (the library's documented hook for a limiter of one's own)
that schedules each call in its chat's lane:

- **A lane per chat** keeps that chat's limits: a small burst, then about one call a second; in a
  group also at most ``group_calls`` in any ``group_window`` (a sliding window: "20 a minute" is
  counted over any minute, which a leaky bucket such as ``aiolimiter``'s does not express). Calls
  of one chat go in the order they were made; calls of other chats do not wait for them.
- **The bot's total** (``bot_calls`` a second) is one more window that every call counts in.
- **Answers to button presses** (``answerCallbackQuery``) are never held back by a chat's lane
  or by messages waiting for the bot's total: a press is answered at once.
- **A 429 pauses its chat's lane only**, for the ``retry_after`` Telegram asks. Only when several
  chats are refused within a moment (or an answer is) is it the bot's limit, and every lane waits.
- **Showing a table does not wait long** (``bot.chat.messenger.deferrable``): a call that would
  wait more than ``longest_wait``, or that meets a 429, raises ``Behind`` with the time its lane
  opens, and the table channel shows the table's newest state then. Other calls (a command's
  answer) wait their turn in their own lane.

The limits are ours, kept a little under Telegram's (``Limits``): Telegram counts a call when it
arrives, a moment after we count it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.chat.messenger import Behind, may_defer

log = logging.getLogger(__name__)
ANSWER = "answerCallbackQuery"
NOT_A_CHAT = ("getMe", "setMyCommands", "setWebhook", "deleteWebhook", "getWebhookInfo", "logOut", "close")


@dataclass(frozen=True)
class Limits:
    """How fast the bot writes, a little under Telegram's documented limits (the Bot FAQ: about one
    message a second in a chat with short bursts, 20 a minute in a group, about 30 a second in all)."""

    chat_burst: int = 2  # calls at once in one chat
    chat_gap: float = 1.1  # seconds per call after the burst
    group_calls: int = 19  # in any ``group_window`` seconds, in one group
    group_window: float = 61.0
    bot_calls: int = 25  # in any ``bot_window`` seconds, in all chats
    bot_window: float = 1.0
    longest_wait: float = 1.5  # a table's call that would wait longer is shown later instead (``Behind``)
    global_429s: int = 3  # 429s from this many chats within ``bot_window``: the bot's own limit

    def scaled(self, factor: float) -> Limits:
        """Every window and gap times ``factor`` (tests: a group's minute in seconds)."""
        return replace(self, chat_gap=self.chat_gap * factor, group_window=self.group_window * factor,
                       bot_window=self.bot_window * factor, longest_wait=self.longest_wait * factor)


def _seconds(retry_after: Any) -> float:
    return retry_after.total_seconds() if isinstance(retry_after, timedelta) else float(retry_after)


def _chat_of(endpoint: str, data: dict) -> int | str | None:
    """The chat a call writes to (None: a call that is no chat's, or a press's answer)."""
    if endpoint == ANSWER or endpoint in NOT_A_CHAT:
        return None
    return data.get("chat_id")


class Lane:
    """One chat's schedule: when its next call may go (its bucket, its group window, a pause)."""

    def __init__(self, group: bool, limits: Limits) -> None:
        self.group, self.limits = group, limits
        self.tokens, self.at = float(limits.chat_burst), 0.0
        self.sent: deque[float] = deque()  # the times calls were given, for the group window
        self.paused_until = 0.0

    def slot(self, now: float) -> float:
        """The earliest time a call made now may go (after every call already given a time)."""
        lim = self.limits
        when = max(now, self.paused_until, self.at)
        tokens = min(lim.chat_burst, self.tokens + (when - self.at) / lim.chat_gap)
        if tokens < 1:
            when += (1 - tokens) * lim.chat_gap
        if self.group and len(self.sent) >= lim.group_calls:
            when = max(when, self.sent[-lim.group_calls] + lim.group_window)
        return when

    def take(self, when: float) -> None:
        """A call goes at ``when`` (from ``slot``)."""
        lim = self.limits
        self.tokens = min(lim.chat_burst, self.tokens + (when - self.at) / lim.chat_gap) - 1
        self.at = when
        if self.group:
            self.sent.append(when)
            while len(self.sent) > lim.group_calls:
                self.sent.popleft()

    def idle(self, now: float) -> bool:
        """Nothing scheduled, no pause, bucket full: the lane can be forgotten."""
        return self.paused_until <= now and now - self.at >= self.limits.chat_burst * self.limits.chat_gap and (
            not self.sent or self.sent[-1] + self.limits.group_window <= now)


class ChatLanes(BaseRateLimiter[None]):
    """The bot's lanes, one per chat (see the module's docstring)."""

    def __init__(self, limits: Limits | None = None, clock=time.monotonic, max_retries: int = 2) -> None:
        self.limits = limits or Limits()
        self.clock = clock
        self.max_retries = max_retries
        self.lanes: dict[int | str, Lane] = {}
        self.bot: deque[float] = deque()  # when calls were given, for the bot's total
        self.bot_paused_until = 0.0
        self._refused: deque[tuple[float, int | str]] = deque()  # recent 429s: (when, chat)
        self.waits: dict[int | str, float] = {}  # chat -> seconds its lane was paused by 429s (benches)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        self.lanes.clear()

    def lane(self, chat: int | str) -> Lane:
        lane = self.lanes.get(chat)
        if lane is None:
            if len(self.lanes) > 10_000:  # a long-running bot forgets the chats that are quiet
                now = self.clock()
                self.lanes = {c: x for c, x in self.lanes.items() if not x.idle(now)}
            group = isinstance(chat, str) or int(chat) < 0  # a channel's @name, or a group's negative id
            lane = self.lanes[chat] = Lane(group, self.limits)
        return lane

    def behind_until(self, chat: int | str) -> float:
        """When the chat's lane takes its next call (now, when it is open)."""
        return self.lane(chat).slot(self.clock())

    def _bot_slot(self, when: float) -> float:
        lim = self.limits
        while self.bot and self.bot[0] <= when - lim.bot_window:
            self.bot.popleft()
        when = max(when, self.bot_paused_until)
        if len(self.bot) >= lim.bot_calls:
            when = max(when, self.bot[-lim.bot_calls] + lim.bot_window)
        return when

    def _count(self, when: float) -> None:
        self.bot.append(when)
        if len(self.bot) > 4 * self.limits.bot_calls:
            self.bot.popleft()

    async def _sleep_until(self, when: float) -> None:
        delay = when - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)

    async def process_request(self, callback, args, kwargs, endpoint, data, rate_limit_args):
        chat = _chat_of(endpoint, data)
        for attempt in range(self.max_retries + 1):
            if chat is None:
                await self._sleep_until(self.bot_paused_until)
                self._count(self.clock())
            else:
                await self._wait_turn(chat)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as e:
                seconds = _seconds(e.retry_after)
                until = self._refused_for(chat, endpoint, seconds)
                if chat is not None and may_defer():
                    raise Behind(chat, until) from None
                if attempt == self.max_retries or (endpoint == ANSWER and seconds > 5):
                    raise  # an answer older than a few seconds is no use to the presser
                log.info("Telegram asked to wait %.1f s before writing to %s (%s)", seconds, chat or "any chat",
                         endpoint)
        raise AssertionError("unreachable")

    async def _wait_turn(self, chat: int | str) -> None:
        """Wait for the chat's next slot and the bot's total, or raise ``Behind`` when showing a
        table and the wait would be long."""
        lane, now = self.lane(chat), self.clock()
        when = lane.slot(now)
        when = max(when, self._bot_slot(when))
        if when - now > self.limits.longest_wait and may_defer():
            raise Behind(chat, when)
        lane.take(when)
        self._count(when)
        await self._sleep_until(when)

    def _refused_for(self, chat, endpoint: str, seconds: float) -> float:
        """A 429: its chat's lane waits (or, for the bot's own limit, every lane); when it opens."""
        now = self.clock()
        until = now + seconds
        if chat is not None:
            lane = self.lane(chat)
            lane.paused_until = max(lane.paused_until, until)
            self.waits[chat] = self.waits.get(chat, 0.0) + seconds
            self._refused.append((now, chat))
        while self._refused and self._refused[0][0] < now - self.limits.bot_window:
            self._refused.popleft()
        if chat is None or len({c for _, c in self._refused}) >= self.limits.global_429s:
            log.warning("Telegram's limit for the whole bot: every chat waits %.1f s", seconds)
            self.bot_paused_until = max(self.bot_paused_until, until)
        return until
