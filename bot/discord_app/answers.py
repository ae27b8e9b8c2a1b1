"""How the Discord bot answers the one who typed a slash command or pressed a component
(``bot.chat.flows.Answer``), and who they are (``bot.chat.flows.Who``). Discord wants every interaction
answered within 3 s, once: the first answer is the interaction's response, any later one a
follow-up. What is meant for the asker alone is ephemeral; a name never turns into markdown or a
mention (``md``). A public answer (the lobby, a rematch, a sign-up, a leaderboard's page) is a
Components v2 message like the table's (``messenger.layout``), and a pressed message that is one
is edited as one (Discord never takes the flag off again)."""

from __future__ import annotations

import logging

import discord

from bot.chat.asker import Who
from bot.chat.inputs import clean_name
from bot.chat.messenger import Text
from bot.chat.screens import Button
from bot.discord_app.items import view_of
from bot.discord_app.messenger import TEXT, TEXT_V2, Look, layout, look_for, look_of, md, render
from engine.service.tournaments import base_chat
from words.i18n import normalise_lang, t

log = logging.getLogger(__name__)


def chat_key(interaction: discord.Interaction) -> str:
    return f"dc:{interaction.guild_id or 0}:{interaction.channel_id}"


def user_of(interaction: discord.Interaction) -> tuple[str, str]:
    """Who pressed or typed: their id (who they are) and their name, cleaned for screens."""
    u = interaction.user
    return f"dc:{u.id}", clean_name(getattr(u, "display_name", None) or u.name, str(u.id))


def lang_of(interaction: discord.Interaction, default: str) -> str:
    """The server's language (else the user's own Discord language, else ``default``)."""
    locale = str(interaction.guild_locale or interaction.locale or "")
    return normalise_lang(locale) if locale else default


def own_lang(interaction: discord.Interaction, default: str) -> str:
    """The user's own Discord language, for what only they see (their hand, their trade)."""
    return normalise_lang(str(interaction.locale)) if interaction.locale else default


def can_manage(interaction: discord.Interaction, events: bool = False) -> bool:
    """Manage Server (or, with ``events``, Manage Events) in this channel: Discord's own word for it."""
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild or (events and perms.manage_events))


def who_of(interaction: discord.Interaction, lang: str, key: str | None = None) -> Who:
    user, name = user_of(interaction)

    async def manages() -> bool:
        return can_manage(interaction)

    return Who(user, name, key or chat_key(interaction), lang, manages)


async def who(ctx, interaction: discord.Interaction, key: str | None = None) -> Who:
    """Who asks, in the channel's language (its server's when the channel never chose one)."""
    key = base_chat(key or chat_key(interaction))
    ctx.flows.learnt[key] = lang_of(interaction, ctx.lang)
    return who_of(interaction, await ctx.flows.lang_of(key), key)


async def refuse(ctx, interaction: discord.Interaction) -> None:
    """A press or form this bot cannot read: "this button is not valid", to the presser alone."""
    log.info("Discord component with an unknown id refused (channel %s): %.100s", interaction.channel_id,
             (interaction.data or {}).get("custom_id"))
    await say(interaction, t(lang_of(interaction, ctx.lang), "service.bad_token"))


async def say(interaction: discord.Interaction, text: str | Text, ephemeral: bool = True, **kwargs) -> int | None:
    """Answer the interaction, or follow up when it was answered or deferred already (the text
    shown as it is; a ``Text`` with the mentions it ends in, pinging exactly those); the id of the
    message when Discord gives one."""
    if isinstance(text, Text):
        text, kwargs["allowed_mentions"] = render(text)
    else:
        text = md(text)[:TEXT]
    if interaction.response.is_done():
        sent = await interaction.followup.send(text, ephemeral=ephemeral, wait=True, **kwargs)
        return sent.id
    answered = await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)
    return getattr(answered, "message_id", None)


class InteractionAnswer:
    """A slash command or a press, answered through the interaction."""

    def __init__(self, interaction: discord.Interaction, lang: str) -> None:
        self.interaction = interaction
        self.lang = lang

    def view(self, buttons: list[Button] | None) -> discord.ui.View | None:
        return view_of(self.interaction.client.front.service.sign, buttons) if buttons else None

    async def tell(self, text: str) -> None:
        await say(self.interaction, text)

    async def reply(self, text: str | Text, buttons: list[Button] | None = None) -> int | None:
        """In front of everyone, as a Components v2 message (its look noted: the table channel may
        edit it, or take its buttons off, later)."""
        front = self.interaction.client.front
        look, mentions = look_for(text if isinstance(text, Text) else Text(text), None)
        view = layout(front.service.sign, look, buttons or [])
        if self.interaction.response.is_done():
            sent = await self.interaction.followup.send(view=view, allowed_mentions=mentions, wait=True)
            message = sent.id
        else:
            answered = await self.interaction.response.send_message(view=view, allowed_mentions=mentions)
            message = getattr(answered, "message_id", None)
        if message is not None and self.interaction.channel_id is not None:
            front.messenger.noted(self.interaction.channel_id, message, look)
        return message

    def _pressed(self, text: str, buttons: list[Button]) -> dict:
        """What the pressed message is edited to: its content and buttons, or, on a Components v2
        message, its container with the new text and buttons (and the picture it shows)."""
        message = self.interaction.message
        if message is None or not message.flags.components_v2:
            return {"content": md(text)[:TEXT], "view": self.view(buttons)}
        shown = look_of(message)
        look = Look(True, (md(text)[:TEXT_V2],), shown.picture, shown.alt)
        return {"view": layout(self.interaction.client.front.service.sign, look, buttons),
                "allowed_mentions": discord.AllowedMentions.none()}

    async def ask(self, text: str, buttons: list[Button]) -> None:
        await say(self.interaction, text, view=self.view(buttons))

    async def update(self, text: str) -> None:
        """The message whose button was pressed says ``text`` now, without buttons."""
        if self.interaction.response.is_done():
            await self.interaction.edit_original_response(**self._pressed(text, []))
        else:
            await self.interaction.response.edit_message(**self._pressed(text, []))

    async def menu(self, text: str, buttons: list[Button], note: str | None = None) -> None:
        """The pressed message (an ephemeral reply or a DM) shows the next step; its picture stays."""
        if self.interaction.response.is_done():
            await self.interaction.edit_original_response(**self._pressed(text, buttons))
        else:
            await self.interaction.response.edit_message(**self._pressed(text, buttons))
        if note:
            await self.interaction.followup.send(md(note)[:TEXT], ephemeral=True)

    async def defer(self) -> None:
        """Discord wants an answer within 3 s: the interaction is deferred (the table's message,
        edited, is the answer)."""
        if not self.interaction.response.is_done():
            await self.interaction.response.defer()

    async def done(self) -> None:
        """A press: acknowledged without a word (the messages it changes say it); a slash command
        must be answered: a short "done" that only the asker sees."""
        if self.interaction.response.is_done():
            return
        if self.interaction.type == discord.InteractionType.application_command:
            await self.tell(t(self.lang, "ch.done"))
        else:
            await self.interaction.response.defer()
