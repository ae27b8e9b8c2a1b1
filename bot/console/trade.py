"""The trade builder in the terminal game (B-15): the same drafts and the same offer door as the
chat and web builders (``bot.chat.trade_builder``), driven by typed words instead of buttons.

Typed at any board question: ``trade`` (or 交易) opens it. Inside, each control's op is its key
(``m12`` gives the deed on square 12, ``y39`` asks for square 39, ``p2`` trades with seat 2, ``j`` /
``i`` a jail card), ``pay 300`` / ``get 300`` set the cash, ``send`` sends it, an empty line or
``close`` leaves it as it is (the draft stays for next time).
"""

from __future__ import annotations

from bot.chat import trade_builder
from words.i18n import t

OPEN_WORDS = ("trade", "交易", "交易提议", "交易提議")
SEND_WORDS = ("send", "s", "发送", "發送")
CLOSE_WORDS = ("", "close", "q", "关闭", "關閉")


def _lines(shown: trade_builder.Shown, lang: str) -> list[str]:
    lines = [shown.text]
    c = shown.controls
    if c is None:
        return lines
    for label, seat, on in c.partners:
        lines.append(f"  {'p' + str(seat):>6}  {'✅ ' if on else ''}{label}")
    for items, op, key in ((c.mine, "m", "trade.btn.give"), (c.theirs, "y", "trade.btn.ask")):
        for label, sq, on in items:
            lines.append(f"  {op + str(sq):>6}  {'✅ ' if on else ''}{t(lang, key, square=label)}")
    for label, op in c.cards:
        lines.append(f"  {op:>6}  {label}")
    lines.append(t(lang, "console.trade_keys"))
    return lines


async def build(service, table: int, user: str, lang: str, read, output) -> None:
    """Open the builder for ``user`` and take typed keys until the offer is sent or left."""
    shown = await trade_builder.press(service, table, user, "n", lang)
    while True:
        if shown.alert:
            output(shown.alert)
        if shown.closed or shown.controls is None:
            if shown.text:
                output(shown.text)
            return
        for line in _lines(shown, lang):
            output(line)
        text = read(t(lang, "console.trade_prompt"))
        if text is None or text.strip().lower() in CLOSE_WORDS:
            output(t(lang, "console.trade_left"))
            return
        word, _, rest = text.strip().partition(" ")
        word = word.lower()
        if word in SEND_WORDS:
            op, values = "s", None
        elif word in ("pay", "get", "付", "要"):
            draft = shown.draft
            you, them = (rest, "0") if word in ("pay", "付") else ("0", rest)
            if draft is not None and not rest.strip():
                you, them = str(max(draft.cash, 0)), str(max(-draft.cash, 0))
            op, values = "xm", [you, them]
        else:
            op, values = word, None
        if not trade_builder.OP.fullmatch(op) or op in ("n", "q") or op[0] == "k":
            output(t(lang, "console.unknown_key", text=text))
            continue
        shown = await trade_builder.press(service, table, user, op, lang, values)
