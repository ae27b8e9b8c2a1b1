"""The messages that carry a "Sign up" button (a scheduled match's, a tournament's), remembered so
that they lose it once sign-up is over: when the match starts or is called off, when the
tournament's first round starts or it is called off. A button left behind would only be refused.

Kept per platform in the service's key/value notes (``<platform>.signup.<what>``: a JSON list of
message references the platform understands), so another process or a restart can close them.
"""

from __future__ import annotations

import json

from engine.service.outcome import Outcome
from engine.service.storage import keyvalue


def _key(platform: str, what: str) -> str:
    return f"{platform}.signup.{what}"


def of_outcome(outcome: Outcome) -> str | None:
    """The sign-up a clock's notice closes: ``s<schedule>`` or ``T<tournament>``; None for others."""
    params = outcome.params or {}
    if outcome.key in ("service.match_started", "service.schedule_too_few") and "schedule" in params:
        return f"s{params['schedule']}"
    if outcome.key in ("tour.round_started", "tour.too_few") and "tournament" in params:
        return f"T{params['tournament']}"
    return None


async def remember(service, platform: str, what: str, ref: str) -> None:
    """One more message showing the sign-up ``what`` (``s12``, ``T3``)."""
    stored = await keyvalue.get_value(service.db, _key(platform, what))
    refs = json.loads(stored) if stored else []
    if ref not in refs:
        await keyvalue.set_value(service.db, _key(platform, what), json.dumps([*refs, ref]))


async def take(service, platform: str, what: str) -> list[str]:
    """The messages still showing sign-up ``what``, forgotten from now on (closed once)."""
    stored = await keyvalue.get_value(service.db, _key(platform, what))
    if stored is None:
        return []
    await keyvalue.delete_value(service.db, _key(platform, what))
    return json.loads(stored)
