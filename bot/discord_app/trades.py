"""The trade builder (B-15, ``bot/chat/trade_builder.py``) on Discord: an ephemeral message only its
player sees, with select menus for the partner and the deeds of both sides, buttons for cash and
jail cards, and "✏️ The offer in a form": one form (a modal, ``forms.py``) holding the whole offer,
the partner, the deeds of both sides as select menus and both amounts as text (issue 49). Every id
is signed data, so any process takes the next press, a submitted form included; a submitted form
goes through the same desk presses as the menus and the amounts' form did (``vp``, ``vm``, ``vy``,
``xm``), and the builder message then shows the offer as it stands."""

from __future__ import annotations

import discord

from bot.chat import trade_builder
from bot.chat.context import PlatformContext
from bot.chat.inputs import parse_press
from bot.discord_app import forms
from bot.discord_app.answers import own_lang, refuse, say, user_of
from bot.discord_app.items import ServiceButton, TradeSelect
from bot.discord_app.messenger import md
from words.i18n import t


class DiscordTrades:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service

    async def press(self, interaction: discord.Interaction, table_id: int, op: str,
                    values: list[str] | None = None) -> None:
        """A press on "Propose a trade", "Counter", or the builder (its select menus carry
        ``values``): a new ephemeral builder for the first two, the builder edited in place for the
        rest, the offer's form; a refusal is an ephemeral line and the draft stays."""
        lang = own_lang(interaction, self.ctx.lang)
        user, _ = user_of(interaction)
        if op in ("xy", "xt"):  # a form answers at once (Discord allows no deferring before one)
            form = await trade_builder.form(self.service, table_id, user, lang)
            if form is None:
                await say(interaction, t(lang, "trade.closed"))
                return
            await interaction.response.send_modal(self.offer_form(table_id, form, lang))
            return
        fresh = op == "n" or op[0] == "k"
        if fresh:
            await interaction.response.defer(ephemeral=True, thinking=True)
        shown = await trade_builder.press(self.service, table_id, user, op, lang, values)
        await self.show(interaction, table_id, shown, lang, fresh)

    async def show(self, interaction: discord.Interaction, table_id: int, shown: trade_builder.Shown, lang: str,
                   fresh: bool = False, notes: tuple[str, ...] = ()) -> None:
        """The builder after a press: a new ephemeral message (``fresh``) or the pressed one edited;
        an alert (and ``notes``) in a line of its own, for the presser alone."""
        if not shown.text:
            await say(interaction, shown.alert or t(lang, "service.bad_token"))
            return
        view = None if shown.closed else self.view(table_id, shown.controls, lang)
        text = md(shown.text)
        if fresh:
            await interaction.followup.send(text, view=view or discord.utils.MISSING, ephemeral=True)
        elif interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.response.edit_message(content=text, view=view)
        alert = "\n".join([*notes, *([shown.alert] if shown.alert else [])])
        if alert:
            await interaction.followup.send(md(alert), ephemeral=True)

    async def selected(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        """A choice in one of the builder's select menus."""
        press = parse_press(self.service.unsign(custom_id) or "")
        if press is None or press.kind != "v":
            await say(interaction, t(own_lang(interaction, self.ctx.lang), "service.bad_token"))
            return
        await self.press(interaction, press.id("table"), f"v{press.fields['menu']}", values)

    def view(self, table_id: int, controls, lang: str) -> discord.ui.View:
        """Select menus for the partner and the deeds of both sides, buttons for cash, jail cards,
        the form and send (five rows at most, as Discord allows)."""
        sign = self.service.sign
        view = discord.ui.View(timeout=None)
        selects = [("p", "trade.pick_partner", [(label, str(seat), on) for label, seat, on in controls.partners], 1),
                   ("m", "trade.pick_give", [(label, str(sq), on) for label, sq, on in controls.mine], 0),
                   ("y", "trade.pick_get", [(label, str(sq), on) for label, sq, on in controls.theirs], 0)]
        row = 0
        for op, key, options, least in selects:
            if not options:
                continue
            options = options[:25]  # Discord's limit; nobody holds 25 tradable deeds
            view.add_item(TradeSelect(sign(f"v:{table_id}:{op}"), t(lang, key), options, least, row))
            row += 1
        buttons = [*controls.cash[:4], (t(lang, "trade.btn.form"), "xy")]
        rest = [*controls.cards, *[b for b in controls.typing if b[1] == "z"], *controls.finish]
        for line in (buttons, rest):
            for label, op in line[:5]:
                view.add_item(ServiceButton(sign(f"t:{table_id}:{op}"), label, row=min(row, 4)))
            row += 1
        return view

    def offer_form(self, table_id: int, form: trade_builder.CashForm, lang: str) -> discord.ui.Modal:
        """The whole offer in one form (five fields at most, as Discord allows): the partner (when
        it may still change), the deeds given and asked for, what each side pays. What the draft
        holds now is filled in, so leaving a field as it is changes nothing."""
        modal = forms.form(t(lang, "trade.form_title"), self.service.sign(f"t:{table_id}:xm"))
        c = form.controls or trade_builder.Controls()
        forms.choice(modal, t(lang, "trade.pick_partner"), "vp", [(label, str(seat), on) for label, seat, on
                                                                  in c.partners])
        forms.choice(modal, t(lang, "trade.pick_give"), "vm", [(label, str(sq), on) for label, sq, on in c.mine],
                     many=True)
        forms.choice(modal, t(lang, "trade.pick_get"), "vy", [(label, str(sq), on) for label, sq, on in c.theirs],
                     description=t(lang, "trade.form_theirs", name=form.partner), many=True)
        forms.typing(modal, t(lang, "trade.modal_you", most=form.most_you), "you", str(form.you))
        forms.typing(modal, t(lang, "trade.modal_them", name=form.partner, most=form.most_them), "them",
                     str(form.them))
        return modal

    async def form_submitted(self, interaction: discord.Interaction) -> None:
        """A submitted offer form (any process takes it: its id is signed data, not a live object):
        each field through the desk's own press, in order (the partner first: the deeds asked for
        are the partner's), then the builder as it stands."""
        data = interaction.data or {}
        press = parse_press(self.service.unsign(str(data.get("custom_id", ""))) or "")
        if press is None or press.kind != "t" or press.fields.get("op") != "xm":
            await refuse(self.ctx, interaction)
            return
        table, values = press.id("table"), forms.fields(data)
        lang = own_lang(interaction, self.ctx.lang)
        user, _ = user_of(interaction)
        draft = await trade_builder.load(self.service, table, user)
        partner = values.get("vp") or []
        moved = bool(partner) and draft is not None and partner[0] != str(draft.target)
        steps = [("vp", partner)] if moved else []
        steps += [(op, values[op]) for op in ("vm", "vy") if isinstance(values.get(op), list)
                  and not (op == "vy" and moved)]
        if "you" in values or "them" in values:
            steps.append(("xm", [str(values.get("you", "")), str(values.get("them", ""))]))
        alerts: list[str] = []
        shown = trade_builder.shown(await self.service.trades.show(table, user), lang) if not steps else None
        for op, given in steps:
            shown = await trade_builder.press(self.service, table, user, op, lang, list(given))
            if not shown.text:  # the builder is gone (closed, the game over): say why and stop
                break
            if shown.alert:
                alerts.append(shown.alert)
                shown.alert = None
        if moved and values.get("vy") and shown.text:  # what was asked of the former partner is not theirs
            alerts.append(t(lang, "trade.form_partner_changed"))
        await self.show(interaction, table, shown, lang, notes=tuple(alerts))
