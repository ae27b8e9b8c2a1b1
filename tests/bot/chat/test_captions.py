"""Issue 45: a table message is a few lines that keep their head. Telegram takes 1,024 characters
under a photo (counted in UTF-16 units) and Discord 2,000 in a message. The message says whose turn
it is, what just happened, what the table waits for, the notes and the clock; the players' lines,
sets and deeds are the picture's (so the picture and "your turn" fit one phone screen). Were it
still too long, the older news goes first; the head (whose turn, what the table is doing) is never
cut, and the newest event and the clock stay. Checked on every version of seeded four-player Deal
and board games in the three languages, as each platform renders it."""

from __future__ import annotations

import html

import pytest

from bot.chat.messenger import Text
from bot.chat.screens import LOG_LINES
from bot.discord_app.messenger import render as discord_render
from bot.telegram_app.messenger import CAPTION_LIMIT, TelegramMessenger, units
from engine.games import GAMES
from tests.bot.chat.test_screens import _table, table_screens
from words.games import WORDS


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
@pytest.mark.parametrize("game", ["deal", "board"])
async def test_a_long_table_message_keeps_its_head_and_its_newest_lines(tmp_path, game, lang):
    service, table = await _table(tmp_path, game, humans=4, ais=0, seed=45)
    try:
        rules, plug = GAMES[game].rules, GAMES[game]
        events = ()
        for _ in range(250):
            await service.idle()
            state = service.cache.state(table)
            if service.cache.row(table).status != "running":
                break
            screen = table_screens(service, table, events, lang=lang).public
            text = Text(screen.text, (), screen.optional)
            head, last = screen.text.split("\n", 1)[0], screen.text.rsplit("\n", 1)[-1]
            caption = TelegramMessenger.render(text, CAPTION_LIMIT)
            content, _ = discord_render(text)
            assert units(caption) <= CAPTION_LIMIT and len(content) <= 2000
            names = {i: s["name"] for i, s in enumerate(service.cache.row(table).seats)}
            words, ruleset = WORDS[game], service.cache.row(table).ruleset
            waiting = words.waiting(rules.view(state, None), lang, names, ruleset)
            assert len(screen.text.split("\n")) <= 1 + LOG_LINES + len(waiting) + 3, screen.text  # a few lines
            table_lines = set(words.table(rules.view(state, None), lang, names, ruleset).split("\n")[1:])
            assert not (table_lines - set(waiting)) & set(screen.text.split("\n")), "the rest is the picture's"
            shown = [html.unescape(caption), content.replace("\\", "").replace("\u200b", "")]
            for platform in shown:
                assert platform.split("\n", 1)[0] == head, (head, platform[:80])
            if units(screen.text) > CAPTION_LIMIT:
                assert shown[0].endswith(last), "the newest line (the clock) stays"
            decision = rules.waiting_for(state)[0]
            info = service.cache.row(table).seats[decision.seat]
            action = plug.choose_listed(state, decision.seat)
            token = next(t for a, t in service.buttons(table, decision.seat) if a == action)
            events = (await service.act(info["user"], token)).events
    finally:
        await service.close()
