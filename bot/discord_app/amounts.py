"""An amount of one's own on Discord (the board's own bid, B-04, ``bot.chat.amounts``): "✏️ Type a
bid" under the table opens a form for the bidder, holding a select menu of sensible amounts (the
least bid, the steps the buttons offer, all they could raise) and a text input for any other
amount (``forms.py``: each a Label). The submitted form is the bid (a typed amount wins over a
chosen one), taken by the same service call as any typed bid, in whichever process gets it: its
id is signed data, not a live object."""

from __future__ import annotations

import discord

from bot.chat import amounts
from bot.chat.context import PlatformContext
from bot.chat.inputs import parse_press
from bot.discord_app import forms
from bot.discord_app.answers import own_lang, say, user_of
from words.i18n import t


class DiscordAmounts:
    def __init__(self, ctx: PlatformContext) -> None:
        self.ctx = ctx
        self.service = ctx.service

    async def press(self, interaction: discord.Interaction, table: int) -> None:
        lang = own_lang(interaction, self.ctx.lang)
        user, _ = user_of(interaction)
        asked, why = await amounts.offered(self.service, user, table, lang)
        if asked is None:
            await say(interaction, why)
            return
        form = forms.form(t(lang, "amount.form_title"), self.service.sign(f"a:{table}"), timeout=300)
        forms.words(form, asked.question)
        forms.choice(form, t(lang, "amount.pick"), "pick",
                     [(f"{words} · {note}" if note else words, str(x), False) for x, words, note in asked.amounts],
                     placeholder=t(lang, "amount.pick_hint"))
        forms.typing(form, t(lang, "amount.type"), "amount", description=t(lang, "amount.type_hint"))
        await interaction.response.send_modal(form)

    async def submitted(self, interaction: discord.Interaction) -> bool:
        """A submitted bid form; False when the form is not one of ours (another kind of form)."""
        data = interaction.data or {}
        press = parse_press(self.service.unsign(str(data.get("custom_id", ""))) or "")
        if press is None or press.kind != "a":
            return False
        values = forms.fields(data)
        typed, picked = values.get("amount", ""), values.get("pick", [])
        text = typed if isinstance(typed, str) and typed.strip() else (picked[0] if picked else "")
        lang = own_lang(interaction, self.ctx.lang)
        if not text:
            await say(interaction, t(lang, "amount.pick_or_type"))
            return True
        user, _ = user_of(interaction)
        made, why = await amounts.take(self.service, user, press.id("table"), text, lang)
        await say(interaction, t(lang, "amount.done") if made else why)
        return True
