"""The flows every chat front end shares (``bot/chat/flows.py``), driven directly over a messenger that
keeps which of its messages still have buttons: races between presses that a platform delivers
at once (Telegram's webhook runs updates concurrently) leave one live lobby message."""

from __future__ import annotations

import asyncio

from bot.chat.asker import Who
from bot.chat.channel import TableChannel
from bot.chat.flows import Flows
from engine.service.tables import GameService
from tests.fakes.console_messenger import ConsoleMessenger


class Keeper(ConsoleMessenger):
    """The console's messenger that remembers each message's buttons until they are stripped."""

    name = "x"

    def __init__(self) -> None:
        super().__init__(lambda line: None)
        self.live: dict[int, list] = {}

    async def post(self, place, text, buttons, picture=None, *, reply_to=None, picture_name="table.png"):
        message = await super().post(place, text, buttons, picture, reply_to=reply_to, picture_name=picture_name)
        self.live[message] = [b.token for b in buttons]
        return message

    async def edit(self, place, message_id, text, buttons, picture, new_picture, picture_name="table.png"):
        self.live[message_id] = [b.token for b in buttons]
        return await super().edit(place, message_id, text, buttons, picture, new_picture, picture_name)

    async def strip(self, place, message_id):
        self.live[message_id] = []

    def with_buttons(self) -> list[int]:
        return [m for m, tokens in self.live.items() if tokens]


class SlowAnswer:
    """The answer to /newgame: its message is posted at once, but the reply returns (and so is
    recorded) only after ``go`` is set, as when the platform's answer is slow to come back."""

    def __init__(self, keeper: Keeper, go: asyncio.Event) -> None:
        self.keeper, self.go, self.told = keeper, go, []

    async def reply(self, text, buttons=None):
        from bot.chat.messenger import Text
        message = await self.keeper.post("table", Text(text), buttons or [])
        await self.go.wait()
        return message

    async def tell(self, text):
        self.told.append(text)

    async def done(self):
        return None


async def test_a_join_pressed_before_the_lobby_message_is_recorded_leaves_one_lobby_with_buttons(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'flows.db'}")
    try:
        keeper = Keeper()
        flows = Flows(service, TableChannel(service, keeper))

        async def manages() -> bool:
            return False

        ann = Who("x:1", "Ann", "x:-5", "en", manages)
        bob = Who("x:2", "Bob", "x:-5", "en", manages)
        go = asyncio.Event()
        opening = asyncio.create_task(flows.open_lobby(ann, "deal", None, {}, SlowAnswer(keeper, go)))
        for _ in range(500):  # the lobby message is up; its id is not stored yet
            if keeper.live or opening.done():
                break
            await asyncio.sleep(0.01)
        assert keeper.live, opening
        table = (await service.lobby.table_in_chat("x:-5")).id
        await flows.lobby_press(bob, table, "join", SlowAnswer(keeper, go))  # posts the lobby anew
        go.set()
        await opening
        assert len(keeper.with_buttons()) == 1, keeper.live
        carl = Who("x:3", "Carl", "x:-5", "en", manages)
        await flows.lobby_press(carl, table, "join", SlowAnswer(keeper, go))
        await flows.lobby_press(ann, table, "start", SlowAnswer(keeper, go))
        assert service.cache.row(table).status == "running"
        assert keeper.with_buttons() == [], keeper.live  # started: no lobby message keeps its buttons
    finally:
        await service.close()


async def test_endgame_where_the_game_was_set_aside_as_damaged_says_so(tmp_path):
    """Issue 32: ``/endgame`` in a chat whose game could not be restored names that game and says
    to start a new one (not "there is no open lobby")."""
    from engine.service.storage import queries
    from words.i18n import t

    service = await GameService.open(f"sqlite:///{tmp_path / 'flows.db'}")
    try:
        flows = Flows(service, TableChannel(service, Keeper()))

        async def manages() -> bool:
            return True

        ann = Who("x:1", "Ann", "x:-5", "en", manages)
        out = await service.lobby.new_table("x:-5", "deal", None, "x:1", "Ann")
        await service.lobby.join(out.table, "x:2", "Bob")
        await service.lobby.start(out.table, "x:1", seed=3)
        await queries.end_table(service.db, out.table, "damaged")
        service.cache.drop(out.table)
        told = SlowAnswer(Keeper(), asyncio.Event())
        await flows.command(ann, "cancel", told)
        assert told.told == [t("en", "service.table_damaged", table=out.table)]
    finally:
        await service.close()
