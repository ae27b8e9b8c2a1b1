"""Deal in words: button labels, log lines, refusals and a text picture of the table.

The platform-neutral text presenter for 大富翁纸牌. Every adapter (console, Telegram, Discord)
shows the same sentences, so they are made here once, from catalogue keys (``words.i18n``) and the
deck's own card and colour names (``data/deal/deck.json``).

Two promises about hidden information:
- ``describe_event`` passes every event through ``rules.event_for`` for the viewer first, so a
  card drawn by someone else, or put under the draw pile by someone else, is never named;
- ``render_table`` reads only a ``view(state, seat)`` dict, never the raw state, so it cannot
  show a hand or the draw pile the view does not contain.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.core.errors import RuleError
from engine.deal import rules
from engine.deal.cards import CARDS, COLOURS, KEY, KIND, N_CARDS, SET_SIZE, VALUE
from engine.deal.model import (
    Accept,
    ActionPlayed,
    AutoPay,
    BankCard,
    Banked,
    BuildingPlaced,
    ConfirmPayment,
    DemandCancelled,
    DemandOpened,
    Discard,
    Discarded,
    Drew,
    EndMatch,
    EndTurn,
    GameOver,
    GameStarted,
    JustSayNo,
    LayProperty,
    MoveProperty,
    Paid,
    PlaceBuilding,
    PlayBirthday,
    PlayBuilding,
    PlayDealBreaker,
    PlayDebtCollector,
    PlayForcedDeal,
    PlayPassGo,
    PlayRent,
    PlaySlyDeal,
    PropertyLaid,
    PropertyMoved,
    PropertyTaken,
    Reshuffled,
    SaidNo,
    TogglePayment,
    TurnEnded,
    TurnStarted,
)
from words.i18n import LANGS, addressed_to_you, normalise_lang, t

# How a parameter is shown, by its name: the engine's messages carry ids, players read names.
CARD_PARAMS = frozenset({"card", "hotel", "replace", "give", "take"})
SEAT_PARAMS = frozenset({"target", "current", "seat", "attacker", "payer", "payee", "from_seat", "to_seat"})
CARD_LIST_PARAMS = frozenset({"cards"})
SEAT_LIST_PARAMS = frozenset({"targets", "winners", "order"})
PAY_KINDS = frozenset(rules.PAY_KINDS)
DEMAND_KINDS = frozenset({"rent", "debt", "birthday", "sly_deal", "forced_deal", "deal_breaker"})

Names = Mapping[int, str]


def _lang(lang: str | None) -> str:
    return lang if lang in LANGS else normalise_lang(lang)


# -- names ---------------------------------------------------------------------------------------


def card_name(card_id: int | None, lang: str) -> str:
    """The card's printed name in ``lang``; a hidden or unknown id reads "a hidden card"."""
    lang = _lang(lang)
    if not isinstance(card_id, int) or not 0 <= card_id < len(CARDS):
        return t(lang, "ui.hidden_card")
    names = CARDS[card_id].names
    return names.get(lang) or names["en"]


def colour_name(colour: str | None, lang: str) -> str:
    lang = _lang(lang)
    if colour is None:
        return t(lang, "deal.ui.no_colour")  # D-06: a multicolour wild laid alone
    col = COLOURS.get(colour)
    if col is None:
        return str(colour)
    return col.names.get(lang) or col.names["en"]


def player_name(seat: int | None, lang: str, names: Names) -> str:
    lang = _lang(lang)
    if seat is None:
        return t(lang, "ui.nobody")
    try:
        return names[seat]
    except (KeyError, IndexError, TypeError):
        return t(lang, "ui.player_name", n=seat + 1) if isinstance(seat, int) else str(seat)


def _kind_name(kind: str, lang: str) -> str:
    """The name of a kind of card: an action card's printed name, or "rent" for rent cards."""
    for card in CARDS:
        if card.action == kind:
            return card_name(card.id, lang)
    if kind == "rent":
        return t(lang, "deal.ui.rent_card")
    return str(kind)


def _join(items: Iterable[str], lang: str) -> str:
    return t(lang, "ui.list_sep").join(items)


