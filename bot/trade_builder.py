"""The trade builder every front end shows (B-15): any exchange of deeds, cash and jail cards,
built privately by one player and sent through the service's offer door.

Why a module of its own: a trade is too open for ``legal_actions`` (which lists only a few
ready-made offers), so the player composes one. The draft lives in the database (the ``settings``
key/value table, ``trade.<table>.<user>``), not in a process: any process of several can take the
next press, and a restart loses nothing. Every change is checked against the rules' own
``trade_template`` (what may go into an offer now), and sending goes through
``GameService.offer``, which applies the one validator (``trades.proposal_problem``) like any move.

A front end only lays out what this module gives it: the draft's summary (each side's terms and
net value by the AI's value model), the controls as ``(label, op)`` rows, and the result of a
press. Ops are short (they ride in signed button data ``t:<table>:<op>``):

``n`` a fresh offer · ``k<id>`` a counter-offer to offer ``id`` · ``p<seat>`` the partner ·
``m<sq>`` / ``y<sq>`` toggle a deed of mine / of theirs · ``cp<n>`` / ``cm<n>`` cash towards me
paying / them paying · ``z`` no cash · ``j`` / ``i`` toggle a jail card I give / I ask for ·
``xy`` / ``xt`` type what I pay / what they pay · ``s`` send · ``q`` close; where a front end
sends values with the press (Discord's select menus and form): ``vp`` / ``vm`` / ``vy`` the partner,
my deeds, their deeds as chosen, ``xm`` both amounts typed at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import msgspec

from bot.screens import refusal_text
from engine.board.data import board
from engine.board.model import ProposeTrade
from engine.board.trades import proposal_problem, trade_template, window_problem
from engine.board.valuation import exchange_gain
from engine.core.errors import RuleError
from engine.service import keyvalue
from words.board_text import explain_error, money, party_name, square_name, trade_terms
from words.i18n import t

OP = re.compile(r"n|k[0-9]{1,6}|p[0-9]|[my][0-9]{1,2}|c[pm][0-9]{1,7}|z|j|i|x[ytm]|v[pmy]|s|q")
TYPED_MAX = 10_000_000


class Draft(msgspec.Struct):
    """An offer being built by ``seat`` (stored as JSON between presses)."""

    seat: int
    target: int = -1
    give: list[int] = []
    get: list[int] = []
    cash: int = 0  # > 0: the builder pays it; < 0: the partner pays its absolute value
    give_cards: int = 0
    get_cards: int = 0
    counter: int = 0  # the offer this one answers (a counter-offer), 0 for a fresh offer
    typing: str = ""  # "y" / "t": the next typed number is what I pay / what they pay
    message: int = 0  # the front end's id of the builder's message (Telegram edits it)

    def action(self) -> ProposeTrade:
        return ProposeTrade(target=self.target, give=tuple(sorted(self.give)), get=tuple(sorted(self.get)),
                            give_cash=max(self.cash, 0), get_cash=max(-self.cash, 0), give_cards=self.give_cards,
                            get_cards=self.get_cards, counter=self.counter)


@dataclass
class Shown:
    """What the builder shows after a press: its text and controls, or a private alert.

    ``closed``: the builder is done (sent or closed), its message keeps ``text`` and loses its
    buttons; ``typing``: the front end asks for a typed amount (``prompt``)."""

    text: str = ""
    controls: Controls | None = None
    alert: str | None = None
    closed: bool = False
    typing: str = ""
    prompt: str = ""
    draft: Draft | None = None
    sent: int | None = None  # the id of the offer sent


def draft_key(table: int, user: str) -> str:
    return f"trade.{table}.{user}"


def typing_key(user: str) -> str:
    """Which table's builder waits for ``user``'s typed amount (one at a time per user)."""
    return f"trade.typing.{user}"


async def load(service, table: int, user: str) -> Draft | None:
    raw = await keyvalue.get_value(service.engine, draft_key(table, user))
    if raw is None:
        return None
    try:
        return msgspec.json.decode(raw, type=Draft)
    except msgspec.DecodeError:  # a garbled note is a closed builder, never a crash
        return None


async def save(service, table: int, user: str, draft: Draft) -> None:
    await keyvalue.set_value(service.engine, draft_key(table, user), msgspec.json.encode(draft).decode())


async def drop(service, table: int, user: str) -> None:
    await keyvalue.delete_value(service.engine, draft_key(table, user))
    if await keyvalue.get_value(service.engine, typing_key(user)) == str(table):
        await keyvalue.delete_value(service.engine, typing_key(user))


def steps(ruleset: str) -> tuple[int, int]:
    """The cash steps of the buttons: a twentieth and a half of the salary (100 / 1,000 元 in the
    china rule set, $10 / $100 in classic)."""
    salary = board(ruleset).money["salary"]
    return max(1, salary // 20), max(1, salary // 2)


# -- the draft, changed by ops ------------------------------------------------------------------------


def start(state, seat: int, counter: int = 0) -> Draft | RuleError:
    """A fresh draft (the first partner chosen), or a counter-offer's: the answered offer's terms
    turned round, addressed to its maker."""
    template = trade_template(state, seat)
    if template is None or (counter and counter not in template.counters) or (not counter and not template.fresh):
        problem = window_problem(state, seat, counter)
        return RuleError(*problem[:2], **problem[2]) if problem else RuleError("B-15", "board.err.not_between_rolls")
    if counter:
        tr = next(tr for tr in state.trades if tr.id == counter)
        return Draft(seat=seat, target=tr.proposer, give=list(tr.get), get=list(tr.give),
                     cash=tr.get_cash - tr.give_cash, give_cards=tr.get_cards, get_cards=tr.give_cards, counter=counter)
    return Draft(seat=seat, target=template.partners[0] if template.partners else -1)


def change(state, draft: Draft, op: str) -> Draft:
    """``draft`` after ``op``; what the template does not allow (a deed that is not there, more cash
    than a side holds) is left out, so a draft always stays inside the rules' limits."""
    template = trade_template(state, draft.seat)
    if template is None:
        return draft
    d = msgspec.structs.replace(draft, typing="")
    partner = d.target if d.target in template.partners else -1
    if op[0] == "p" and not d.counter:
        seat = int(op[1:])
        if seat in template.partners and seat != d.target:
            d.target, d.get, d.get_cards = seat, [], 0
            d.cash = min(d.cash, template.cash)
        return d
    if op[0] in "my":
        sq = int(op[1:])
        side, allowed = (d.give, template.mine) if op[0] == "m" else (d.get, template.theirs.get(partner, ()))
        if sq in side:
            side.remove(sq)
        elif sq in allowed:
            side.append(sq)
        return d
    if op[0] == "c":
        amount = int(op[2:])
        d.cash += amount if op[1] == "p" else -amount
    elif op == "z":
        d.cash = 0
    elif op == "j":
        d.give_cards = 0 if d.give_cards or not template.cards else 1
    elif op == "i":
        d.get_cards = 0 if d.get_cards or not template.their_cards.get(partner, 0) else 1
    elif op in ("xy", "xt"):
        d.typing = op[1]
    return clamp(template, d)


