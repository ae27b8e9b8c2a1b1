"""Discord's persistent components: every button and select menu the bot sends is a
``DynamicItem`` whose custom id carries everything (a move's token, or data the service signed),
so a message keeps working after a restart or in another process: the state comes from the
database, never from a live object.

One grammar for every component id: the first letter says which item it is, and no two items
share a letter (discord.py runs *every* item whose template matches an id, so two matches would
answer one press twice). ``tests/bot/discord_app/test_discord_ids.py`` checks that the letters stay apart.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import discord

from bot.chat.inputs import SIGNED
from bot.chat.screens import Button


async def guarded(interaction: discord.Interaction, work: Awaitable) -> None:
    """A component's work inside an error boundary: discord.py only logs what a dynamic item's
    callback raises, which would leave the user's press "thinking" for ever."""
    try:
        await work
    except Exception as e:
        await interaction.client.front.on_error(interaction, e)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"g:(?P<token>[0-9a-z.]+)"):
    KINDS = "g"

    def __init__(self, token: str, label: str = "·") -> None:
        super().__init__(discord.ui.Button(label=label[:80], custom_id=f"g:{token}",
                                           style=discord.ButtonStyle.primary))
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, interaction.client.front.press(interaction, self.token))


class ServiceButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"(?P<data>[lhbespTtmaRZA]:[0-9a-z:]{1,40})(?:\.(?P<mac>[0-9a-f]{8}))?"):
    """Every button that is not a move: lobby, my hand, seat back, end game, sign-up, tournament,
    the discard pile, the trade builder's buttons, a leaderboard's pages, a season's length, the table inside
    Discord (its Activity: ``activity.py``). Its id is the signed data
    (``GameService.sign``); an id without a valid signature is refused when pressed, never trusted."""

    KINDS = "lhbespTtmaRZA"
    STYLES = {"l": discord.ButtonStyle.secondary, "e": discord.ButtonStyle.danger, "m": discord.ButtonStyle.primary}

    def __init__(self, custom_id: str, label: str = "·", row: int | None = None) -> None:
        style = self.STYLES.get(custom_id[0], discord.ButtonStyle.success)
        if custom_id.startswith("e:") and ":n." in custom_id:
            style = discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row))
        self.data = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, interaction.client.front.press(interaction, self.data))


class TradeSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"v:[0-9]{1,10}:[pmy]\.[0-9a-f]{8}"):
    """A select menu of the trade builder (the partner, my deeds, their deeds); its id is signed
    data like a service button's, its choice arrives as the interaction's values."""

    KINDS = "v"

    def __init__(self, custom_id: str, placeholder: str = "·", options=(), least: int = 0, row: int | None = None):
        choices = [discord.SelectOption(label=label[:100], value=value, default=on) for label, value, on in options]
        select = discord.ui.Select(custom_id=custom_id, placeholder=placeholder[:150], min_values=least,
                                   max_values=max(1, len(choices)) if least == 0 else 1,
                                   options=choices or [discord.SelectOption(label="·", value="-")], row=row)
        super().__init__(select)
        self.data = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match):
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        await guarded(interaction, interaction.client.front.trades.selected(interaction, self.data, values))


DYNAMIC_ITEMS = (MoveButton, ServiceButton, TradeSelect)


def item_for(custom_id: str) -> type[discord.ui.DynamicItem] | None:
    """The one item whose template reads this id, or None (a made-up or outdated id)."""
    return next((item for item in DYNAMIC_ITEMS if item.__discord_ui_compiled_template__.fullmatch(custom_id)),
                None)


def item_of(sign: Callable[[str], str], b: Button) -> discord.ui.Item:
    """One button: a move carries the service's token, everything else signed data; an address is
    a link button (the web table's "Watch")."""
    if b.token.startswith(("https://", "http://")):
        return discord.ui.Button(style=discord.ButtonStyle.link, label=b.label[:80], url=b.token)
    if b.token[:2] in SIGNED:
        return ServiceButton(sign(b.token), b.label)
    return MoveButton(b.token, b.label)


def view_of(sign: Callable[[str], str], buttons: list[Button]) -> discord.ui.View:
    """A message's buttons, for a message of plain content (rows of five, in order)."""
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(item_of(sign, b))
    return view


def rows_of(sign: Callable[[str], str], buttons: list[Button]) -> list[discord.ui.ActionRow]:
    """The same buttons as action rows of five, in order, for a Components v2 container
    (``bot/discord_app/messenger.py``): the same items, so their custom ids are the same."""
    rows = []
    for start in range(0, len(buttons), 5):
        row = discord.ui.ActionRow()
        for b in buttons[start:start + 5]:
            row.add_item(item_of(sign, b))
        rows.append(row)
    return rows
