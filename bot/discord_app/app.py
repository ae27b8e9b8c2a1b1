"""The discord.py bot around the front end: slash commands, persistent buttons, the clock."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.frontend import GAME_CHOICES, Front, HandButton, LobbyButton, MoveButton, chat_key
from engine.service.tables import GameService
from words.i18n import t


class TycoonBot(commands.Bot):
    def __init__(self, service: GameService, lang: str = "zh-Hans", seed: int | None = None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.front = Front(service, lang, seed)

    async def setup_hook(self) -> None:
        # buttons sent before a restart parse back from their ids
        self.add_dynamic_items(MoveButton, LobbyButton, HandButton)
        front = self.front

        @self.tree.command(name="newgame", description="Open a game / 开一局游戏")
        @app_commands.choices(game=GAME_CHOICES)
        async def newgame(interaction: discord.Interaction, game: app_commands.Choice[str],
                          ruleset: str | None = None) -> None:
            await front.newgame(interaction, game.value, ruleset)

        @self.tree.command(name="hand", description="Your hand, only for you / 我的手牌")
        async def hand(interaction: discord.Interaction) -> None:
            row = await front.service.table_in_chat(chat_key(interaction))
            if row is None:
                await interaction.response.send_message(t(await front.chat_lang(interaction), "service.no_lobby"),
                                                        ephemeral=True)
                return
            await front.my_hand(interaction, row.id)

        @self.tree.command(name="stats", description="Standings in this channel / 战绩")
        async def stats(interaction: discord.Interaction) -> None:
            lang = await front.chat_lang(interaction)
            table = await front.service.standings(chat_key(interaction))
            lines = [f"{i + 1}. {e['name']}: {e['wins']}/{e['games']}" for i, e in enumerate(table[:20])]
            await interaction.response.send_message("\n".join([t(lang, "tg.standings"), *lines]) if lines
                                                    else t(lang, "tg.no_results"))

        @self.tree.command(name="help", description="How to play / 玩法说明")
        async def help_(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(t(await front.chat_lang(interaction), "tg.help"),
                                                    ephemeral=True)