def clamp(template, d: Draft) -> Draft:
    """Cash within what each side holds."""
    their = template.their_cash.get(d.target, 0)
    d.cash = max(-their, min(template.cash, d.cash))
    return d


def chosen(state, draft: Draft, op: str, values: list[str]) -> Draft:
    """A select menu's choice (``vp`` the partner, ``vm`` / ``vy`` the deeds of either side, the
    whole side at once); what the template does not allow is left out."""
    template = trade_template(state, draft.seat)
    picked = [int(v) for v in values if isinstance(v, str) and v.isdigit() and len(v) <= 2]
    if template is None:
        return draft
    if op == "vp":
        return change(state, draft, f"p{picked[0]}") if picked else draft
    d = msgspec.structs.replace(draft, typing="")
    if op == "vm":
        d.give = sorted({sq for sq in picked if sq in template.mine})
    else:
        d.get = sorted({sq for sq in picked if sq in template.theirs.get(d.target, ())})
    return d


def amount(text: str) -> int | None:
    """A typed amount: digits, commas and the money sign allowed ("1,500", "¥1500", "1500元")."""
    digits = (text or "").strip()
    for mark in (",", "，", "元", "$", "¥", " "):
        digits = digits.replace(mark, "")
    if not digits:
        return 0
    if not re.fullmatch(r"[0-9]{1,8}", digits) or int(digits) > TYPED_MAX:
        return None
    return int(digits)


