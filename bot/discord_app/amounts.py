"""An amount typed on Discord (the board's own bid, ``bot.chat.amounts``): "✏️ Type a bid" under
the table opens a form for the bidder; the submitted form is the bid, in whichever process gets it
(its id is signed data, not a live object)."""

from __future__ import annotations

import discord

from bot.chat import amounts
from bot.chat.context import PlatformContext
from bot.chat.inputs import parse_press
from bot.discord_app.answers import own_lang, say, user_of
from words.i18n import t


class DiscordAmounts:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service

    async def press(self, interaction: discord.Interaction, table: int) -> None:
        lang = own_lang(interaction, self.ctx.lang)
        user, _ = user_of(interaction)
        ok, text = await amounts.question(self.service, user, table, lang)
        if not ok:
            await say(interaction, text)
            return
        form = discord.ui.Modal(title=t(lang, "amount.form_title")[:45],
                                custom_id=self.service.sign(f"a:{table}"), timeout=300)
        form.add_item(discord.ui.TextInput(label=t(lang, "amount.form_title")[:45], custom_id="amount",
                                           placeholder=text[:100], required=True, max_length=12))
        await interaction.response.send_modal(form)

    async def submitted(self, interaction: discord.Interaction) -> bool:
        """A submitted bid form; False when the form is not one of ours (another kind of form)."""
        data = interaction.data or {}
        press = parse_press(self.service.unsign(str(data.get("custom_id", ""))) or "")
        if press is None or press.kind != "a":
            return False
        values = {c.get("custom_id"): c.get("value", "") for row in data.get("components", [])
                  for c in row.get("components", [])}
        lang = own_lang(interaction, self.ctx.lang)
        user, _ = user_of(interaction)
        made, why = await amounts.take(self.service, user, press.id("table"), values.get("amount", ""), lang)
        await say(interaction, t(lang, "amount.done") if made else why)
        return True

