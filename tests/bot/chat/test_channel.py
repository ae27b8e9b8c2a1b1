"""One table channel for every platform: the same scripted game, shown through the channel by the
Telegram messenger (over the fake Bot API), the Discord messenger (over the strict fake), the
console's and a plain recorder, makes the same sequence of messenger calls on all four: what is
posted, edited, stripped and deleted, where (the table, a player's private chat), and whom each
post mentions. The channel decides; a messenger only carries it out."""

from __future__ import annotations

import itertools

import pytest
from telegram import Bot

from bot.chat.channel import TableChannel
from bot.chat.messenger import Mention, Text
from bot.telegram_app.messenger import TelegramMessenger
from engine.service.tables import GameService
from engine.service.views import Seat
from tests.bot.discord_app.test_discord import running_bot
from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI
from tests.engine.service.test_service import play_out
from tests.fakes.console_messenger import ConsoleMessenger
from tests.fakes.discord_api import CHANNEL

PEOPLE = {"Ann": 1, "Bob": 2}
PAGE = 25


class Recorder:
    """A messenger that records what the channel asks of it, in platform-neutral words, and passes
    it on to ``inner`` with the players as that platform knows them (``prefix``)."""

    def __init__(self, inner, prefix: str, table_place, people: dict[str, int] = PEOPLE) -> None:
        self.inner, self.prefix, self._table, self.people = inner, prefix, table_place, people
        # each its own ids in the table's record; one page size for all (the platforms' own differ:
        # Discord 25 buttons, Telegram 40, a terminal more), so that pages come out alike
        self.name, self.page = prefix, PAGE
        self.calls: list[tuple] = []
        self._where: dict = {}  # the platform's place -> "table" or "dm:<name>"
        self._ids = itertools.count(1)

    def _seat(self, seat: Seat) -> Seat:
        uid = self.people.get(seat.name)
        return Seat(seat.name, f"{self.prefix}:{uid}" if uid else seat.user, seat.ai, seat.person, seat.dm)

    def _text(self, text: Text) -> Text:
        return Text(text.body, tuple(Mention(self._seat(p.seat)) if isinstance(p, Mention) else p
                                     for p in text.after))

    def _named(self, place) -> str:
        return self._where.get(self.inner.key(place, 0)[0], "?")

    def table_place(self, view):
        place = self._table
        self._where[self.inner.key(place, 0)[0]] = "table"
        return place

    def key(self, place, message_id):
        return self.inner.key(place, message_id)

    def when(self, due_at, now, lang):
        return self.inner.when(due_at, now, lang)

    async def post(self, place, text, buttons, picture=None, *, reply_to=None, picture_name="table.png"):
        self.calls.append(("post", self._named(place), tuple(s.name for s in text.mentioned),
                           tuple(b.token.split(".")[0] for b in buttons), reply_to is not None))
        return await self.inner.post(place, self._text(text), buttons, picture, reply_to=reply_to,
                                     picture_name=picture_name)

    async def edit(self, place, message_id, text, buttons, picture, new_picture, picture_name="table.png"):
        self.calls.append(("edit", self._named(place), len(buttons), new_picture))
        return await self.inner.edit(place, message_id, self._text(text), buttons, picture, new_picture, picture_name)

    async def strip(self, place, message_id):
        self.calls.append(("strip", self._named(place)))
        await self.inner.strip(place, message_id)

    async def delete(self, place, message_id):
        self.calls.append(("delete", self._named(place)))
        await self.inner.delete(place, message_id)

    async def private_place(self, seat):
        place = await self.inner.private_place(self._seat(seat))
        if place is not None:
            self._where[self.inner.key(place, 0)[0]] = f"dm:{seat.name}"
        self.calls.append(("private", seat.name))
        return place

    def reach(self, table, seat_no, seat, lang):
        return self.inner.reach(table, seat_no, self._seat(seat), lang)

    def watch(self, table, lang, over=False):
        return None

    def own_link(self, table, lang):
        return None

    async def refresh_own(self, table, seat, screen):
        return None


