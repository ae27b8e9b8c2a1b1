"""The steps that lead to each 大富翁纸牌 move, as short labels: what a player picks first, then next.

A flat button per move multiplies the lists (a Forced Deal is my card × their owner × their card:
over a hundred buttons, each too long for a phone's button). Each move here is a path instead —
the hand card (numbered as the hand picture numbers it), then what to do with it, then whose, then
which card — and ``bot.chat.steps`` turns the paths of all legal moves into short keyboards, one
step at a time. Every label is short enough for a half-width Telegram button where it can be, and
the labels of one step never read the same.
"""

from __future__ import annotations

from engine.deal import rules
from engine.deal.cards import KEY, KIND, VALUE
from engine.deal.model import (
    Accept,
    BankCard,
    Discard,
    JustSayNo,
    LayProperty,
    MoveProperty,
    PlayBirthday,
    PlayBuilding,
    PlayDealBreaker,
    PlayDebtCollector,
    PlayForcedDeal,
    PlayPassGo,
    PlayRent,
    PlaySlyDeal,
)
from words.deal_text import (
    Names,
    _as_view,
    _group,
    _lang,
    _say,
    _twin_elsewhere,
    card_name,
    describe_action,
    player_name,
)
from words.i18n import t


def _mine(view: dict) -> dict:
    """The player whose own view this is (the one whose hand it holds)."""
    return next((p for p in view.get("players", []) if "hand" in p), {})


def hand_label(view: dict, card: int, lang: str) -> str:
    """A hand card as the hand picture numbers it: "3 强制交易", "4：10M 货币" (two cards alike: the
    first's number, so that they are one button: they do the same)."""
    hand = _mine(view).get("hand") or []
    name = card_name(card, lang)
    if card not in hand:
        return name
    number = next(i for i, c in enumerate(hand) if KEY[c] == KEY[card]) + 1
    # a money card's name starts with its value: "3 10M" would read "310M", so a colon parts them
    sep = (("：" if lang.startswith("zh") else ": ") if name[:1].isdigit() else " ")
    return f"{number}{sep}{name}"


def _table_card(view: dict, seat: int | None, card: int, lang: str, names: Names) -> str:
    """A card lying on the table, with its pile's number when a twin lies in another pile."""
    pile = _twin_elsewhere(view, seat, card)
    name = card_name(card, lang)
    return name if pile is None else f"{name} ({pile + 1})"


def _one_demand(view: dict, seat: int | None) -> bool:
    """Whether one demand alone waits for ``seat``'s answer (then "accept" says enough)."""
    mine = [d for d in view.get("pending", [])
            if (d.get("target") == seat and d.get("stage") == "respond")
            or (d.get("attacker") == seat and d.get("stage") == "counter")]
    return len(mine) == 1


def action_path(ctx, action, lang: str, names: Names) -> tuple[str, ...]:
    """The labels that lead to ``action``, first step first; a move with nothing to pick is one
    label (its button's)."""
    lang = _lang(lang)
    view = _as_view(ctx, action)
    me = _mine(view).get("seat", view.get("current"))
    say = _say
    if isinstance(action, BankCard):
        key = "deal.step.bank_money" if KIND[action.card] == "money" else "deal.step.bank"
        return hand_label(view, action.card, lang), t(lang, key, value=VALUE[action.card])
    if isinstance(action, LayProperty):
        plain = "plain_" if action.colour is None else ""
        where = "new" if action.group is None else "onto"
        return hand_label(view, action.card, lang), say(lang, f"deal.step.lay_{plain}{where}", names,
                                                         colour=action.colour, group=action.group)
    if isinstance(action, MoveProperty):
        if action.replace is not None:
            to = say(lang, "deal.step.move_replace", names, group=action.group, replace=action.replace)
        else:
            plain = "plain_" if action.colour is None else ""
            to = say(lang, f"deal.step.move_{plain}{'new' if action.group is None else 'onto'}", names,
                     colour=action.colour, group=action.group)
        return t(lang, "deal.step.move"), _table_card(view, me, action.card, lang, names), to
    if isinstance(action, PlayPassGo):
        return hand_label(view, action.card, lang), t(lang, "deal.step.pass_go")
    if isinstance(action, PlayBuilding):
        colour = _group(view, me, action.group).get("colour")
        return hand_label(view, action.card, lang), say(lang, "deal.step.build", names, colour=colour,
                                                         group=action.group)
    if isinstance(action, PlayDebtCollector):
        return (hand_label(view, action.card, lang), t(lang, "deal.step.collect", amount=rules.DEBT_AMOUNT),
                player_name(action.target, lang, names))
    if isinstance(action, PlayBirthday):
        return hand_label(view, action.card, lang), t(lang, "deal.step.birthday", amount=rules.BIRTHDAY_AMOUNT)
    if isinstance(action, PlayRent):
        g = _group(view, me, action.group)
        mult = 2 ** len(action.doubles)
        key = "deal.step.rent_doubled" if action.doubles else "deal.step.rent"
        rent = say(lang, key, names, colour=g.get("colour"), group=action.group, mult=mult,
                   amount=g.get("rent", 0) * mult)
        whom = () if action.target is None else (player_name(action.target, lang, names),)
        return (hand_label(view, action.card, lang), rent, *whom)
    if isinstance(action, PlaySlyDeal):
        return (hand_label(view, action.card, lang), player_name(action.target, lang, names),
                _table_card(view, action.target, action.take, lang, names))
    if isinstance(action, PlayForcedDeal):
        return (hand_label(view, action.card, lang), player_name(action.target, lang, names),
                _table_card(view, action.target, action.take, lang, names),
                t(lang, "deal.step.give", card=_table_card(view, me, action.give, lang, names)))
    if isinstance(action, PlayDealBreaker):
        colour = _group(view, action.target, action.group).get("colour")
        return (hand_label(view, action.card, lang), player_name(action.target, lang, names),
                say(lang, "deal.step.set", names, colour=colour, group=action.group))
    if isinstance(action, (JustSayNo, Accept)) and _one_demand(view, me):
        # the question above the buttons says what it is about: the answer alone
        if isinstance(action, JustSayNo):
            return (t(lang, "deal.step.say_no", card=hand_label(view, action.card, lang)),)
        stage = next((d.get("stage") for d in view.get("pending", []) if d.get("id") == action.demand), None)
        return (t(lang, "deal.step.give_in" if stage == "counter" else "deal.step.accept"),)
    if isinstance(action, Discard):
        return hand_label(view, action.card, lang), t(lang, "deal.step.discard")
    return (describe_action(view, action, lang, names),)
