"""The ways into a game on Telegram (issue 49), over the fake Bot API as strict as Telegram
(``tests/fakes/telegram_server.py``): the real application, real-shaped updates from people's
apps (``tests/fakes/telegram_doors.py``), and every call the bot makes checked against the Bot API's
limits (a refused call is in ``server.refused``; none may be).

- the private greeting and /help carry "Add to a group" (a ``startgroup`` link asking for the one
  right the bot uses), "Invite friends" (``switch_inline_query_chosen_chat``) and the web table;
- an inline query answers with a "Play … here" card per game and a "Join my table" card per table
  the user sits at, each a deep link (``startgroup``, ``start=t<table>``, ``startapp=t<table>``);
- the bot added by its link greets the group with the game choice, and a tap opens a lobby; a
  game's own link opens its lobby at once; a card sent via the bot into a group opens it too;
- ``/start t<table>`` from someone not at the table seats them in its lobby;
- the menu button opens the web table as a Mini App, set at start-up, and a refusal stops nothing;
- where getMe advertises topics in private chats, each player gets one private topic per game,
  made once, for every private message of that table; without, the one private chat as before;
- the expected answer is coloured (``style`` "primary"), ending a game "danger".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from types import SimpleNamespace

import pytest

from bot.chat import screens
from bot.chat.messenger import Text
from bot.telegram_app.app import build_application
from bot.telegram_app.invites import ADMIN_RIGHTS, games_named
from bot.telegram_app.topics import own_place
from engine.games import GAMES
from engine.service.tables import GameService
from tests.fakes.telegram_doors import TelegramApps, command_message, link, url_buttons
from tests.fakes.telegram_limits import deep_link_problem
from tests.fakes.telegram_server import BOT_TOKEN, BOT_USERNAME, BotAPIServer
from words.i18n import game_name, t

GROUP = -100777
ANN, BOB, CY = 11, 12, 13
WEB = "https://play.example"


@contextlib.asynccontextmanager
async def telegram(tmp_path, monkeypatch, me: dict | None = None, web: str | None = None, server=None):
    """The bot (its language English) over a fake Bot API, and people's apps to tap with."""
    if web:
        monkeypatch.setenv("TYCOON_WEB_URL", web)
    else:
        monkeypatch.delenv("TYCOON_WEB_URL", raising=False)
    server = server or BotAPIServer(me=me)
    port = await server.start()
    service = await GameService.open(f"sqlite:///{tmp_path / 'doors.db'}")
    app = build_application(service, BOT_TOKEN, base_url=f"http://127.0.0.1:{port}/p0/bot", rate_limit=False,
                            lang="en")
    await app.initialize()  # getMe
    try:
        yield TelegramApps(server, app, service)
    finally:
        await app.shutdown()
        await service.close()
        await server.stop()
    assert server.refused == [], "the bot sent something Telegram refuses"


def sent(server: BotAPIServer, chat: int, method: str = "sendMessage") -> list[dict]:
    return [c.params for c in server.calls if c.method == method and int(c.params.get("chat_id", 0)) == chat]


def keys_of(server: BotAPIServer, chat: int, message_id: int) -> list[dict]:
    return server.messages[(chat, message_id)]["keys"]


def newest(server: BotAPIServer, chat: int) -> tuple[int, dict]:
    mid = max(m for c, m in server.messages if c == chat)
    return mid, server.messages[(chat, mid)]


# -- the greeting and /help ------------------------------------------------------------------------


async def test_the_private_start_greets_with_add_to_a_group_invite_friends_and_the_web_table(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch, web=WEB) as tg:
        tg.person(ANN, "Ann", "zh-hans")
        await tg.start(ANN)
        _, greeting = newest(tg.server, ANN)
        assert greeting["text"] == t("zh-Hans", "tg.greet.private", name="Ann", games=games_named("zh-Hans"))
        assert games_named("zh-Hans") == "大富翁纸牌、地产大亨"
        add, invite, web = greeting["keys"]
        assert add["text"] == t("zh-Hans", "tg.btn.add_group") and add["style"] == "primary"
        assert link(add["url"]) == ("startgroup", "play") and deep_link_problem(add["url"]) is None
        assert f"admin={ADMIN_RIGHTS}" in add["url"] and add["url"].startswith(f"https://t.me/{BOT_USERNAME}?")
        assert invite["switch_inline_query_chosen_chat"] == {"query": "", "allow_user_chats": True,
                                                             "allow_group_chats": True}
        assert web["web_app"] == {"url": f"{WEB}/tg"}  # the Main Mini App's entry page

        # /help in the private chat: the same ways in under the help
        await tg.send(command_message(tg.person(ANN), ANN, "/help"))
        _, helped = newest(tg.server, ANN)
        assert helped["text"] == t("en", "tg.help")  # the private chat's language (the bot's, here)
        assert [next(k for k in b if k not in ("text", "style")) for b in helped["keys"]] == [
            "url", "switch_inline_query_chosen_chat", "web_app"]
        # /help in a group: Add to a group only (a Mini App button is refused outside private chats)
        await tg.send(command_message(tg.person(ANN), GROUP, "/help"))
        _, helped = newest(tg.server, GROUP)
        assert [b["text"] for b in helped["keys"]] == [t("en", "tg.btn.add_group")]