def typed_both(state, draft: Draft, you: str, them: str) -> Draft | None:
    """Both amounts typed at once (Discord's form): None when either is not an amount."""
    mine, theirs = amount(you), amount(them)
    template = trade_template(state, draft.seat)
    if mine is None or theirs is None or template is None:
        return None
    return clamp(template, msgspec.structs.replace(draft, cash=mine - theirs, typing=""))


def typed(state, draft: Draft, text: str) -> Draft | None:
    """The amount a player typed for the side they asked to type (None: not a number)."""
    value = amount(text) if (text or "").strip() else None
    template = trade_template(state, draft.seat)
    if value is None or not draft.typing or template is None:
        return None
    d = msgspec.structs.replace(draft, cash=value if draft.typing == "y" else -value, typing="")
    return clamp(template, d)


# -- what a front end shows ----------------------------------------------------------------------------


def _signed(amount: int, ruleset: str, lang: str) -> str:
    return ("+" if amount > 0 else "") + money(ruleset, amount, lang)


def summary(state, draft: Draft, lang: str, names: dict[int, str], ruleset: str) -> str:
    """The draft in words: to whom, each side's terms, each side's net value (the AI's value model:
    group completion and rent potential count, not only printed prices), and, when the offer would
    be refused as it stands, why."""
    who = {s: party_name(s, lang, names) for s in range(len(state.players))}
    partner = who.get(draft.target, "?")
    lines = [t(lang, "trade.title_counter", trade=draft.counter, name=partner) if draft.counter
             else t(lang, "trade.title", name=partner if draft.target >= 0 else t(lang, "trade.nobody_yet"))]
    give = trade_terms(sorted(draft.give), max(draft.cash, 0), draft.give_cards, lang, ruleset)
    get = trade_terms(sorted(draft.get), max(-draft.cash, 0), draft.get_cards, lang, ruleset)
    lines += [t(lang, "trade.you_give", terms=give), t(lang, "trade.you_get", terms=get)]
    if draft.target >= 0:
        mine, theirs, *_ = exchange_gain(state, draft.seat, draft.target, draft.get, draft.give,
                                         cash_in=max(-draft.cash, 0), cash_out=max(draft.cash, 0),
                                         cards_in=draft.get_cards, cards_out=draft.give_cards)
        lines.append(t(lang, "trade.net", you=_signed(mine, ruleset, lang), name=partner,
                       them=_signed(theirs, ruleset, lang)))
        problem = proposal_problem(state, draft.seat, draft.action())
        if problem is not None:
            lines.append("⚠ " + explain_error(RuleError(problem[0], problem[1], **problem[2]), lang, ruleset, names))
    return "\n".join(lines)


@dataclass
class Controls:
    """What a builder offers to press, structured so that each front end lays it out its own way
    (Telegram: rows of buttons; Discord: select menus and buttons; the web: checkboxes). Items are
    ``(label, value, chosen)``; buttons ``(label, op)``."""

    partners: list[tuple[str, int, bool]] = field(default_factory=list)  # empty: the partner is fixed
    mine: list[tuple[str, int, bool]] = field(default_factory=list)
    theirs: list[tuple[str, int, bool]] = field(default_factory=list)
    cash: list[tuple[str, str]] = field(default_factory=list)
    cards: list[tuple[str, str]] = field(default_factory=list)
    typing: list[tuple[str, str]] = field(default_factory=list)
    finish: list[tuple[str, str]] = field(default_factory=list)


TICK = "✅ "


