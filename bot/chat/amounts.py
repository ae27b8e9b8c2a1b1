"""An amount a player types instead of pressing one of the offered steps (the board's own bid,
B-04), for every platform: the button under the table, whether the presser may type one now, and
the typed text taken as the game's move (``GameService.typed``).

Telegram has no form: the question goes to the player's private chat and the next number they send
there is the amount; which table waits for it is kept in the service's key/value notes
(``amount.typing.<user>``), so any process of several takes the answer. Discord asks with a form
that also offers sensible amounts to choose (``offered``: the least bid, the steps the buttons
offer, all the bidder could raise).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.chat.inputs import number
from bot.chat.screens import Button, refusal_text
from engine.games import GAMES
from engine.service.storage import keyvalue
from engine.service.views import PublicView
from words.games import WORDS
from words.i18n import t


def _key(user: str) -> str:
    return f"amount.typing.{user}"


def amount_button(view: PublicView, lang: str) -> Button | None:
    """"Type a bid" under the table while someone is asked for an amount the game lets them type."""
    kind = GAMES[view.game].amount_kind
    if kind is None or view.status != "running" or not any(a.kind == kind and not view.seats[a.seat].ai
                                                            for a in view.asks):
        return None
    return Button(t(lang, "amount.btn"), f"a:{view.table}", -1)


async def question(service, user: str, table: int, lang: str) -> tuple[bool, str]:
    """(True, the question to put) when ``user`` is asked for an amount at ``table`` now; else
    (False, why not)."""
    seen = await service.seat_view(table, user)
    if seen is None:
        return False, t(lang, "service.not_a_player")
    public, own = seen
    game = GAMES[public.game]
    if not any(a.kind == game.amount_kind and a.seat == own.seat for a in public.asks):
        return False, t(lang, "amount.not_asked")
    least, most = game.amount_bounds(own.board, own.seat) if game.amount_bounds else (None, None)
    money = WORDS[public.game].money
    return True, t(lang, "amount.question", least=money(least, lang, public.ruleset) if least is not None else "?",
                   most=money(most, lang, public.ruleset) if most is not None else "?")


@dataclass
class Offered:
    """What a bidder may choose instead of typing: ``(amount, its words, a note or "")``, lowest first."""

    question: str
    amounts: list[tuple[int, str, str]] = field(default_factory=list)


async def offered(service, user: str, table: int, lang: str) -> tuple[Offered | None, str]:
    """(the question and the amounts to choose from, "") when ``user`` is asked for an amount at
    ``table`` now; else (None, why not). The amounts: the least the rules take, the steps the
    buttons offer (the game's own choices answering the ask that carry an amount), and all the
    bidder could raise."""
    ok, text = await question(service, user, table, lang)
    if not ok:
        return None, text
    public, own = await service.seat_view(table, user)
    game = GAMES[public.game]
    least, most = game.amount_bounds(own.board, own.seat) if game.amount_bounds else (None, None)
    steps = {a for c in own.choices if c.answers and isinstance(a := getattr(c.action, "amount", None), int)}
    steps |= {x for x in (least, most) if isinstance(x, int)}
    money = WORDS[public.game].money
    amounts = []
    for x in sorted(x for x in steps if (least is None or x >= least) and (most is None or x <= most)):
        note = "amount.opt.least" if x == least else "amount.opt.most" if x == most else ""
        amounts.append((x, money(x, lang, public.ruleset), t(lang, note) if note else ""))
    return Offered(text, amounts), ""


async def expect(service, user: str, table: int) -> None:
    """The next number ``user`` sends privately is their amount at ``table``."""
    await keyvalue.set_value(service.db, _key(user), str(table))


async def expected(service, user: str) -> int | None:
    raw = await keyvalue.get_value(service.db, _key(user))
    return int(raw) if raw is not None and raw.isdigit() else None


async def take(service, user: str, table: int, text: str, lang: str) -> tuple[bool, str | None]:
    """A typed amount: (True, None) when it was made; (False, what to tell) when it was not a
    number (asked again) or the rules refused it (why)."""
    amount = number((text or "").strip().replace(",", "").replace("，", ""))
    if amount is None:
        return False, t(lang, "amount.not_a_number")
    outcome = await service.typed(user, table, amount)
    if outcome.ok:
        await keyvalue.delete_value(service.db, _key(user))
        return True, None
    view = await service.public_view(table)
    if outcome.key in ("service.not_running", "service.not_a_player"):
        await keyvalue.delete_value(service.db, _key(user))
    return False, refusal_text(outcome, lang, view.game if view else None, view.ruleset if view else "",
                               view.names if view else {})
