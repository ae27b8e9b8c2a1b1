"""The trade builder (B-15, ``bot/chat/trade_builder.py``) on Discord: an ephemeral message only its
player sees, with select menus for the partner and the deeds of both sides, buttons for cash and
jail cards, and a form (a modal) for typed amounts. Every id is signed data, so any process takes
the next press, a submitted form included."""

from __future__ import annotations

import discord

from bot.chat import trade_builder
from bot.chat.context import PlatformContext
from bot.chat.inputs import parse_press
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
        rest, a form for typed amounts; a refusal is an ephemeral line and the draft stays."""
        lang = own_lang(interaction, self.ctx.lang)
        user, _ = user_of(interaction)
        if op in ("xy", "xt"):  # a form answers at once (Discord allows no deferring before one)
            form = await trade_builder.form(self.service, table_id, user, lang)
            if form is None:
                await say(interaction, t(lang, "trade.closed"))
                return
            await interaction.response.send_modal(self.cash_form(table_id, form, lang))
            return
        fresh = op == "n" or op[0] == "k"
        if fresh:
            await interaction.response.defer(ephemeral=True, thinking=True)
        shown = await trade_builder.press(self.service, table_id, user, op, lang, values)
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
        if shown.alert:
            await interaction.followup.send(md(shown.alert), ephemeral=True)

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
        buttons = [*controls.cash[:4], (t(lang, "trade.btn.type_you"), "xy")]
        rest = [*controls.cards, *[b for b in controls.typing if b[1] == "z"], *controls.finish]
        for line in (buttons, rest):
            for label, op in line[:5]:
                view.add_item(ServiceButton(sign(f"t:{table_id}:{op}"), label, row=min(row, 4)))
            row += 1
        return view

    def cash_form(self, table_id: int, form: trade_builder.CashForm, lang: str) -> discord.ui.Modal:
        """Both amounts in one form: what the player pays and what the partner pays."""
        modal = discord.ui.Modal(title=t(lang, "trade.modal_title")[:45],
                                 custom_id=self.service.sign(f"t:{table_id}:xm"), timeout=600)
        modal.add_item(discord.ui.TextInput(label=t(lang, "trade.modal_you", most=form.most_you)[:45],
                                            custom_id="you", default=str(form.you), required=False, max_length=12))
        modal.add_item(discord.ui.TextInput(
            label=t(lang, "trade.modal_them", name=form.partner, most=form.most_them)[:45],
            custom_id="them", default=str(form.them), required=False, max_length=12))
        return modal

    async def form_submitted(self, interaction: discord.Interaction) -> None:
        """A submitted cash form (any process takes it: its id is signed data, not a live object)."""
        data = interaction.data or {}
        press = parse_press(self.service.unsign(str(data.get("custom_id", ""))) or "")
        if press is None or press.kind != "t" or press.fields.get("op") != "xm":
            await refuse(self.ctx, interaction)
            return
        values = {c.get("custom_id"): c.get("value", "") for row in data.get("components", [])
                  for c in row.get("components", [])}
        await self.press(interaction, press.id("table"), "xm", [values.get("you", ""), values.get("them", "")])
