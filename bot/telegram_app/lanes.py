"""Telegram's flood limits kept per chat: every chat has its own lane, so one group's wait never
holds up another, and answers to button presses never wait behind messages.

python-telegram-bot's ``AIORateLimiter`` holds every request of the process when any chat gets a
429, and its group bucket lets about 30 calls through in a minute where a group allows 20. This
is a ``telegram.ext.BaseRateLimiter`` (the library's documented hook for a limiter of one's own)
that schedules each call in its chat's lane:

- **A lane per chat** keeps that chat's limits: a small burst, then about one call a second; in a
  group also at most ``group_calls`` in any ``group_window`` (a sliding window: "20 a minute" is
  counted over any minute, which a leaky bucket such as ``aiolimiter``'s does not express), spent
  evenly: a group's bucket holds ``group_burst`` calls and fills at the window's average rate, so
  a busy group gets a call every few seconds rather than twenty at once and then nothing for a
  minute. Calls of one chat go in the order they were made; calls of other chats do not wait.
- **The bot's total**: messages get times in slices of ``bot_slice`` seconds, at most
  ``bot_per_slice`` each (16 a second, spread evenly: many calls given one time would reach
  Telegram bunched up, and a second's count over its 30). Slices take calls in any order, so a
  group's call given a time seconds ahead never holds up another chat's call now.
- **Answers to button presses** (``answerCallbackQuery``) are never held back by a chat's lane
  or by messages waiting for the bot's total: they have a room of their own above the messages'
  (``bot_answers`` a ``bot_window``), so a press is answered at once.
- **A 429 pauses its chat's lane only**, for the ``retry_after`` Telegram asks. Only when several
  chats are refused within a moment (or an answer is) is it the bot's limit, and every lane waits.
- **Tidying waits for room to spare**: taking the buttons off a message a newer one replaced
  (``bot.chat.messenger.chore``) goes in a group only while more than ``group_spare`` calls are left
  in its window and its bucket holds two, so the next table and prompt never wait behind it.
- **Showing a table does not wait long** (``bot.chat.messenger.deferrable``): a call that would
  wait more than ``longest_wait``, or that meets a 429, raises ``Behind`` with the time its lane
  opens, and the table channel shows the table's newest state then. Other calls (a command's
  answer) wait their turn in their own lane.

The limits are ours, kept a little under Telegram's (``Limits``): Telegram counts a call when it
arrives, a moment after we count it. Several processes serving one bot token (``TELEGRAM_PROCESSES``)
each keep a fixed share (``Limits.shared``), so adding a process never turns into 429s.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.chat.messenger import Behind, is_chore, may_defer

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
    group_burst: int = 4  # a group's bucket: calls at once, then one per group_window / group_calls
    # the bot's ~30 a second: messages at most 18 in any second (16 a second, two per 1/8 s slice,
    # and a sliding second overlaps nine slices), answers to presses 10 more
    bot_slice: float = 0.125  # the bot's messages: at most ``bot_per_slice`` in each slice of time
    bot_per_slice: int = 2
    bot_window: float = 1.0
    bot_answers: int = 10  # answers to presses (and calls of no chat) in any ``bot_window``: their own room
    longest_wait: float = 1.5  # a table's call that would wait longer is shown later instead (``Behind``)
    group_spare: int = 6  # tidying (``chore``) in a group only while more calls than this are left in its window
    global_429s: int = 3  # 429s from this many chats within ``bot_window``: the bot's own limit

    def shared(self, processes: int) -> Limits:
        """This process's share when ``processes`` serve one bot token (webhooks behind a balancer):
        Telegram counts per bot and per chat, not per process, so each keeps ``1/processes`` of every
        count (at least one call), and together they stay under the limits."""
        if processes <= 1:
            return self
        part = lambda n: max(1, n // processes)  # noqa: E731
        return replace(self, chat_burst=part(self.chat_burst), chat_gap=self.chat_gap * processes,
                       group_spare=part(self.group_spare),
                       group_calls=part(self.group_calls), group_burst=part(self.group_burst),
                       bot_slice=self.bot_slice * processes, bot_answers=part(self.bot_answers))

    def scaled(self, factor: float) -> Limits:
        """Every window and gap times ``factor`` (tests: a group's minute in seconds)."""
        return replace(self, chat_gap=self.chat_gap * factor, group_window=self.group_window * factor,
                       bot_window=self.bot_window * factor, bot_slice=self.bot_slice * factor,
                       longest_wait=self.longest_wait * factor)


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
        self.group_tokens = float(limits.group_burst)
        self.group_gap = limits.group_window / limits.group_calls
        self.sent: deque[float] = deque()  # the times calls were given, for the group window
        self.paused_until = 0.0

    def slot(self, now: float) -> float:
        """The earliest time a call made now may go (after every call already given a time)."""
        lim = self.limits
        when = max(now, self.paused_until, self.at)
        tokens = min(lim.chat_burst, self.tokens + (when - self.at) / lim.chat_gap)
        if tokens < 1:
            when += (1 - tokens) * lim.chat_gap
        if self.group:
            spread = min(lim.group_burst, self.group_tokens + (when - self.at) / self.group_gap)
            if spread < 1:
                when += (1 - spread) * self.group_gap
            if len(self.sent) >= lim.group_calls:
                when = max(when, self.sent[-lim.group_calls] + lim.group_window)
        return when

    def roomy(self, now: float) -> float:
        """When the group's window next has more than ``group_spare`` calls left, and its bucket
        some room too (now or earlier: it has)."""
        lim = self.limits
        live = [t for t in self.sent if t > now - lim.group_window]
        excess = len(live) - (lim.group_calls - lim.group_spare - 1)
        when = live[excess - 1] + lim.group_window if excess > 0 else now
        spread = min(lim.group_burst, self.group_tokens + (max(when, self.at) - self.at) / self.group_gap)
        return when + (2 - spread) * self.group_gap if spread < 2 else when

    def take(self, when: float) -> None:
        """A call goes at ``when`` (from ``slot``)."""
        lim = self.limits
        self.tokens = min(lim.chat_burst, self.tokens + (when - self.at) / lim.chat_gap) - 1
        if self.group:
            self.group_tokens = min(lim.group_burst, self.group_tokens + (when - self.at) / self.group_gap) - 1
            self.sent.append(when)
            while len(self.sent) > lim.group_calls:
                self.sent.popleft()
        self.at = when

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
        self.slices: dict[int, int] = {}  # the bot's messages: slice of time -> calls given a time in it
        self.answers: deque[float] = deque()  # when answers went, for their room
        self.bot_paused_until = 0.0
        self._refused: deque[tuple[float, int | str]] = deque()  # recent 429s: (when, chat)

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

    def _bot_slot(self, when: float) -> float:
        """The first time at or after ``when`` in a slice of the bot's messages with room."""
        lim = self.limits
        when = max(when, self.bot_paused_until)
        index = math.floor(when / lim.bot_slice)
        while self.slices.get(index, 0) >= lim.bot_per_slice:
            index += 1
        return max(when, index * lim.bot_slice)

    def _count(self, when: float) -> None:
        index = math.floor(when / self.limits.bot_slice)
        self.slices[index] = self.slices.get(index, 0) + 1
        if len(self.slices) > 1000:  # slices long past are forgotten
            past = math.floor(self.clock() / self.limits.bot_slice) - 10
            self.slices = {i: n for i, n in self.slices.items() if i >= past}

    async def _sleep_until(self, when: float) -> None:
        delay = when - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)

    async def process_request(self, callback, args, kwargs, endpoint, data, rate_limit_args):
        chat = _chat_of(endpoint, data)
        for attempt in range(self.max_retries + 1):
            if chat is None:
                await self._answer_turn()
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

    async def _answer_turn(self) -> None:
        """An answer (or a call that is no chat's) waits for nothing but the bot's pause and its
        own room, never for messages."""
        lim = self.limits
        while True:
            now = self.clock()
            while self.answers and self.answers[0] <= now - lim.bot_window:
                self.answers.popleft()
            if now >= self.bot_paused_until and len(self.answers) < lim.bot_answers:
                self.answers.append(now)
                return
            await self._sleep_until(max(self.bot_paused_until, self.answers[0] + lim.bot_window
                                        if len(self.answers) >= lim.bot_answers else now))

    async def _wait_turn(self, chat: int | str) -> None:
        """Wait for the chat's next slot and the bot's total, or raise ``Behind`` when showing a
        table and the wait would be long."""
        lane, now = self.lane(chat), self.clock()
        when = lane.slot(now)
        when = max(when, self._bot_slot(when))
        if when - now > self.limits.longest_wait and may_defer():
            raise Behind(chat, when)
        if lane.group and is_chore() and may_defer():
            roomy = max(when, lane.roomy(now))
            if roomy > now:
                raise Behind(chat, roomy)
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
            self._refused.append((now, chat))
        while self._refused and self._refused[0][0] < now - self.limits.bot_window:
            self._refused.popleft()
        if chat is None or len({c for _, c in self._refused}) >= self.limits.global_429s:
            log.warning("Telegram's limit for the whole bot: every chat waits %.1f s", seconds)
            self.bot_paused_until = max(self.bot_paused_until, until)
        return until