def localise_params(params: Mapping[str, object], lang: str, names: Names) -> dict[str, object]:
    """Engine parameters as a player reads them: card ids -> card names, seats -> player names,
    colour keys -> colour names, group indexes -> the 1-based pile numbers the table shows."""
    lang = _lang(lang)
    out: dict[str, object] = {}
    for key, value in params.items():
        if key in CARD_PARAMS:
            out[key] = card_name(value, lang)  # type: ignore[arg-type]
        elif key in SEAT_PARAMS:
            out[key] = player_name(value, lang, names)  # type: ignore[arg-type]
        elif key == "colour":
            out[key] = colour_name(value, lang)  # type: ignore[arg-type]
        elif key == "expected":
            out[key] = _kind_name(str(value), lang)
        elif key == "group":
            out[key] = value + 1 if isinstance(value, int) else "?"
        elif key in CARD_LIST_PARAMS:
            out[key] = _join((card_name(c, lang) for c in value), lang)  # type: ignore[union-attr]
        elif key in SEAT_LIST_PARAMS:
            out[key] = _join((player_name(s, lang, names) for s in value), lang)  # type: ignore[union-attr]
        else:
            out[key] = value
    return out


def _say(lang: str, key: str, names: Names, **params: object) -> str:
    return t(lang, key, **localise_params(params, lang, names))


# -- refusals ------------------------------------------------------------------------------------


def explain_error(err: RuleError, lang: str, names: Names) -> str:
    """Why not, and what to do instead, with the rule id so a player can look it up."""
    lang = _lang(lang)
    message = _say(lang, err.key, names, **err.params)
    return t(lang, "ui.error", message=message, rule=err.rule)


# -- button labels -------------------------------------------------------------------------------


def _as_view(ctx, action) -> dict:
    """A view dict from either a view or a raw state (then the acting seat's own view)."""
    if isinstance(ctx, dict):
        return ctx
    seat = rules.current_seat(ctx)
    demand_id = getattr(action, "demand", None)
    for d in ctx.pending:
        if d.id == demand_id:
            seat = d.attacker if d.stage in ("counter", "place") else d.target
    return rules.view(ctx, seat)


def _group(view: dict, seat: int | None, index: int | None) -> dict:
    try:
        return view["players"][seat]["groups"][index]
    except (IndexError, KeyError, TypeError):
        return {}


def _twin_elsewhere(view: dict, seat: int | None, card: int) -> int | None:
    """The pile ``card`` lies in when a card of the same name lies in another of ``seat``'s piles
    (two "Wild: Pink/Orange" in two piles: their moves would read alike), else None."""
    try:
        groups = view["players"][seat]["groups"]
    except (IndexError, KeyError, TypeError):
        return None
    here = next((i for i, g in enumerate(groups) if card in g.get("cards", ())), None)
    if here is None:
        return None
    for i, g in enumerate(groups):
        if i != here and any(c != card and KEY[c] == KEY[card] for c in g.get("cards", ())):
            return here
    return None


def _demand(view: dict, demand_id: int) -> dict:
    return next((d for d in view.get("pending", []) if d["id"] == demand_id), {})


def demand_text(d: dict, lang: str, names: Names) -> str:
    """What a pending demand (an entry of ``view["pending"]``) asks for, e.g. "3M rent"."""
    kind = d.get("kind")
    key = f"deal.demand.{kind}" if kind in DEMAND_KINDS else "deal.demand.other"
    return _say(lang, key, names, amount=d.get("amount", 0), take=d.get("take"), give=d.get("give"))



def prompt_line(view: dict, decision, lang: str, names) -> str:
    """The question put to a seat, worded for the kind of decision it owes."""
    seat = decision.seat
    who = player_name(seat, lang, names)
    answerer = "target" if decision.kind in ("respond", "pay") else "attacker"
    pending = next((d for d in view["pending"] if d[answerer] == seat and d["stage"] == decision.kind), None)
    if pending is None:
        return t(lang, f"deal.ui.prompt.{decision.kind}", seat=who)
    return t(lang, f"deal.ui.prompt.{decision.kind}", seat=who,
             attacker=player_name(pending["attacker"], lang, names),
             target=player_name(pending["target"], lang, names),
             amount=pending["amount"], what=demand_text(pending, lang, names))

def _lay_key(prefix: str, colour: str | None, group: int | None) -> str:
    plain = "plain_" if colour is None else ""
    return f"deal.act.{prefix}_{plain}{'new' if group is None else 'onto'}"


