"""Button tokens: which table, which state version, whose button, which of their choices.

A token is ``<table>.<version>.<seat>.<index>.<digest>.<mac>`` (base 36, at most 64 bytes as
Telegram's callback data requires). ``index`` points into ``legal_actions(state, seat)`` at that
version, which the rules compute identically every time, so the token needs no action payload.
``digest`` (6 hex) names the action itself and the turn it was offered in (``action_digest``): a
button from a few versions back, when only other players have moved since, is still the same
choice if that action is legal in the same turn now (``GameService.act``), so a screen that a chat
could not edit yet is still pressed against the newest state. Tokens made before digests existed
(``<index>.<mac>``) still decode, with no digest. The MAC (HMAC-SHA256 with the service's secret,
truncated) covers it all and makes a forged or garbled token a clean rejection.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

MAX_LEN = 64
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_TOKEN = re.compile(r"[0-9a-z]{1,12}(\.[0-9a-z]{1,12}){3}(\.[0-9a-f]{6})?\.[0-9a-f]{10}")
_SIGNED = re.compile(r"(?P<data>[A-Za-z]:[0-9a-z:]{1,40})\.(?P<mac>[0-9a-f]{8})")


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
    digest: str | None = None  # the action and its turn (``action_digest``); None in older tokens


def action_digest(encoded_action: bytes, turn: int) -> str:
    """Six hex digits naming one action offered in one turn (not secret: the MAC covers it)."""
    return hashlib.blake2b(encoded_action + b"|" + str(turn).encode(), digest_size=3).hexdigest()


class TokenError(ValueError):
    """A token that is not one of ours (garbled or forged)."""


def _mac(secret: bytes, body: str) -> str:
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()[:10]


def encode(secret: bytes, token: Token) -> str:
    body = ".".join(_b36(x) for x in (token.table, token.version, token.seat, token.index))
    if token.digest is not None:
        body += f".{token.digest}"
    text = f"{body}.{_mac(secret, body)}"
    if len(text.encode()) > MAX_LEN:
        raise ValueError("token too long")
    return text


def encode_all(secret: bytes, table: int, version: int, seat: int, digests: list[str]) -> list[str]:
    """The tokens of a seat's choices at one version (one per digest, in order), as ``encode``
    makes them one by one (the common part written and keyed once: a screen of buttons is drawn
    for every update)."""
    prefix = f"{_b36(table)}.{_b36(version)}.{_b36(seat)}."
    keyed = hmac.new(secret, digestmod=hashlib.sha256)
    out = []
    for index, digest in enumerate(digests):
        body = f"{prefix}{_b36(index)}.{digest}"
        mac = keyed.copy()
        mac.update(body.encode())
        text = f"{body}.{mac.hexdigest()[:10]}"
        if len(text) > MAX_LEN:  # ASCII only
            raise ValueError("token too long")
        out.append(text)
    return out


def decode(secret: bytes, text: str) -> Token:
    if not isinstance(text, str) or len(text.encode()) > MAX_LEN or not _TOKEN.fullmatch(text):
        raise TokenError("bad shape")  # also what is not plain ASCII base 36 (int() reads other digits)
    parts = text.split(".")
    if len(parts) not in (5, 6):
        raise TokenError("bad shape")
    body, mac = ".".join(parts[:-1]), parts[-1]
    if not hmac.compare_digest(_mac(secret, body), mac):
        raise TokenError("bad signature")
    try:
        table, version, seat, index = (int(x, 36) for x in parts[:4])
    except ValueError as e:
        raise TokenError("bad number") from e
    return Token(table, version, seat, index, parts[4] if len(parts) == 6 else None)


def sign(secret: bytes, data: str) -> str:
    """Button data other than a move (``l:<table>:<op>``, ``s:<schedule>``, ``T:…``, ``h:…``,
    ``b:…``, ``e:…``) with a MAC, so a press can only carry ids this service gave out."""
    return f"{data}.{hmac.new(secret, data.encode(), hashlib.sha256).hexdigest()[:8]}"


def unsign(secret: bytes, text: str) -> str | None:
    """The data of a signed button, or None when it is garbled, forged or not signed at all."""
    match = _SIGNED.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    expected = hmac.new(secret, match["data"].encode(), hashlib.sha256).hexdigest()[:8]
    return match["data"] if hmac.compare_digest(expected, match["mac"]) else None