def controls(state, draft: Draft, lang: str, names: dict[int, str], ruleset: str) -> Controls:
    """The builder's choices now: partners, my deeds, theirs, cash steps, jail cards, then type /
    send / close."""
    template = trade_template(state, draft.seat)
    close = (t(lang, "trade.btn.close"), "q")
    if template is None:
        return Controls(finish=[close])
    c = Controls()
    if not draft.counter and len(template.partners) > 1:
        c.partners = [(party_name(p, lang, names), p, p == draft.target) for p in template.partners]
    c.mine = [(square_name(ruleset, sq, lang), sq, sq in draft.give) for sq in template.mine]
    c.theirs = [(square_name(ruleset, sq, lang), sq, sq in draft.get) for sq in template.theirs.get(draft.target, ())]
    small, big = steps(ruleset)
    partner = party_name(draft.target, lang, names)
    c.cash = ([(t(lang, "trade.btn.you_pay", amount=money(ruleset, n, lang)), f"cp{n}") for n in (small, big)]
              + [(t(lang, "trade.btn.they_pay", name=partner, amount=money(ruleset, n, lang)), f"cm{n}")
                 for n in (small, big)])
    if template.cards:
        c.cards.append(((TICK if draft.give_cards else "") + t(lang, "trade.btn.give_card"), "j"))
    if template.their_cards.get(draft.target, 0):
        c.cards.append(((TICK if draft.get_cards else "") + t(lang, "trade.btn.ask_card"), "i"))
    c.typing = [(t(lang, "trade.btn.type_you"), "xy"), (t(lang, "trade.btn.type_them", name=partner), "xt"),
                (t(lang, "trade.btn.no_cash"), "z")]
    c.finish = [(t(lang, "trade.btn.send"), "s"), close]
    return c


def button_rows(c: Controls, lang: str) -> list[list[tuple[str, str]]]:
    """The controls as rows of ``(label, op)`` buttons (a chosen item carries a tick)."""
    rows: list[list[tuple[str, str]]] = []
    if c.partners:
        rows.append([((TICK if chosen else "") + label, f"p{seat}") for label, seat, chosen in c.partners])
    for items, op, key in ((c.mine, "m", "trade.btn.give"), (c.theirs, "y", "trade.btn.ask")):
        buttons = [((TICK if chosen else "") + t(lang, key, square=label), f"{op}{sq}") for label, sq, chosen in items]
        rows.extend(buttons[i:i + 2] for i in range(0, len(buttons), 2))
    rows += [row for row in (c.cash, c.cards, c.typing, c.finish) if row]
    return rows


def _showing(state, draft: Draft, lang: str, names: dict[int, str], ruleset: str, **more) -> Shown:
    return Shown(text=summary(state, draft, lang, names, ruleset),
                 controls=controls(state, draft, lang, names, ruleset), draft=draft, **more)


# -- one door for every front end ------------------------------------------------------------------------