async def _scripted(tmp_path, monkeypatch, game: str, people: dict[str, int], ais: int, lang: str = "en"):
    """One game played by pressing the AI's choices, shown through the channel on every messenger:
    the recorders, the console's lines, and what the fake Bot API refused as over Telegram's limits
    (the Discord fake's refusals are checked by ``running_bot``)."""
    api = FakeBotAPI()
    telegram = Bot("123:TEST", request=api)
    await telegram.initialize()
    lines: list[str] = []
    async with running_bot(tmp_path, monkeypatch) as (client, fake, _dc_service):
        service = await GameService.open(f"sqlite:///{tmp_path / 'channel.db'}")
        tg_messenger = TelegramMessenger(service)
        tg_messenger.bot = telegram
        recorders = {
            "telegram": Recorder(tg_messenger, "tg", (GROUP, None), people),
            "discord": Recorder(client.front.messenger, "dc", CHANNEL, people),
            "console": Recorder(ConsoleMessenger(lines.append), "console", "table", people),
        }
        recorders["plain"] = Recorder(ConsoleMessenger(lambda line: None), "plain", "table", people)
        channels = [TableChannel(service, r) for r in recorders.values()]

        async def show(update) -> None:
            for channel in channels:
                await channel.show(update, lang)

        service.subscribe(show, private=True)
        try:
            (first, _), *others = people.items()
            out = await service.lobby.new_table("x:1", game, None, "x:1", first)
            for name, uid in others:
                await service.lobby.join(out.table, f"x:{uid}", name)
            for _ in range(ais):
                await service.lobby.add_ai(out.table, "x:1")
            await service.lobby.start(out.table, "x:1", seed=11, turn_cap=12)
            await play_out(service, out.table, 600)
        finally:
            await service.close()
    return recorders, lines, api.refused


@pytest.mark.parametrize("game", ["deal", "board"])
async def test_one_scripted_game_makes_the_same_calls_on_every_messenger(tmp_path, monkeypatch, game):
    recorders, lines, _ = await _scripted(tmp_path, monkeypatch, game, PEOPLE, ais=1)
    calls = {name: r.calls for name, r in recorders.items()}
    reference = calls["plain"]
    assert any(c[0] == "post" and c[1] == "table" and c[2] for c in reference), "a turn's ping"
    assert any(c[0] == "edit" and c[1] == "table" for c in reference), "the table edited in place"
    assert any(c[0] == "post" and c[1].startswith("dm:") for c in reference) or game == "board"
    for name, seen in calls.items():
        first = next((i for i, (a, b) in enumerate(zip(seen, reference, strict=False)) if a != b), None)
        assert seen == reference, (name, first, seen[first:first + 2] if first is not None else len(seen))
    assert lines, "the console printed the game"


# Names as hostile as the platforms allow: 64 characters (Telegram's first and last name together),
# letters outside the BMP (two UTF-16 units each, as Telegram counts), markup of both platforms.
HOSTILE = {
    ("𝓐𝓷𝓷🎲" * 16)[:64]: 1,
    ("<b>Bob</b> @everyone **x** ||y|| `z` &amp; " + "長" * 64)[:64]: 2,
    ("<@&123> <#456> _Carl_ " + "𝕮" * 64)[:64]: 3,
}


@pytest.mark.parametrize("game", ["deal", "board"])
async def test_hostile_names_never_take_a_message_over_a_platforms_limit(tmp_path, monkeypatch, game):
    """Issue 32: three people with the longest, most awkward names a platform lets them have and
    AI seats up to five (Deal) or eight (board) play a whole game: Telegram's fake refuses no caption
    or message (1,024 / 4,096 UTF-16 units after every mention is appended), Discord's fake none
    (2,000 characters, button labels; ``running_bot`` fails on a refusal)."""
    recorders, lines, refused = await _scripted(tmp_path, monkeypatch, game, HOSTILE,
                                                ais=2 if game == "deal" else 5, lang="zh-Hans")
    assert refused == [], refused[:3]
    posts = [c for c in recorders["telegram"].calls if c[0] == "post" and c[1] == "table"]
    assert posts and any(c[2] for c in posts), "the table was posted, pinging the player to act"
