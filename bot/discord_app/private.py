"""What only the presser sees on Discord: their own screen at a table (in their own Discord
language; a seat the AI kept is theirs again) — in their DM when the bot may write there (one live
copy of a hand), else as an ephemeral reply — and the Deal discard pile when the rules let them
look through it (D-18)."""

from __future__ import annotations

import io

import discord

from bot.chat.context import PlatformContext
from bot.chat.messenger import pages
from bot.discord_app.answers import own_lang, say, who_of
from bot.discord_app.items import view_of
from bot.discord_app.messenger import PAGE, TEXT, md
from words.i18n import t


async def own_screen(ctx: PlatformContext, interaction: discord.Interaction, table_id: int,
                     refusal: str | None = None) -> None:
    """The player's own screen, seen only by them; its first page is kept current while Discord
    lets it be edited (later pages are not: they are rare). ``refusal``: why their press was
    refused (it came after the table moved on), said first."""
    lang = own_lang(interaction, ctx.lang)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    mine = await ctx.flows.own(who_of(interaction, lang), table_id)
    if mine is None:
        await say(interaction, refusal or t(lang, "service.not_a_player"))
        return
    notes = [refusal] if refusal else []
    notes += [t(lang, "service.welcome_back")] if mine.back else []
    seat = mine.public.seats[mine.own.seat]
    if refusal is None and seat.dm is not False and await ctx.channel.private(
            table_id, mine.own.seat, seat, mine.screen, lang, version=mine.public.version):
        # one live copy of a player's hand: their DM, brought up to date (not a second, ephemeral one)
        await say(interaction, "\n".join([*notes, t(lang, "ch.own_sent")]))
        return
    if seat.dm is False:
        notes.append(t(lang, "dc.dm_closed"))
    note, screen = "\n".join(notes), mine.screen
    text = md(screen.text[-(TEXT - len(note) - 100):]) + (f"\n\n{md(note)}" if note else "")
    files = [discord.File(io.BytesIO(screen.picture), "hand.png")] if screen.picture else []
    paged = pages(screen.buttons, PAGE)
    sign = ctx.service.sign
    sent = await interaction.followup.send(text, files=files, view=view_of(sign, paged[0]), ephemeral=True,
                                           wait=True)
    if len(paged) == 1:
        await ctx.messenger.remember_reply(table_id, mine.own.seat, interaction.token, sent.id, screen)
    for n, page in enumerate(paged[1:], 2):  # more choices than one message holds
        await interaction.followup.send(f"({n}/{len(paged)})", view=view_of(sign, page), ephemeral=True)


async def discard_pile(ctx: PlatformContext, interaction: discord.Interaction, table_id: int) -> None:
    """D-18: the discard pile when the rules let the presser look through it; else the refusal."""
    await interaction.response.defer(ephemeral=True)
    text, picture, _ = await ctx.flows.pile(who_of(interaction, own_lang(interaction, ctx.lang)), table_id)
    if picture is None:
        await say(interaction, text)
        return
    await interaction.followup.send(md(text)[:TEXT], file=discord.File(io.BytesIO(picture), "discard.png"),
                                    ephemeral=True)
