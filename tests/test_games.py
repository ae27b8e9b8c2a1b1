"""Every registered game through every layer (OpenSpiel's ``games_sim_test``, for us): the rules
play a seeded game that replays from its log, the service keeps it (a lobby, two people and an AI
seat, presses through the one door), the table channel shows its updates in a chat, and the web
table words its views. And every layer's registry holds every game: a toy third game (``tests/
toy_game``) takes one package and the registries named here, nothing else."""

from __future__ import annotations

import pytest

from bot.chat.channel import TableChannel
from bot.console.games import KITS
from bot.web.atlas import PARTS, atlas
from bot.web.messages import own_part, table_message
from engine.games import GAMES
from engine.play.simulation import play_one
from engine.service.tables import GameService
from render.games import PICTURES
from tests.fakes.console_messenger import ConsoleMessenger
from tests.toy_game.game import registered
from words.games import WORDS

REGISTRIES = {"words": WORDS, "pictures": PICTURES, "console kits": KITS, "web atlas": PARTS}


@pytest.fixture(params=["deal", "board", "toy"])
def game(request):
    """Each real game, and the toy one registered for the test's length."""
    if request.param != "toy":
        yield GAMES[request.param]
        return
    with registered() as toy:
        yield toy


def test_every_layer_knows_exactly_the_registered_games():
    for layer, registry in REGISTRIES.items():
        assert set(registry) == set(GAMES), layer
    with registered():
        for layer, registry in REGISTRIES.items():
            assert set(registry) == set(GAMES), layer
    assert "toy" not in GAMES  # taken out again


def test_the_rules_play_a_seeded_game_that_replays_from_its_log(game):
    rules = game.rules
    ruleset = rules.rulesets[0]
    state, log = play_one(game, rules.min_players + 1, ruleset, 5, 8)
    assert game.violations(state) == []
    replayed = rules.replay(rules.min_players + 1, ruleset, 5, log)
    assert rules.encode_state(replayed) == rules.encode_state(state)
    assert log, "something was played"


async def test_a_game_goes_through_the_service_the_chat_and_the_web(game, tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'games.db'}")
    lines: list[str] = []
    channel = TableChannel(service, ConsoleMessenger(lines.append))
    updates = []

    async def show(update) -> None:
        updates.append(update)
        await channel.show(update, "en")

    service.subscribe(show, private=True)
    try:
        out = await service.lobby.new_table("x:1", game.name, None, "x:1", "Ann")
        assert out.ok, out.key
        assert (await service.lobby.join(out.table, "x:2", "Bob")).ok
        assert (await service.lobby.add_ai(out.table, "x:1")).ok
        assert (await service.lobby.start(out.table, "x:1", seed=3)).ok
        pressed = 0
        for _ in range(12):  # a few presses by the people, the AI seat answers by itself
            await service.idle()
            decisions = service.cache.waiting_for(out.table)
            if not decisions:
                break
            seat = decisions[0].seat
            action = game.choose_listed(service.cache.state(out.table), seat)
            token = next(t for a, t in service.buttons(out.table, seat) if a == action)
            assert (await service.act(f"x:{seat + 1}", token)).ok
            pressed += 1
        await service.idle()
        assert pressed > 0
        assert updates and updates[0].kind == "started"
        assert any(update.public.game == game.name for update in updates if update.public)
        public, own = await service.views(out.table, seats=[0])
        table_text = WORDS[game.name].table(public.board, "en", public.names, public.ruleset)
        assert table_text.splitlines()[0] in "\n".join(lines), "the chat was shown the table in the game's words"
        message = table_message(public, "en", service.clock(), None, None)
        assert message["game"] == game.name and message["table"] == out.table
        mine = own_part(public, own[0], "en")
        assert isinstance(mine["moves"], list)
        assert atlas(game.name, public.ruleset, "en")["game"] == game.name
    finally:
        await service.close()