async def press(service, table: int, user: str, op: str, lang: str, values: list[str] | None = None) -> Shown:
    """A press on a builder (or on "Propose a trade" / "Counter"): the draft changed and stored, the
    offer sent, or a private alert saying why not."""
    if not isinstance(op, str) or not OP.fullmatch(op):
        return Shown(alert=t(lang, "service.bad_token"))
    snap = await service.snapshot(table)
    seat = snap.seat_of(user) if snap is not None else None
    if snap is None or snap.game != "board" or snap.row.status != "running" or seat is None:
        return Shown(alert=t(lang, "service.not_a_player" if snap is not None and snap.row.status == "running"
                             else "trade.closed"), closed=True)
    ruleset, names, state = snap.row.ruleset, snap.names, snap.state
    if op == "q":
        await drop(service, table, user)
        return Shown(text=t(lang, "trade.closed"), closed=True)
    draft = await load(service, table, user)
    if op == "n" or op[0] == "k":
        fresh = start(state, seat, int(op[1:]) if op[0] == "k" else 0)
        if isinstance(fresh, RuleError):
            return Shown(alert=explain_error(fresh, lang, ruleset, names))
        draft = fresh
    elif draft is None or draft.seat != seat:
        return Shown(alert=t(lang, "trade.closed"), closed=True)
    elif op == "s":
        outcome = await service.offer(user, table, draft.action())
        if not outcome.ok:  # the same wording as a refused button press
            refusal = refusal_text(outcome, lang, "board", ruleset, names)
            return _showing(state, draft, lang, names, ruleset, alert=refusal)
        await drop(service, table, user)
        text = t(lang, "trade.sent", name=party_name(draft.target, lang, names)) + "\n" + \
            summary(state, draft, lang, names, ruleset).split("\n", 1)[1].split("\n⚠")[0]
        sent = next((e.trade.id for e in outcome.events if type(e).__name__ == "TradeProposed"), None)
        return Shown(text=text, closed=True, draft=draft, sent=sent)
    elif op[0] == "v":
        draft = chosen(state, draft, op, list(values or []))
    elif op == "xm":
        typed_draft = typed_both(state, draft, *(list(values or []) + ["", ""])[:2])
        if typed_draft is None:
            return _showing(state, draft, lang, names, ruleset,
                            alert=t(lang, "trade.bad_amount", most=money(ruleset, TYPED_MAX, lang)))
        draft = typed_draft
    else:
        draft = change(state, draft, op)
    await save(service, table, user, draft)
    shown = _showing(state, draft, lang, names, ruleset)
    if draft.typing:
        await keyvalue.set_value(service.engine, typing_key(user), str(table))
        shown.typing = draft.typing
        limit = template_cash(state, draft)
        shown.prompt = t(lang, "trade.type_prompt_you" if draft.typing == "y" else "trade.type_prompt_them",
                         name=party_name(draft.target, lang, names), most=money(ruleset, limit, lang))
    return shown


@dataclass
class CashForm:
    """What a form for both amounts shows: the amounts now, at most what each side holds."""

    you: int
    them: int
    most_you: str
    most_them: str
    partner: str


async def form(service, table: int, user: str, lang: str) -> CashForm | None:
    """The builder's cash as a form fills it in; None when the builder is closed."""
    draft = await load(service, table, user)
    snap = await service.snapshot(table)
    if draft is None or snap is None or snap.state is None or snap.seat_of(user) != draft.seat:
        return None
    template = trade_template(snap.state, draft.seat)
    mine = template.cash if template else 0
    theirs = template.their_cash.get(draft.target, 0) if template else 0
    return CashForm(max(draft.cash, 0), max(-draft.cash, 0), f"{mine:,}", f"{theirs:,}",
                    party_name(draft.target, lang, snap.names))


def template_cash(state, draft: Draft) -> int:
    template = trade_template(state, draft.seat)
    if template is None:
        return 0
    return template.cash if draft.typing == "y" else template.their_cash.get(draft.target, 0)


async def typing_table(service, user: str) -> int | None:
    """The table whose builder waits for ``user``'s typed amount, if any."""
    raw = await keyvalue.get_value(service.engine, typing_key(user))
    return int(raw) if raw is not None and raw.isdigit() else None


async def typed_amount(service, user: str, text: str, lang: str) -> tuple[int, Shown] | None:
    """A number a player typed after "Type an amount": (table, what the builder shows now), or
    None when no builder of theirs waits for one (the text is not for us)."""
    table = await typing_table(service, user)
    if table is None:
        return None
    snap = await service.snapshot(table)
    draft = await load(service, table, user)
    if snap is None or draft is None or snap.row.status != "running" or snap.seat_of(user) != draft.seat:
        await keyvalue.delete_value(service.engine, typing_key(user))
        return None
    ruleset, names, state = snap.row.ruleset, snap.names, snap.state
    changed = typed(state, draft, text)
    if changed is None:
        return table, Shown(alert=t(lang, "trade.bad_amount", most=money(ruleset, template_cash(state, draft), lang)),
                            draft=draft, typing=draft.typing)
    await keyvalue.delete_value(service.engine, typing_key(user))
    await save(service, table, user, changed)
    return table, _showing(state, changed, lang, names, ruleset)
