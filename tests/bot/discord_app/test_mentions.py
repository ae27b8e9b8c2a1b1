"""A name a player chose never reads as a mention on Discord: ``@everyone`` and ``@here`` are broken
up like ``<@…>`` (nobody would be pinged anyway: every message goes out with ``allowed_mentions``)."""

from __future__ import annotations

from bot.discord_app.messenger import md
from tests.bot.discord_app.test_discord import click, dispatch, running_bot, slash
from tests.fakes.discord_api import text_of


def test_everyone_here_and_mentions_in_text_are_broken_up():
    shown = md("@everyone @here <@123456789012345678> <#42> **bold**")
    assert "@everyone" not in shown and "@here" not in shown and "<@1" not in shown and "<#4" not in shown
    assert "@\u200beveryone" in shown and "\\*\\*bold\\*\\*" in shown


async def test_a_player_named_everyone_is_shown_broken_up_in_the_lobby(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", 1, game="deal"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        joining = click(f"l:{table}:join", 2)
        joining["member"]["user"]["global_name"] = "@everyone"
        await dispatch(client, joining)
        lobby = [p for m, u, p in fake.calls if m == "PATCH" and text_of(p) and "Ann" in text_of(p)][-1]
        assert "@\u200beveryone" in text_of(lobby) and "@everyone" not in text_of(lobby)
