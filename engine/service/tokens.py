"""Button tokens: which table, which state version, whose button, which of their choices.

A token is ``<table>.<version>.<seat>.<index>.<mac>`` (base 36, at most 64 bytes as Telegram's
callback data requires). ``index`` points into ``legal_actions(state, seat)`` at that version, which
the rules compute identically every time, so the token needs no action payload. The MAC (HMAC-SHA256
with the service's secret, truncated) makes a forged or garbled token a clean rejection.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

MAX_LEN = 64
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _b36(n: int) -> str:
    if n < 0:
        raise ValueError("negative")
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = _DIGITS[r] + out
        if not n:
            return out


@dataclass(frozen=True)
class Token:
    table: int
    version: int
    seat: int
    index: int


class TokenError(ValueError):
    """A token that is not one of ours (garbled or forged)."""


def _mac(secret: bytes, body: str) -> str:
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()[:10]


def encode(secret: bytes, token: Token) -> str:
    body = ".".join(_b36(x) for x in (token.table, token.version, token.seat, token.index))
    text = f"{body}.{_mac(secret, body)}"
    if len(text.encode()) > MAX_LEN:
        raise ValueError("token too long")
    return text


def decode(secret: bytes, text: str) -> Token:
    if not isinstance(text, str) or len(text.encode()) > MAX_LEN:
        raise TokenError("bad length")
    parts = text.split(".")
    if len(parts) != 5:
        raise TokenError("bad shape")
    body, mac = ".".join(parts[:4]), parts[4]
    if not hmac.compare_digest(_mac(secret, body), mac):
        raise TokenError("bad signature")
    try:
        table, version, seat, index = (int(x, 36) for x in parts[:4])
    except ValueError as e:
        raise TokenError("bad number") from e
    return Token(table, version, seat, index)