async def test_the_greeting_has_no_web_table_without_an_https_web_table(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        await tg.start(ANN)
        _, greeting = newest(tg.server, ANN)
        assert [b["text"] for b in greeting["keys"]] == [t("en", "tg.btn.add_group"), t("en", "tg.btn.invite")]


# -- inline mode ---------------------------------------------------------------------------------------


async def test_an_inline_query_answers_with_a_card_per_game_and_their_deep_links(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        tg.person(ANN, "Ann", "en")
        results = await tg.inline(ANN, "supergroup")
        answer = next(iter(tg.server.inline_answers.values()))
        assert answer["is_personal"] in ("true", "True", True) and 0 < int(answer["cache_time"]) <= 30
        assert answer["button"] == {"text": t("en", "tg.inline.how"), "start_parameter": "play"}
        assert [r["id"] for r in results] == [f"play:{g}" for g in GAMES]
        for game, card in zip(GAMES, results, strict=True):
            named = game_name(game, "en")
            assert card["title"] == t("en", "tg.inline.play.title_here", game=named)
            text = card["input_message_content"]["message_text"]
            assert text.startswith(f"🎲 Ann wants to play {named} here!") and f"@{BOT_USERNAME}" in text
            (button,) = url_buttons(card)
            assert link(button["url"]) == ("startgroup", game) and deep_link_problem(button["url"]) is None
            assert button["text"] in text  # the card says which button adds the bot
        # from a private chat with a friend: the cards invite to pick a group
        results = await tg.inline(ANN, "private")
        assert [r["title"] for r in results] == [t("en", "tg.inline.play.title_elsewhere", game=game_name(g, "en"))
                                                 for g in GAMES]
        # the user's language, whatever the chat's
        tg.people[BOB] = {"id": BOB, "is_bot": False, "first_name": "Bob", "language_code": "zh-hant"}
        results = await tg.inline(BOB, "group", query="board")
        assert [r["title"] for r in results] == [t("zh-Hant", "tg.inline.play.title_here",
                                                   game=game_name("board", "zh-Hant"))]
        # in a channel nobody plays: no card
        assert await tg.inline(ANN, "channel") == []


async def test_join_my_table_cards_link_to_each_table_the_user_sits_at(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        tg.person(ANN, "Ann")
        await tg.send(command_message(tg.person(ANN), GROUP, "/newgame deal"))
        table = (await tg.service.lobby.table_in_chat(f"tg:{GROUP}")).id
        await tg.send(command_message(tg.person(BOB), -100888, "/newgame board"))  # Bob's, elsewhere
        results = await tg.inline(ANN, "private")
        joins = [r for r in results if r["id"].startswith("join:")]
        assert [r["id"] for r in joins] == [f"join:{table}"]  # her table only
        card = joins[0]
        assert card["title"] == t("en", "tg.inline.join.title", table=table, game=game_name("deal", "en"))
        assert card["description"] == t("en", "tg.inline.join.desc_lobby", count=1)
        (button,) = url_buttons(card)
        assert link(button["url"]) == ("start", f"t{table}") and deep_link_problem(button["url"]) is None

        # Cy gets the card in his chat with Ann and taps it: /start t<table> seats him in the lobby
        await tg.open(CY, button["url"])
        seats = [s["user"] for s in tg.service.cache.row(table).seats]
        assert seats == [f"tg:{ANN}", f"tg:{CY}"]
        _, told = newest(tg.server, CY)
        assert told["text"] == t("en", "tg.joined_by_link", table=table, game=game_name("deal", "en"))
        lobby = tg.service.cache.row(table).messages["tg_lobby"]
        assert "P13" in tg.server.messages[(GROUP, lobby)]["text"]  # the lobby's message shows him
        # started, the table is no lobby any more: the same link tells a newcomer so, and seats nobody
        await tg.press(ANN, GROUP, f"l:{table}:start")
        assert tg.service.cache.row(table).status == "running"
        await tg.start(BOB, f"t{table}")
        _, told = newest(tg.server, BOB)
        assert told["text"] == t("en", "service.not_a_player")
        assert len(tg.service.cache.row(table).seats) == 2
        # a running game's card opens it
        card = next(r for r in await tg.inline(ANN, "private") if r["id"] == f"join:{table}")
        assert card["description"] == t("en", "tg.inline.join.desc_running", count=2)
        assert url_buttons(card)[0]["text"] == t("en", "tg.inline.btn.open")


@pytest.mark.parametrize("main_app", [True, False])
async def test_with_a_main_mini_app_the_join_card_opens_the_table_in_it(tmp_path, monkeypatch, main_app):
    """``startapp`` opens the bot's Main Mini App, which only @BotFather sets up (getMe tells):
    without one the card keeps the private chat's link."""
    async with telegram(tmp_path, monkeypatch, me={"has_main_web_app": main_app}, web=WEB) as tg:
        await tg.send(command_message(tg.person(ANN), GROUP, "/newgame board"))
        table = (await tg.service.lobby.table_in_chat(f"tg:{GROUP}")).id
        card = next(r for r in await tg.inline(ANN, "supergroup") if r["id"] == f"join:{table}")
        (button,) = url_buttons(card)
        assert deep_link_problem(button["url"]) is None
        if main_app:
            assert link(button["url"]) == ("startapp", f"t{table}")
            assert await tg.open(CY, button["url"]) == f"t{table}"  # the Mini App opens on the table
        else:
            assert link(button["url"]) == ("start", f"t{table}")


# -- the bot added to a group ---------------------------------------------------------------------


async def test_the_add_link_greets_the_group_once_and_a_tap_opens_the_lobby_with_buttons_only(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        await tg.start(ANN)
        _, greeting = newest(tg.server, ANN)
        add = greeting["keys"][0]["url"]
        await tg.open(ANN, add, GROUP)  # Telegram: my_chat_member, then /start@tycoon_bot play
        group = sent(tg.server, GROUP)
        assert len(group) == 1, "greeted once, though Telegram told the bot twice"
        mid, hello = newest(tg.server, GROUP)
        assert hello["text"] == t("en", "tg.greet.group", games="Monopoly Deal, Monopoly")
        assert hello["buttons"] == [f"n:{g}" for g in GAMES]
        await tg.press(ANN, GROUP, "n:deal")
        table = (await tg.service.lobby.table_in_chat(f"tg:{GROUP}")).id
        assert tg.service.cache.row(table).game == "deal"
        await tg.press(BOB, GROUP, f"l:{table}:join")
        await tg.press(ANN, GROUP, f"l:{table}:start")
        assert tg.service.cache.row(table).status == "running"
        # no command typed by anyone; Ann: Start, Add to a group, the group, confirm, the game, Start
        assert tg.typed == {} and tg.taps == {ANN: 6, BOB: 1}


async def test_a_games_own_add_link_opens_its_lobby_in_place_of_the_greeting(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        (card,) = [r for r in await tg.invite(ANN, "private") if r["id"] == "play:board"]
        await tg.choose(ANN, BOB, card)  # sent to Bob, privately: nothing for the bot to do there
        assert sent(tg.server, BOB) == []
        await tg.open(BOB, url_buttons(card)[0]["url"], GROUP)  # Bob adds the bot to his group with it
        row = await tg.service.lobby.table_in_chat(f"tg:{GROUP}")
        assert row is not None and row.game == "board" and row.seats[0]["user"] == f"tg:{BOB}"
        live = [m for (c, m), message in tg.server.messages.items() if c == GROUP]
        assert live == [row.messages["tg_lobby"]], "the greeting went, the lobby is the group's one message"


async def test_a_play_card_sent_via_the_bot_into_its_group_opens_the_lobby(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        tg.groups.add(GROUP)  # the bot is in the group already
        (card,) = [r for r in await tg.inline(ANN, "supergroup") if r["id"] == "play:deal"]
        card_id = await tg.choose(ANN, GROUP, card)
        row = await tg.service.lobby.table_in_chat(f"tg:{GROUP}")
        assert row is not None and row.game == "deal" and row.seats[0]["user"] == f"tg:{ANN}"
        (posted,) = sent(tg.server, GROUP)
        assert json.loads(posted["reply_parameters"])["message_id"] == card_id  # the lobby, under the card


# -- the menu button ----------------------------------------------------------------------------------


async def _run_until(app, server: BotAPIServer) -> None:
    from bot.process.platforms import keep_telegram

    stop = asyncio.Event()

    async def later():
        for _ in range(300):  # until the bot polls (its start-up done), however long a busy machine takes
            if any(c.method == "getUpdates" for c in server.calls):
                break
            await asyncio.sleep(0.05)
        stop.set()

    await asyncio.gather(keep_telegram(app, stop, retry_first=0.01), later())
    assert any(c.method == "getUpdates" for c in server.calls), "the bot runs"


async def test_the_menu_button_opens_the_web_table_and_a_refusal_stops_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("TYCOON_WEB_URL", WEB)
    for refuse in (False, True):
        server = RefusingMenu() if refuse else BotAPIServer()
        port = await server.start()
        service = await GameService.open(f"sqlite:///{tmp_path / f'menu{refuse}.db'}")
        app = build_application(service, BOT_TOKEN, base_url=f"http://127.0.0.1:{port}/p0/bot", rate_limit=False,
                                lang="zh-Hans")
        try:
            await _run_until(app, server)
        finally:
            await service.close()
            await server.stop()
        (call,) = [c.params for c in server.calls if c.method == "setChatMenuButton"]
        assert "chat_id" not in call  # the bot's default, for every private chat
        if not refuse:
            assert server.menu_buttons[None] == {"type": "web_app", "text": t("zh-Hans", "tg.menu.button"),
                                                 "web_app": {"url": f"{WEB}/tg"}}


class RefusingMenu(BotAPIServer):
    def _reply(self, call):
        if call.method == "setChatMenuButton":
            return self._refuse(call.method, "Bad Request: BOT_INVALID")
        return super()._reply(call)


async def test_without_an_https_web_table_the_menu_button_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("TYCOON_WEB_URL", "http://localhost:8080")
    server = BotAPIServer()
    port = await server.start()
    service = await GameService.open(f"sqlite:///{tmp_path / 'menu.db'}")
    app = build_application(service, BOT_TOKEN, base_url=f"http://127.0.0.1:{port}/p0/bot", rate_limit=False)
    try:
        await _run_until(app, server)
    finally:
        await service.close()
        await server.stop()
    assert not any(c.method == "setChatMenuButton" for c in server.calls)


# -- one private topic per game -----------------------------------------------------------------------


async def _deal_for_two(tg: TelegramApps, group: int = GROUP) -> int:
    await tg.send(command_message(tg.person(ANN), group, "/newgame deal"))
    table = (await tg.service.lobby.table_in_chat(f"tg:{group}")).id
    await tg.press(BOB, group, f"l:{table}:join")
    await tg.press(ANN, group, f"l:{table}:start")
    return table


async def test_each_player_gets_one_private_topic_per_game_where_the_bot_has_topics(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch, me={"has_topics_enabled": True}) as tg:
        first = await _deal_for_two(tg)
        second = await _deal_for_two(tg, -100999)
        made = [c.params for c in tg.server.calls if c.method == "createForumTopic"]
        assert sorted((int(p["chat_id"]), p["name"]) for p in made) == sorted(
            (uid, t("en", "tg.topic.name", game=game_name("deal", "en"), table=table))
            for uid in (ANN, BOB) for table in (first, second)), "one topic per player and game, made once"
        for table in (first, second):
            record = tg.service.cache.row(table).messages["tg_dm"]
            for uid in (ANN, BOB):
                seat = next(n for n, s in enumerate(tg.service.cache.row(table).seats) if s["user"] == f"tg:{uid}")
                (chat, thread), ids = record[str(seat)]
                assert chat == uid and tg.server.topics[uid][thread] == t(
                    "en", "tg.topic.name", game=game_name("deal", "en"), table=table)
                assert all(tg.server.messages[(uid, mid)]["thread"] == thread for mid in ids)
        # every private message about a table goes to its topic: the hands (and the notices) of both
        # games went to their own topics only, never to the plain chat
        private = [p for c in tg.server.calls if c.method in ("sendMessage", "sendPhoto")
                   for p in [c.params] if int(p["chat_id"]) > 0]
        assert private and all(p.get("message_thread_id") for p in private)
        # her deep link again (her screen brought up to date): the same topic, not made again
        await tg.start(ANN, f"t{first}")
        assert len([c for c in tg.server.calls if c.method == "createForumTopic"]) == 4

        # what the bot asks there later (a bid to type) goes to the same topic
        seat = next(n for n, s in enumerate(tg.service.cache.row(first).seats) if s["user"] == f"tg:{ANN}")
        (_, thread), _ = tg.service.cache.row(first).messages["tg_dm"][str(seat)]
        assert await own_place(tg.service, first, f"tg:{ANN}") == (ANN, thread)
        assert await own_place(tg.service, first, f"tg:{CY}") == (CY, None)  # no seat there: the plain chat
        # a command typed in the topic is the private chat's (its language) and answered in the topic
        await tg.send(command_message(tg.person(ANN), ANN, "/lang zh-Hant", thread=thread))
        assert await tg.app.bot_data["front"].flows.lang_of(f"tg:{ANN}") == "zh-Hant"
        _, said = newest(tg.server, ANN)
        assert said["thread"] == thread

        # the player deleted a topic: the game's messages go to the plain private chat then
        seat = next(n for n, s in enumerate(tg.service.cache.row(first).seats) if s["user"] == f"tg:{ANN}")
        (chat, thread), _ = tg.service.cache.row(first).messages["tg_dm"][str(seat)]
        tg.server.delete_topic(ANN, thread)
        tg.server.refused.clear()
        posted = await tg.app.bot_data["front"].messenger.post((ANN, thread), Text("hello"), [])
        assert tg.server.messages[(ANN, posted)]["thread"] is None
        assert tg.server.refused == [("sendMessage", "Bad Request: message thread not found")]
        tg.server.refused.clear()


async def test_without_topics_the_private_messages_stay_in_the_one_private_chat(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        table = await _deal_for_two(tg)
        assert not any(c.method == "createForumTopic" for c in tg.server.calls)
        record = tg.service.cache.row(table).messages["tg_dm"]
        assert sorted(entry[0] for entry in record.values()) == [ANN, BOB]
        assert not any(c.params.get("message_thread_id") for c in tg.server.calls if c.method == "sendMessage")


# -- coloured buttons --------------------------------------------------------------------------------


async def test_the_expected_answer_is_coloured_and_ending_a_game_is_red(tmp_path, monkeypatch):
    async with telegram(tmp_path, monkeypatch) as tg:
        await tg.send(command_message(tg.person(ANN), GROUP, "/newgame board"))
        table = (await tg.service.lobby.table_in_chat(f"tg:{GROUP}")).id
        await tg.press(BOB, GROUP, f"l:{table}:join")
        await tg.press(ANN, GROUP, f"l:{table}:start")
        # the board's first question: the roll, on the table message, the one expected answer
        table_message = tg.service.cache.row(table).messages["tg"]
        keys = keys_of(tg.server, GROUP, table_message)
        rolls = [k for k in keys if "callback_data" in k and k["callback_data"][:2] not in ("h:", "b:")]
        assert rolls and all(k.get("style") == "primary" for k in rolls), keys
        assert all("style" not in k for k in keys if k not in rolls)  # "My options" and the like: default
        await tg.send(command_message(tg.person(ANN), GROUP, "/endgame"))
        _, asked = newest(tg.server, GROUP)
        yes, no = asked["keys"]
        assert yes["style"] == "danger" and "style" not in no


def test_a_players_one_expected_answer_is_marked_on_their_own_screen_and_never_two(monkeypatch):
    """``bot.chat.screens``: the step that answers (or leads to the answer) is marked ``main`` when
    exactly one move ranks first; a seat with several such moves has none marked."""
    choice = SimpleNamespace
    ranked = {"roll": 0, "buy": 0, "build": 1}
    monkeypatch.setattr(screens, "GAMES", {**GAMES, "toy": SimpleNamespace(presentation=SimpleNamespace(
        rank=lambda action: ranked[action]))})
    one = [choice(action="roll", token="t1", seat=0, answers=True), choice(action="build", token="t2", seat=0,
                                                                          answers=True)]
    assert screens.expected("toy", one) == {"t1"}
    two = [choice(action="roll", token="t1", seat=0, answers=True), choice(action="buy", token="t3", seat=0,
                                                                         answers=True)]
    assert screens.expected("toy", two) == set()
    not_asked = [choice(action="roll", token="t1", seat=0, answers=False)]
    assert screens.expected("toy", not_asked) == set()
    assert screens.expected("toy", not_asked, answered_only=False) == {"t1"}
    per_seat = [*one, choice(action="buy", token="t4", seat=1, answers=True)]
    assert screens.expected("toy", per_seat) == {"t1", "t4"}


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_every_door_text_is_in_every_language(lang):
    from words.i18n import CATALOGUES

    keys = [k for k in CATALOGUES["en"] if k.startswith(("tg.greet.", "tg.inline.", "tg.btn.add_group", "tg.btn.invite",
                                                          "tg.btn.web", "tg.menu.", "tg.topic.", "tg.joined_by"))]
    assert len(keys) >= 20
    assert all(CATALOGUES[lang].get(k) for k in keys)


async def test_the_expected_answer_on_a_players_own_screen_is_coloured(tmp_path, monkeypatch):
    """Deal ranks none of a turn's moves first; ranked first, "End turn" (a step of its own on the
    first keyboard) is the one button of the hand marked, and Telegram shows it blue."""
    from engine.deal.model import EndTurn

    deal = GAMES["deal"]
    monkeypatch.setattr(screens, "GAMES", {**GAMES, "deal": SimpleNamespace(presentation=SimpleNamespace(
        rank=lambda action: 0 if isinstance(action, EndTurn) else deal.presentation.rank(action)))})
    async with telegram(tmp_path, monkeypatch) as tg:
        table = await _deal_for_two(tg)
        current = deal.rules.waiting_for(tg.service.cache.state(table))[0].seat
        uid = int(tg.service.cache.row(table).seats[current]["user"][3:])
        public, own = await tg.service.seat_view(table, f"tg:{uid}")
        shown = screens.private_screen(own, public.names, "en", pictures=False)
        marked = [b for b in shown.buttons if b.tone == "main"]
        (end,) = [c for c in own.choices if isinstance(c.action, EndTurn)]
        assert [b.token for b in marked] == [end.token]
        # the hand's message as Telegram got it: that button, and it alone, blue
        (_, ids), = [entry for seat, entry in tg.service.cache.row(table).messages["tg_dm"].items()
                     if int(seat) == current]
        keys = keys_of(tg.server, uid, ids[0])
        assert [k["callback_data"] for k in keys if k.get("style") == "primary"] == [end.token]


async def test_people_reach_a_running_game_by_the_doors_with_no_typed_command(tmp_path, monkeypatch):
    """The script of ``tests/fakes/telegram_doors.py``: Ann brings the bot into her group from its
    private chat, Bob joins from the group's lobby, Cy from the "Join my table" card Ann sends him
    privately, Dee from the same card Ann sends into the group; Ann starts. Taps only."""
    async with telegram(tmp_path, monkeypatch) as tg:
        ann, bob, cy, dee = ANN, BOB, CY, 14
        await tg.start(ann)
        _, greeting = newest(tg.server, ann)
        await tg.open(ann, greeting["keys"][0]["url"], GROUP)
        await tg.press(ann, GROUP, "n:deal")
        table = (await tg.service.lobby.table_in_chat(f"tg:{GROUP}")).id
        await tg.press(bob, GROUP, f"l:{table}:join")
        (card,) = [r for r in await tg.invite(ann, "private") if r["id"] == f"join:{table}"]
        await tg.choose(ann, cy, card)
        await tg.open(cy, url_buttons(card)[0]["url"])
        (card,) = [r for r in await tg.invite(ann, "supergroup") if r["id"] == f"join:{table}"]
        await tg.choose(ann, GROUP, card)  # a "Join my table" card opens no second lobby
        await tg.open(dee, url_buttons(card)[0]["url"])
        await tg.press(ann, GROUP, f"l:{table}:start")
        row = tg.service.cache.row(table)
        assert row.status == "running" and [s["user"] for s in row.seats] == [f"tg:{u}" for u in (ann, bob, cy, dee)]
        assert tg.typed == {}
        assert tg.taps == {ann: 12, bob: 1, cy: 1, dee: 1}


@pytest.mark.parametrize("payload", ["play", "deal"])
async def test_the_two_updates_of_an_addition_in_either_order_make_one_message(tmp_path, monkeypatch, payload):
    """Telegram's ``my_chat_member`` and the link's ``/start`` may reach the bot in either order
    (updates are handled concurrently): the group gets one greeting, or one lobby."""
    from tests.fakes.telegram_doors import added

    async with telegram(tmp_path, monkeypatch) as tg:
        ann = tg.person(ANN)
        await tg.send(command_message(ann, GROUP, f"/start@{BOT_USERNAME} {payload}"))
        await tg.send(added(tg.server, ann, GROUP))
        (only,) = [m for c, m in tg.server.messages if c == GROUP]
        row = await tg.service.lobby.table_in_chat(f"tg:{GROUP}")
        if payload == "deal":
            assert row.messages["tg_lobby"] == only
        else:
            assert row is None and tg.server.messages[(GROUP, only)]["buttons"] == [f"n:{g}" for g in GAMES]
        # at once: still one
        other = GROUP - 1
        await asyncio.gather(tg.send(added(tg.server, ann, other)),
                             tg.send(command_message(ann, other, f"/start@{BOT_USERNAME} {payload}")))
        assert len([m for c, m in tg.server.messages if c == other]) == 1


async def test_a_lobby_changed_on_the_web_is_shown_in_its_groups_lobby_message(tmp_path, monkeypatch):
    """Someone seated through the Mini App (another door to the same table): the bot of this process
    redraws the group's one lobby message with them (``Flows.changed_elsewhere``, wired by
    bot/process/run.py); another platform's table is not its to show."""
    async with telegram(tmp_path, monkeypatch) as tg:
        await tg.add_to_group(ANN, GROUP, "deal")
        table = (await tg.service.lobby.table_in_chat(f"tg:{GROUP}")).id
        lobby = tg.service.cache.row(table).messages["tg_lobby"]
        assert "Bob" not in tg.server.messages[(GROUP, lobby)]["text"]
        assert (await tg.service.lobby.join(table, f"tg:{BOB}", "Bob")).ok  # as the Mini App's link does
        flows = tg.app.bot_data["front"].flows
        await flows.changed_elsewhere(table)
        assert "Bob" in tg.server.messages[(GROUP, lobby)]["text"]
        other = await tg.service.lobby.new_table("dc:1:2", "deal", None, "dc:9", "Di")
        calls = len(tg.server.calls)
        await flows.changed_elsewhere(other.table)
        assert len(tg.server.calls) == calls, "a Discord table is the Discord bot's to show"


@pytest.mark.parametrize("payload", ["play", "deal"])
async def test_an_additions_two_updates_in_two_processes_make_one_message(db_url, monkeypatch, payload):
    """Webhooks behind a load balancer: Telegram's ``my_chat_member`` reaches one process and the
    link's ``/start`` another, at once; what the group was told is noted in the shared database, so
    it gets one greeting, or one lobby (``invites.py``)."""
    from tests.fakes.telegram_doors import added

    monkeypatch.delenv("TYCOON_WEB_URL", raising=False)
    server = BotAPIServer()
    port = await server.start()
    services = [await GameService.open(db_url) for _ in range(2)]
    apps = [build_application(s, BOT_TOKEN, base_url=f"http://127.0.0.1:{port}/p{i}/bot", rate_limit=False,
                              lang="en") for i, s in enumerate(services)]
    try:
        for app in apps:
            await app.initialize()
        one, two = (TelegramApps(server, app, service) for app, service in zip(apps, services, strict=True))
        ann = one.person(ANN)
        two.person(ANN)
        await asyncio.gather(one.send(added(server, ann, GROUP)),
                             two.send(command_message(ann, GROUP, f"/start@{BOT_USERNAME} {payload}")))
        shown = [m for (c, m), kept in server.messages.items() if c == GROUP]
        lobby = await services[0].lobby.table_in_chat(f"tg:{GROUP}")
        if payload == "deal":
            assert lobby is not None and shown == [lobby.messages["tg_lobby"]], shown
        else:
            assert lobby is None and len(shown) == 1 and server.messages[(GROUP, shown[0])]["buttons"] == [
                f"n:{g}" for g in GAMES]
    finally:
        for app in apps:
            await app.shutdown()
        for service in services:
            await service.close()
        await server.stop()
    assert server.refused == []
