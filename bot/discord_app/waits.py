"""A Discord channel that makes the bot wait holds up that channel's table only, and never with a
stale state first.

discord.py keeps Discord's per-route buckets itself and, on a 429, sleeps inside the request for
the ``retry_after`` Discord asks and then sends the same request again (``max_ratelimit_timeout``
cannot be set under 30 s). While a table is shown, that sleep would hold the table's message
record for the whole wait, and every move made meanwhile would be shown after it, one edit each,
the oldest first. So the bot listens to its own requests (``aiohttp.TraceConfig``, which discord.py
takes as ``http_trace``): a 429 on a channel's messages is noted with the time the channel opens
again, and a request made while showing a table (``bot.chat.messenger.deferrable``) raises
``Behind`` instead of sleeping; the table channel then shows the table's newest state when the
wait ends (``bot/chat/channel.py``). Until then nothing more is sent to that channel while showing
a table. Other calls (an answer to a command) wait as discord.py makes them.
"""

from __future__ import annotations

import logging
import re
import time
from types import SimpleNamespace

import aiohttp

from bot.chat.messenger import Behind, may_defer

log = logging.getLogger(__name__)
_CHANNEL = re.compile(r"/channels/(\d+)/messages")


def _seconds(headers) -> float:
    """The wait a 429 asks for (Discord sends it in the headers as well as in the body)."""
    for name in ("Retry-After", "X-RateLimit-Reset-After"):
        try:
            return max(0.0, float(headers.get(name, "")))
        except ValueError:
            continue
    return 1.0


class ChannelWaits:
    """When each channel that got a 429 opens again (``time.monotonic``)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.until: dict[int, float] = {}
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_end.append(self._ended)

    def check(self, place) -> None:
        """Raise ``Behind`` when showing a table in a channel still in its wait."""
        until = self.until.get(int(place))
        if until is None:
            return
        if until <= self.clock():
            self.until.pop(int(place), None)
        elif may_defer():
            raise Behind(int(place), until)

    async def _ended(self, _session, _context, params: SimpleNamespace) -> None:
        if params.response.status != 429:
            return
        match = _CHANNEL.search(params.url.path)
        if match is None:
            return  # an interaction's answer or a webhook: not a channel's wait
        channel = int(match[1])
        until = self.clock() + _seconds(params.response.headers)
        self.until[channel] = max(until, self.until.get(channel, 0.0))
        log.info("Discord asked to wait %.1f s before writing to channel %s", until - self.clock(), channel)
        if may_defer():  # raised out of discord.py's request: it does not sleep and send it again
            raise Behind(channel, until)