def describe_action(ctx, action, lang: str, names: Names) -> str:
    """A short button label for ``action``; ``ctx`` is a view dict (preferred) or the state."""
    lang = _lang(lang)
    view = _as_view(ctx, action)
    cur = view.get("current")
    say = _say
    if isinstance(action, EndTurn):
        return say(lang, "deal.act.end_turn", names)
    if isinstance(action, BankCard):  # a money card's name is its value already
        key = "deal.act.bank_money" if KIND[action.card] == "money" else "deal.act.bank"
        return say(lang, key, names, card=action.card, value=VALUE[action.card])
    if isinstance(action, LayProperty):
        return say(lang, _lay_key("lay", action.colour, action.group), names,
                   card=action.card, colour=action.colour, group=action.group)
    if isinstance(action, MoveProperty):
        if action.replace is not None:
            label = say(lang, "deal.act.move_replace", names, card=action.card, colour=action.colour,
                        group=action.group, replace=action.replace)
        else:
            label = say(lang, _lay_key("move", action.colour, action.group), names,
                        card=action.card, colour=action.colour, group=action.group)
        source = _twin_elsewhere(view, cur, action.card)
        return label if source is None else label + say(lang, "deal.act.from_pile", names, group=source)
    if isinstance(action, PlayPassGo):
        return say(lang, "deal.act.pass_go", names, card=action.card)
    if isinstance(action, PlayBuilding):
        colour = _group(view, cur, action.group).get("colour")
        return say(lang, "deal.act.build", names, card=action.card, colour=colour, group=action.group)
    if isinstance(action, PlayDebtCollector):
        return say(lang, "deal.act.debt_collector", names, card=action.card, target=action.target,
                   amount=rules.DEBT_AMOUNT)
    if isinstance(action, PlayBirthday):
        return say(lang, "deal.act.birthday", names, card=action.card, amount=rules.BIRTHDAY_AMOUNT)
    if isinstance(action, PlayRent):
        g = _group(view, cur, action.group)
        mult = 2 ** len(action.doubles)
        params = localise_params({"colour": g.get("colour"), "card": action.card}, lang, names)
        params["target"] = (player_name(action.target, lang, names) if action.target is not None
                            else t(lang, "deal.ui.everyone"))
        key = "deal.act.rent_doubled" if action.doubles else "deal.act.rent"
        return t(lang, key, mult=mult, amount=g.get("rent", 0) * mult, **params)
    if isinstance(action, PlaySlyDeal):
        return say(lang, "deal.act.sly_deal", names, card=action.card, take=action.take, target=action.target)
    if isinstance(action, PlayForcedDeal):
        return say(lang, "deal.act.forced_deal", names, card=action.card, give=action.give,
                   take=action.take, target=action.target)
    if isinstance(action, PlayDealBreaker):
        colour = _group(view, action.target, action.group).get("colour")
        return say(lang, "deal.act.deal_breaker", names, card=action.card, target=action.target, colour=colour)
    if isinstance(action, JustSayNo):
        what = demand_text(_demand(view, action.demand), lang, names)
        return t(lang, "deal.act.just_say_no", card=card_name(action.card, lang), what=what)
    if isinstance(action, Accept):
        d = _demand(view, action.demand)
        key = "deal.act.accept_counter" if d.get("stage") == "counter" else "deal.act.accept"
        return t(lang, key, what=demand_text(d, lang, names))
    if isinstance(action, TogglePayment):
        selected = _demand(view, action.demand).get("selected") or []
        key = "deal.act.toggle_remove" if action.card in selected else "deal.act.toggle_add"
        return t(lang, key, card=_valued(action.card, lang))
    if isinstance(action, ConfirmPayment):
        selected = _demand(view, action.demand).get("selected") or []
        return t(lang, "deal.act.confirm_pay", total=sum(VALUE[c] for c in selected))
    if isinstance(action, AutoPay):
        return t(lang, "deal.act.auto_pay", amount=_demand(view, action.demand).get("amount", 0))
    if isinstance(action, PlaceBuilding):
        if action.group is None:
            return say(lang, "deal.act.place_bank", names, card=action.card)
        owner = _demand(view, action.demand).get("attacker", cur)
        colour = _group(view, owner, action.group).get("colour")
        return say(lang, "deal.act.place_group", names, card=action.card, colour=colour, group=action.group)
    if isinstance(action, Discard):
        return say(lang, "deal.act.discard", names, card=action.card)
    if isinstance(action, EndMatch):
        return t(lang, "deal.act.end_match")
    return type(action).__name__


# -- log lines -----------------------------------------------------------------------------------


