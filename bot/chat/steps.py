"""A player's choices in steps, for every platform: short keyboards instead of one flat list.

Each legal move comes with the labels that lead to it (``words.games`` ``steps``: the hand card,
what to do with it, whose, which card). The moves' paths form a tree; a keyboard shows one node's
children:

- a child that is a move is its button (the move's token);
- a child under which lies exactly one move is that move's button too, labelled with the rest of
  its path, when that still fits a button (no step that only says "go on");
- any other child opens its own keyboard (signed ``m:<table>:<node>:<page>`` data, a hash of the
  labels that lead there), whose last button goes back;
- a step with one way on opens that way at once, and a step with more than ``PER_STEP`` children
  shows them a page at a time.

Nothing is stored: a press on a step's button finds its node again among the player's choices as
they are now; when the table moved on and the node is gone, the player gets their choices anew.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from words.i18n import t

PER_STEP = 8  # the most buttons a step's keyboard shows, its Back and More included
HALF = 20  # the width (Latin characters; a CJK character counts two) a half-row button shows whole
FULL = 40  # …and a button on a row of its own
ROOT = "r"
SEP = " · "


def width(label: str) -> int:
    """How wide a label shows on a phone's button: a wide (CJK) character takes two places."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in label)


@dataclass(frozen=True)
class Choice:
    path: tuple[str, ...]  # the labels that lead to it, first step first
    token: str


@dataclass(frozen=True)
class Key:
    """A button of a step: a move (``token``) or another step (``node``, ``page``)."""

    label: str
    token: str | None = None
    node: str | None = None
    page: int = 0


def node_id(prefix: tuple[str, ...]) -> str:
    if not prefix:
        return ROOT
    return hashlib.blake2b("\x1f".join(prefix).encode(), digest_size=5).hexdigest()


def _under(choices: Iterable[Choice], prefix: tuple[str, ...]) -> list[Choice]:
    n = len(prefix)
    return [c for c in choices if c.path[:n] == prefix and len(c.path) > n]


def _children(choices: list[Choice], prefix: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(c.path[len(prefix)] for c in _under(choices, prefix)))


def _leaf(choices: list[Choice], path: tuple[str, ...]) -> Choice | None:
    return next((c for c in choices if c.path == path), None)


def _opens(choices: list[Choice], prefix: tuple[str, ...]) -> tuple[str, ...]:
    """The node a step's button opens: with only one way on from there (and no move of its own
    label), that way at once."""
    while True:
        kids = _children(choices, prefix)
        if len(kids) != 1 or _leaf(choices, (*prefix, kids[0])) is not None:
            return prefix
        nxt = (*prefix, kids[0])
        if len(_under(choices, nxt)) == 1:  # one move left: shown as that move's button
            return prefix
        prefix = nxt


def _back(choices: list[Choice], prefix: tuple[str, ...]) -> tuple[str, ...]:
    """Where Back leads: the nearest step above that is not passed through at once."""
    up = prefix[:-1]
    while up and _opens(choices, up) != up:
        up = up[:-1]
    return up


def _key(choices: list[Choice], prefix: tuple[str, ...], label: str) -> Key:
    here = (*prefix, label)
    leaf = _leaf(choices, here)
    if leaf is not None:
        return Key(label, token=leaf.token)
    below = _under(choices, here)
    if len(below) == 1:
        whole = SEP.join(below[0].path[len(prefix):])
        if width(whole) <= FULL:
            return Key(whole, token=below[0].token)
    return Key(f"{label} ›", node=node_id(_opens(choices, here)))


def find(choices: list[Choice], node: str) -> tuple[str, ...] | None:
    """The labels that lead to a step, from its id; None when no step of these choices has it."""
    if node == ROOT:
        return ()
    seen: set[tuple[str, ...]] = set()
    for c in choices:
        for n in range(1, len(c.path)):
            prefix = c.path[:n]
            if prefix not in seen:
                seen.add(prefix)
                if node_id(prefix) == node:
                    return prefix
    return None


def keys(choices: list[Choice], lang: str, prefix: tuple[str, ...] = (), page: int = 0) -> list[Key]:
    """The buttons of a step: its children (a page of them), then More and Back where they lead."""
    prefix = _opens(choices, prefix)
    kids = [_key(choices, prefix, label) for label in _children(choices, prefix)]
    if not prefix:  # the first step shows everything: the hand's cards, End turn
        return kids
    here = node_id(prefix)
    room = PER_STEP - 1  # Back
    if len(kids) > room:
        room -= 1  # More
        pages = -(-len(kids) // room)
        page = min(max(page, 0), pages - 1)
        kids = kids[page * room:(page + 1) * room]
        kids.append(Key(t(lang, "ch.step.more"), node=here, page=(page + 1) % pages))  # the last leads round
    return [*kids, Key(t(lang, "ch.step.back"), node=node_id(_back(choices, prefix)))]


def walk(choices: list[Choice], lang: str):
    """Every keyboard a player can reach from the first, nearest first: (the step's labels, its
    page, its keys, how many presses from the first). For the tests and the figures."""
    todo, seen = [(ROOT, 0, 0)], set()
    while todo:
        node, page, depth = todo.pop(0)
        if (node, page) in seen:
            continue
        seen.add((node, page))
        prefix = find(choices, node)
        if prefix is None:  # a step button that leads nowhere: the caller's check says so
            yield None, page, [], depth
            continue
        shown = keys(choices, lang, prefix, page)
        yield prefix, page, shown, depth
        todo += [(k.node, k.page, depth + 1) for k in shown if k.node is not None]
