"""The trade builder every front end shows (B-15), in words: the service keeps each player's draft
and applies their presses by the game's rules (``engine.service.trade_desk``, the board's
``engine.board.trade_draft``); this module words what the desk answers, the same for every front
end: the draft's summary (each side's terms and net value by the AI's value model, and why the rules
would refuse it as it stands), its controls as ``(label, op)`` items that each front end lays out
its own way, and the result of a press (``Shown``).

Ops ride in signed button data ``t:<table>:<op>`` (``engine.service.trade_desk.OP``): ``n`` a fresh
offer · ``k<id>`` a counter-offer · ``p<seat>`` the partner · ``m<sq>`` / ``y<sq>`` a deed of mine /
of theirs · ``cp<n>`` / ``cm<n>`` cash · ``z`` no cash · ``j`` / ``i`` a jail card · ``xy`` / ``xt``
type an amount · ``s`` send · ``q`` close; with values (Discord's menus and form, the web): ``vp`` /
``vm`` / ``vy``, ``xm``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.chat.screens import refusal_text
from engine.service.trade_desk import OP, DeskAnswer
from words.board_text import explain_error, money, party_name, square_name, trade_terms
from words.i18n import t

__all__ = ["OP", "Controls", "Shown", "button_rows", "controls", "form", "load", "press", "save_message",
           "summary", "typed_amount", "typing_table"]
TYPED_MAX = 10_000_000


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
    draft: object | None = None
    sent: int | None = None  # the id of the offer sent


def _signed(amount: int, ruleset: str, lang: str) -> str:
    return ("+" if amount > 0 else "") + money(ruleset, amount, lang)


def summary(desk, lang: str, names: dict[int, str], ruleset: str) -> str:
    """The draft in words: to whom, each side's terms, each side's net value, and, when the offer
    would be refused as it stands, why."""
    draft = desk.draft
    who = {s: party_name(s, lang, names) for s in range(desk.players)}
    partner = who.get(draft.target, "?")
    lines = [t(lang, "trade.title_counter", trade=draft.counter, name=partner) if draft.counter
             else t(lang, "trade.title", name=partner if draft.target >= 0 else t(lang, "trade.nobody_yet"))]
    give = trade_terms(sorted(draft.give), max(draft.cash, 0), draft.give_cards, lang, ruleset)
    get = trade_terms(sorted(draft.get), max(-draft.cash, 0), draft.get_cards, lang, ruleset)
    lines += [t(lang, "trade.you_give", terms=give), t(lang, "trade.you_get", terms=get)]
    if desk.gain is not None:
        mine, theirs = desk.gain
        lines.append(t(lang, "trade.net", you=_signed(mine, ruleset, lang), name=partner,
                       them=_signed(theirs, ruleset, lang)))
    if desk.problem is not None:
        lines.append("⚠ " + explain_error(desk.problem, lang, ruleset, names))
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


def controls(desk, lang: str, names: dict[int, str], ruleset: str) -> Controls:
    """The builder's choices now: partners, my deeds, theirs, cash steps, jail cards, then type /
    send / close."""
    draft = desk.draft
    close = (t(lang, "trade.btn.close"), "q")
    if not desk.partners:
        return Controls(finish=[close])
    c = Controls()
    if not draft.counter and len(desk.partners) > 1:
        c.partners = [(party_name(p, lang, names), p, p == draft.target) for p in desk.partners]
    c.mine = [(square_name(ruleset, sq, lang), sq, sq in draft.give) for sq in desk.mine]
    c.theirs = [(square_name(ruleset, sq, lang), sq, sq in draft.get) for sq in desk.theirs]
    small, big = desk.steps
    partner = party_name(draft.target, lang, names)
    c.cash = ([(t(lang, "trade.btn.you_pay", amount=money(ruleset, n, lang)), f"cp{n}") for n in (small, big)]
              + [(t(lang, "trade.btn.they_pay", name=partner, amount=money(ruleset, n, lang)), f"cm{n}")
                 for n in (small, big)])
    if desk.cards:
        c.cards.append(((TICK if draft.give_cards else "") + t(lang, "trade.btn.give_card"), "j"))
    if desk.their_cards:
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


def shown(answer: DeskAnswer, lang: str) -> Shown:
    """What the desk answered, in words."""
    names, ruleset = answer.names, answer.ruleset
    if answer.error is not None:  # the rules refuse to open a builder now
        return Shown(alert=explain_error(answer.error, lang, ruleset, names))
    desk = answer.desk
    if desk is None:  # closed by its player, or nothing to build at this table
        if answer.key is None:
            return Shown(text=t(lang, "trade.closed"), closed=True)
        return Shown(alert=t(lang, answer.key, **answer.params), closed=answer.closed)
    text = summary(desk, lang, names, ruleset)
    if answer.sent is not None or (answer.closed and answer.refusal is None):
        sent = t(lang, "trade.sent", name=party_name(desk.draft.target, lang, names))
        return Shown(text=sent + "\n" + text.split("\n", 1)[1].split("\n⚠")[0], closed=True, draft=desk.draft,
                     sent=answer.sent)
    out = Shown(text=text, controls=controls(desk, lang, names, ruleset), draft=desk.draft)
    limit = desk.most_mine if desk.draft.typing == "y" else desk.most_theirs
    if answer.refusal is not None:  # the same wording as a refused button press
        out.alert = refusal_text(answer.refusal, lang, answer.game, ruleset, names)
    elif answer.key == "trade.bad_amount":
        most = limit if answer.typing else TYPED_MAX
        out.alert = t(lang, "trade.bad_amount", most=money(ruleset, most, lang))
    if answer.typing:
        out.typing = answer.typing
        out.prompt = t(lang, "trade.type_prompt_you" if answer.typing == "y" else "trade.type_prompt_them",
                       name=party_name(desk.draft.target, lang, names), most=money(ruleset, limit, lang))
    return out


# -- one door for every front end ------------------------------------------------------------------------


async def press(service, table: int, user: str, op: str, lang: str, values: list[str] | None = None) -> Shown:
    """A press on a builder (or on "Propose a trade" / "Counter"): the draft changed and stored, the
    offer sent, or a private alert saying why not."""
    return shown(await service.trades.press(table, user, op, values), lang)


async def still_open(service, table: int, offer: int) -> bool:
    """Is the sent offer ``offer`` still waiting for its answer?"""
    return await service.trades.still_open(table, offer)


async def load(service, table: int, user: str):
    """The player's draft at the table (its ``message`` is the front end's), or None."""
    return await service.trades.load(table, user)


async def save_message(service, table: int, user: str, message: int) -> None:
    await service.trades.set_message(table, user, message)


async def typing_table(service, user: str) -> int | None:
    """The table whose builder waits for ``user``'s typed amount, if any."""
    return await service.trades.waiting(user)


async def typed_amount(service, user: str, text: str, lang: str) -> tuple[int, Shown] | None:
    """A number a player typed after "Type an amount": (table, what the builder shows now), or
    None when no builder of theirs waits for one (the text is not for us)."""
    found = await service.trades.typed(user, text)
    if found is None:
        return None
    table, answer = found
    return table, shown(answer, lang)


@dataclass
class CashForm:
    """What a form for the offer shows: the amounts now, at most what each side holds, and the
    builder's choices (partner, deeds of both sides, those chosen marked) for a form that offers
    them as select menus (Discord)."""

    you: int
    them: int
    most_you: str
    most_them: str
    partner: str
    controls: Controls | None = None


async def form(service, table: int, user: str, lang: str) -> CashForm | None:
    """The builder's cash as a form fills it in; None when the builder is closed."""
    answer = await service.trades.show(table, user)
    if answer.desk is None:
        return None
    desk = answer.desk
    return CashForm(max(desk.draft.cash, 0), max(-desk.draft.cash, 0), f"{desk.most_mine:,}",
                    f"{desk.most_theirs:,}", party_name(desk.draft.target, lang, answer.names),
                    controls(desk, lang, answer.names, answer.ruleset))