def _describe_played(ev: ActionPlayed, lang: str, names: Names) -> str:
    p = {"seat": ev.seat, "card": ev.card, "targets": ev.targets, "amount": ev.amount, "colour": ev.colour}
    key = {
        "pass_go": "deal.ev.played_pass_go",
        "house": "deal.ev.played_building",
        "hotel": "deal.ev.played_building",
        "debt_collector": "deal.ev.played_debt",
        "birthday": "deal.ev.played_birthday",
        "sly_deal": "deal.ev.played_sly",
        "forced_deal": "deal.ev.played_forced",
        "deal_breaker": "deal.ev.played_breaker",
    }.get(ev.action, "deal.ev.played")
    if ev.action == "rent":
        key = "deal.ev.played_rent_doubled" if ev.doubles else "deal.ev.played_rent"
        p["mult"] = 2 ** len(ev.doubles)
    return _say(lang, key, names, **p)


def describe_event(event, lang: str, names: Names, viewer: int | None) -> str:
    """One log line for ``event`` as ``viewer`` (a seat, or None for the public) may see it."""
    lang = _lang(lang)
    ev = rules.event_for(event, viewer)  # hidden cards are removed before anything is worded
    say = _say
    if isinstance(ev, GameStarted):
        if ev.rolls:
            rolls = _join((f"{player_name(s, lang, names)} {a}+{b}" for s, a, b in ev.rolls), lang)
            return say(lang, "deal.ev.game_started_rolls", names, order=ev.order, rolls=rolls)
        return say(lang, "deal.ev.game_started", names, order=ev.order)
    if isinstance(ev, TurnStarted):
        return say(lang, "deal.ev.turn_started", names, seat=ev.seat, turn=ev.turn)
    if isinstance(ev, Drew):
        if ev.cards:
            return say(lang, "deal.ev.drew_cards", names, seat=ev.seat, cards=ev.cards)
        key = {0: "deal.ev.drew_none", 1: "deal.ev.drew_hidden_one"}.get(ev.count, "deal.ev.drew_hidden")
        return say(lang, key, names, seat=ev.seat, count=ev.count)
    if isinstance(ev, Reshuffled):
        return say(lang, "deal.ev.reshuffled", names, count=ev.count)
    if isinstance(ev, Banked):
        key = "deal.ev.banked_money" if KIND[ev.card] == "money" else "deal.ev.banked"
        return say(lang, key, names, seat=ev.seat, card=ev.card, value=VALUE[ev.card])
    if isinstance(ev, PropertyLaid):
        return say(lang, "deal.ev.property_laid", names, seat=ev.seat, card=ev.card, colour=ev.colour)
    if isinstance(ev, PropertyMoved):
        return say(lang, "deal.ev.property_moved", names, seat=ev.seat, card=ev.card, colour=ev.colour,
                   group=ev.group)
    if isinstance(ev, ActionPlayed):
        return _describe_played(ev, lang, names)
    if isinstance(ev, DemandOpened):
        if ev.kind in PAY_KINDS:
            return say(lang, "deal.ev.demand_pay", names, target=ev.target, attacker=ev.attacker, amount=ev.amount)
        return say(lang, "deal.ev.demand_other", names, target=ev.target, attacker=ev.attacker,
                   what=_kind_name(ev.kind, lang))
    if isinstance(ev, SaidNo):
        return say(lang, "deal.ev.said_no", names, seat=ev.seat, card=ev.card, refusals=ev.refusals)
    if isinstance(ev, DemandCancelled):
        if ev.kind:
            return say(lang, "deal.ev.demand_cancelled_for", names, target=ev.target, attacker=ev.attacker,
                       what=_kind_name(ev.kind, lang))
        return t(lang, "deal.ev.demand_cancelled")
    if isinstance(ev, Paid):
        key = "deal.ev.paid" if ev.cards else "deal.ev.paid_nothing"
        return say(lang, key, names, payer=ev.payer, payee=ev.payee, total=ev.total, cards=ev.cards)
    if isinstance(ev, PropertyTaken):
        return say(lang, "deal.ev.property_taken", names, from_seat=ev.from_seat, to_seat=ev.to_seat,
                   cards=ev.cards)
    if isinstance(ev, BuildingPlaced):
        key = "deal.ev.building_banked" if ev.group is None else "deal.ev.building_placed"
        return say(lang, key, names, seat=ev.seat, card=ev.card, group=ev.group)
    if isinstance(ev, Discarded):
        if ev.to_pile == "discard":
            key = "deal.ev.discarded_pile"
        else:
            key = "deal.ev.discarded_hidden" if ev.card < 0 else "deal.ev.discarded_under"
        return say(lang, key, names, seat=ev.seat, card=ev.card)
    if isinstance(ev, TurnEnded):
        return say(lang, "deal.ev.turn_ended", names, seat=ev.seat)
    if isinstance(ev, GameOver):
        if not ev.winners:
            return t(lang, "deal.ev.game_over_none")
        key = {"sets": "deal.ev.game_over_sets", "time": "deal.ev.game_over_time"}.get(
            ev.reason, "deal.ev.game_over_other")
        return say(lang, key, names, winners=ev.winners)
    return type(ev).__name__


