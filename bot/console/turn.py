"""One person's move at the terminal: their table and question, drawn from their own view; their
keys (``bot.console.keys``), ``help``, ``pile`` and ``trade``; the moves asked again (y/n); and the
rule set's own clocks, checked when the input returns (the terminal reads one line at a time and
runs no timer): a card clock that ran out (D-16) or the match clock (B-17, D-16) is applied by the
service (``GameService.expire``) as its clock task would, and the typed key is not used."""

from __future__ import annotations

from bot.chat.presenter import discard_pile_words
from bot.console import help as console_help
from bot.console import keys as console_keys
from bot.console import trade as console_trade
from engine.core.errors import RuleError
from engine.service.outcome import Outcome
from words.games import WORDS
from words.i18n import t


def _yes(ctx, question: str) -> bool | None:
    """y/n (in any language); None when the input ended."""
    yes, no = console_keys.words(ctx.lang, "console.yes_words"), console_keys.words(ctx.lang, "console.no_words")
    while True:
        text = ctx.read(question + " ")
        if text is None:
            return None
        if text.lower() in yes:
            return True
        if text.lower() in no:
            return False
        ctx.output(t(ctx.lang, "console.yes_or_no"))


def _help(ctx, view: dict, argument: str, keys: list[tuple[str, str]]) -> None:
    if argument:
        if not (argument.isascii() and argument.isdigit()):
            ctx.output(t(ctx.lang, "console.help.bad_number", text=argument))
        else:
            ctx.output(ctx.kit.number_help(view, int(argument), ctx.lang, ctx.names, ctx.ruleset))
        return
    for line in console_help.legend(ctx.game, ctx.lang):
        ctx.output(line)
    for key, label in keys:
        ctx.output(f"  {key:>6}  {label}")


def discard_pile(ctx, view: dict) -> str:
    """``pile`` at a terminal: the words the chats show (``presenter.discard_pile_words``)."""
    return discard_pile_words(view.get("discard"), ctx.lang, ctx.names)


async def match_over(ctx) -> bool:
    """The match clock has run out: the service ends the match by valuation. True when it did."""
    outcome = await ctx.service.clocks.expire(ctx.table_id)
    if outcome is None:
        return False
    ctx.output(t(ctx.lang, "console.clock.match_over"))
    if not outcome.ok:
        ctx.output(explain(ctx, outcome))
    return outcome.ok


async def _clock_line(ctx, deadline: float | None) -> str | None:
    parts = []
    now = ctx.clock()
    if deadline is not None:
        parts.append(t(ctx.lang, "console.clock.card", seconds=max(0, int(deadline - now + 0.999))))
    ends = await ctx.service.clocks.match_ends_at(ctx.table_id)
    if ends is not None:
        left = max(0, int(ends - now))
        parts.append(t(ctx.lang, "console.clock.match", time=f"{left // 60}:{left % 60:02d}"))
    return "⏱ " + " · ".join(parts) if parts else None


async def _ran_out(ctx, seat: int, label) -> Outcome | None:
    """After the input returned: the outcome of a clock that ran out meanwhile, else None."""
    outcome = await ctx.service.clocks.expire(ctx.table_id, seat)
    if outcome is None:
        return None
    if outcome.params.get("clock") == "match":
        ctx.output(t(ctx.lang, "console.clock.match_over"))
    else:
        ctx.output(t(ctx.lang, "console.clock.card_out", action=label(outcome.params["action"])))
    return outcome


def explain(ctx, outcome) -> str:
    if outcome.rule:
        return WORDS[ctx.game].error(RuleError(outcome.rule, outcome.key, **outcome.params), ctx.lang, ctx.names,
                                     ctx.ruleset)
    return t(ctx.lang, outcome.key or "service.bad_token", **outcome.params)


async def human_move(ctx, ask):
    """Show the seat its keys (its view's buttons) and press the one typed; None on EOF."""
    service, kit, lang = ctx.service, ctx.kit, ctx.lang
    public, own = await service.views(ctx.table_id, seats=[ask.seat])
    mine = own[ask.seat]
    view, decision, user = mine.board, ask.decision, public.seats[ask.seat].user
    tokens: dict = {}
    for choice in mine.choices:
        tokens.setdefault(choice.action, choice.token)
    actions = kit.order(view, decision, list(tokens))
    if not actions:
        return None
    labels = [kit.label(view, a, lang, ctx.names, ctx.ruleset) for a in actions]
    keyed = console_keys.keyed(ctx.game, actions, ctx.ruleset)
    label_of = dict(zip(actions, labels, strict=True))
    keys = [(k, label_of[a]) for k, a in keyed]
    ctx.output(WORDS[ctx.game].table(view, lang, ctx.names, ctx.ruleset))
    for line in ctx.summary_lines():
        ctx.output(line)
    ctx.output(kit.prompt(view, decision, lang, ctx.names, ctx.ruleset))
    for line in kit.extra_lines(view, decision, keyed, lang, ctx.names, ctx.ruleset):
        ctx.output(line)
    trading = any(e == "trade" or e.startswith("counter:") for e in mine.extras)
    if trading:
        ctx.output(t(lang, "console.trade_hint"))  # B-15: any offer, beyond the listed shortcuts
    for key, label in keys:
        ctx.output(f"  {key:>6}  {label}")
    deadline = ask.due_at if ask.policy == "card" else None

    def label(action) -> str:
        return label_of.get(action) or kit.label(view, action, lang, ctx.names, ctx.ruleset)

    helps = console_keys.words(lang, "console.help_words")
    piles = console_keys.words(lang, "console.pile_words") if kit.pile else set()
    while True:
        clock_line = await _clock_line(ctx, deadline)
        if clock_line:
            ctx.output(clock_line)
        text = ctx.read(t(lang, "console.enter_key"))
        if text is None:
            return None
        timed = await _ran_out(ctx, ask.seat, label)
        if timed is not None:
            return timed
        word, _, argument = text.partition(" ")
        if word.lower() in helps or text.lower() in helps:
            _help(ctx, view, argument.strip(), keys)
            continue
        if text.lower() in piles:  # D-18: the discard pile, as this seat may look through it now
            ctx.output(discard_pile(ctx, view))
            continue
        if trading and text.strip().lower() in console_trade.OPEN_WORDS:  # B-15: any offer
            await console_trade.build(service, ctx.table_id, user, lang, ctx.read, ctx.output)
            return Outcome(True)  # the question is asked again, on the table as it is now
        action, shared = console_keys.resolve(ctx.game, text, keyed)
        if shared:
            ctx.output(t(lang, "console.which", text=text, keys=", ".join(shared)))
            continue
        if action is None:
            ctx.output(t(lang, "console.unknown_key", text=text))
            continue
        question = kit.confirm(view, action, label_of[action], lang)
        if question is not None:
            answer = _yes(ctx, question)
            if answer is None:
                return None
            if not answer:
                ctx.output(t(lang, "console.not_done"))
                continue
            timed = await _ran_out(ctx, ask.seat, label)
            if timed is not None:
                return timed
        return await service.act(user, tokens[action])