def winners_line(winners: list[int], lang: str, names: Names) -> str:
    lang = _lang(lang)
    if not winners:
        return t(lang, "deal.ui.no_winner")
    key = "deal.ui.winner" if len(winners) == 1 else "deal.ui.winners"
    return t(lang, key, names=_join((player_name(s, lang, names) for s in winners), lang))


# -- the table -----------------------------------------------------------------------------------


def _cards(cards: Iterable[int], lang: str) -> str:
    text = _join((card_name(c, lang) for c in cards), lang)
    return text or t(lang, "deal.ui.empty")


def _valued(card: int, lang: str) -> str:
    """A banked card with its worth; a money card's name already says it."""
    if KIND[card] == "money":
        return card_name(card, lang)
    return t(lang, "deal.ui.card_value", card=card_name(card, lang), value=VALUE[card])


def _group_line(n: int, g: dict, lang: str) -> str:
    if g["colour"] is None:
        return t(lang, "deal.ui.group_line_plain", n=n, colour=colour_name(None, lang),
                 cards=_cards(g["cards"], lang))
    buildings = "".join(
        t(lang, "deal.ui.with_building", card=card_name(b, lang)) for b in (g["house"], g["hotel"]) if b is not None
    )
    return t(
        lang, "deal.ui.group_line", n=n, colour=colour_name(g["colour"], lang), count=len(g["cards"]),
        size=SET_SIZE[g["colour"]], complete=t(lang, "deal.ui.complete") if g["complete"] else "",
        buildings=buildings, rent=g["rent"], cards=_cards(g["cards"], lang),
    )


def _header(view: dict, lang: str, names: Names) -> list[str]:
    cur = view["current"]
    if view["phase"] == "over":
        return [f"== {t(lang, 'deal.ui.game_over')} ==", winners_line(view["winners"], lang, names)]
    if view["phase"] == "discard":
        count = view["players"][cur]["hand_count"] - rules.HAND_LIMIT
        line = t(lang, "deal.ui.header_discard", turn=view["turn"], seat=player_name(cur, lang, names), count=count)
    else:
        line = t(lang, "deal.ui.header", turn=view["turn"], seat=player_name(cur, lang, names),
                 plays=view["plays_left"])
    return [f"== {line} =="]


def render_table(view: dict, lang: str, names: Names) -> str:
    """A multi-line picture of a ``view(state, seat)`` dict: piles, every player's table, the
    viewer's hand when the view holds it, and any answers still awaited. Reads only the view."""
    lang = _lang(lang)
    lines = _header(view, lang, names)
    piles = t(lang, "deal.ui.piles", draw=view["draw_count"], discard=view["discard_count"])
    if view.get("discard_top") is not None:
        piles += t(lang, "deal.ui.discard_top", card=card_name(view["discard_top"], lang))
    lines.append(piles)
    by_seat = {p["seat"]: p for p in view["players"]}
    for seat in view.get("order") or sorted(by_seat):
        p = by_seat[seat]
        on_turn = seat == view["current"] and view["phase"] != "over"
        lines.append(t(lang, "deal.ui.player_line", marker="▶ " if on_turn else "  ",
                       seat=player_name(seat, lang, names), bank=p["bank_total"], hand=p["hand_count"],
                       sets=p["complete_sets"]))
        if not p["groups"]:
            lines.append("     " + t(lang, "deal.ui.no_properties"))
        for i, g in enumerate(p["groups"]):
            lines.append("     " + _group_line(i + 1, g, lang))
        if p["bank"]:
            bank = _join((_valued(c, lang) for c in sorted(p["bank"], key=lambda c: (-VALUE[c], c))), lang)
            lines.append("     " + t(lang, "deal.ui.bank_line", cards=bank))
        if "hand" in p:  # present only in the view of the hand's owner
            lines.append("     " + t(lang, "deal.ui.hand_line", count=len(p["hand"]), cards=_cards(p["hand"], lang)))
    return "\n".join(lines + pending_lines(view, lang, names))


def pending_lines(view: dict, lang: str, names: Names) -> list[str]:
    """What the table waits for: each open demand, and the cards chosen to pay it so far."""
    lang = _lang(lang)
    lines = []
    for d in view.get("pending", []):
        stage = t(lang, f"deal.ui.stage.{d['stage']}", attacker=player_name(d["attacker"], lang, names))
        lines.append(t(lang, "deal.ui.pending", target=player_name(d["target"], lang, names),
                       attacker=player_name(d["attacker"], lang, names), what=demand_text(d, lang, names),
                       stage=stage))
        if d.get("selected"):
            lines.append("     " + t(lang, "deal.ui.selected", cards=_cards(d["selected"], lang),
                                     total=sum(VALUE[c] for c in d["selected"]), amount=d["amount"]))
    return lines


def discard_pile_text(cards: list[int], lang: str) -> str:
    """The whole discard pile as one text (D-18: for a player allowed to look through it), bottom
    first so the top card is the last named."""
    lang = _lang(lang)
    if not cards:
        return t(lang, "deal.ui.discard_empty")
    return t(lang, "deal.ui.discard_list", count=len(cards), cards=_cards(cards, lang))


def private_lines(view: dict, seat: int, decisions: list, lang: str, names: Names) -> list[str]:
    """A player's own message, short: their hand, the cards they chose to pay, and what they are
    asked now (the table itself, and whose turn it is, are in the group's message; the less this
    says, the less often it changes)."""
    lang = _lang(lang)
    lines = []
    me = next((p for p in view["players"] if p["seat"] == seat), None)
    if me is not None and "hand" in me:
        lines.append(t(lang, "deal.ui.hand_line", count=len(me["hand"]), cards=_cards(me["hand"], lang)))
    for d in view.get("pending", []):
        if d["target"] == seat and d.get("selected"):
            lines.append(t(lang, "deal.ui.selected", cards=_cards(d["selected"], lang),
                           total=sum(VALUE[c] for c in d["selected"]), amount=d["amount"]))
            if d.get("problem"):  # why there is no "confirm" yet, and what to do
                lines.append(_say(lang, d["problem"]["key"], names, **d["problem"]["params"]))
    # the player's own screen: the question says 你 / you, not their own name
    lines += [addressed_to_you(prompt_line(view, d, lang, names), player_name(d.seat, lang, names))
              for d in decisions]
    return lines


def card_text(card: int, lang: str) -> str:
    """What a Deal card is and does, with its value (a card's sheet on the web: its name is the
    sheet's title, and its id is nobody's business)."""
    if not 0 <= card < N_CARDS:
        return t(lang, "console.help.no_card", number=card, max=N_CARDS - 1)
    c = CARDS[card]
    params: dict[str, object] = {"value": c.value}
    colours = t(lang, "console.or").join(colour_name(k, lang) for k in c.colours)
    if c.kind == "money":
        key = "console.card.money"
    elif c.kind == "property":
        col = COLOURS[c.colours[0]]
        key = "console.card.property"
        params.update(colour=colour_name(col.key, lang), size=col.set_size,
                      rents=" / ".join(f"{r}M" for r in col.rent))
    elif c.kind == "wild":
        key = "console.card.wild" if c.colours else "console.card.wild_any"
        params.update(colours=colours)
    elif c.kind == "rent":
        key = "console.card.rent" if c.colours else "console.card.rent_any"
        params.update(colours=colours)
    else:
        key = f"console.card.{c.action}"
        params.update(debt=rules.DEBT_AMOUNT, birthday=rules.BIRTHDAY_AMOUNT)
    return t(lang, key, **params)


def card_help(card: int, lang: str) -> str:
    """A card's text at the terminal, ``help 12``: its number (the key that plays it) and name first,
    "#12 强制交易：用你的一张物业换…"."""
    if not 0 <= card < N_CARDS:
        return card_text(card, lang)
    return t(lang, "console.card.line", n=card, name=card_name(card, lang), text=card_text(card, lang))
