"""The Discord bot, offline: the real discord.py client logged in to the fake Discord on 127.0.0.1
(``tests/fakes/discord_server.py``, as strict as Discord) and connected to its gateway; each
interaction is sent down the gateway as Discord sends it and answered over HTTP, and ``dispatch``
returns once the bot has finished with it (``tests/bot/discord_app/harness.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
import pytest
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.discord_app.app import TycoonBot
from engine.games import GAMES
from engine.service.storage import queries
from engine.service.storage.rows import ActionRow, ScheduleRow
from engine.service.tables import GameService
from tests.board_builders import tables_start_at
from tests.bot import stepping
from tests.bot.discord_app.harness import fake_discord, handled, online
from tests.engine.service.test_service import step
from tests.fakes.discord_api import (
    CHANNEL,
    DM_BASE,
    EPHEMERAL_CHANNEL,
    GUILD,
    every_component,
    interaction_payload,
    member,
    message_payload,
    text_of,
)
from tests.fakes.discord_api import DiscordAPI as FakeDiscord
from tests.fakes.discord_server import DiscordServer
from words.deal_text import card_name
from words.i18n import t

MANAGE_GUILD, MANAGE_EVENTS = 1 << 5, 1 << 33
SERVERS: dict[int, DiscordServer] = {}  # the fake Discord each running client is connected to (``dispatch`` uses it)
LATE_TURN = 940  # where a board game that need not be whole starts (``tables_start_at``)
SESSION_TURN = 350  # where the four members' board session starts: 700 presses and more to its end
WHOLE_BOARD_SEED = 58  # a whole board game (Ann, Bob, an AI seat) that a person wins by bankruptcy in 85 turns


def _message(channel: int = CHANNEL, components=None) -> dict:
    return message_payload(channel, components)


_member = member


def _base(uid: int, kind: int, permissions: int = 0, app_permissions: int = MANAGE_EVENTS,
          locale: str = "en-US") -> dict:
    return interaction_payload(uid, kind, permissions, app_permissions, locale)


def slash(name: str, uid: int, permissions: int = 0, **options) -> dict:
    data = {"id": str(abs(hash(name))), "name": name, "type": 1,
            "options": [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]}
    return {**_base(uid, 2, permissions), "data": data}


SIGNER: dict = {}  # the running bot's service signs what ``click`` carries, as the bot signs what it shows
SIGNED = ("l:", "h:", "b:", "e:", "s:", "T:", "p:", "m:", "a:")


def plain(custom_id: str) -> str:
    """A button id as the tests name it: lobby, hand, sign-up… ids without the bot's signature."""
    return custom_id.rsplit(".", 1)[0] if custom_id[:2] in SIGNED else custom_id


def click(custom_id: str, uid: int, permissions: int = 0, message: int | None = None,
          channel: int = CHANNEL, signed: bool = True) -> dict:
    """A press on a button of a message that carries it (discord.py finds the button there);
    ``message``: which message of ours it is (so the fake knows what an edit of it changes);
    ``signed=False``: the id exactly as given, as a forger would send it."""
    if signed and custom_id[:2] in SIGNED and "." not in custom_id and "sign" in SIGNER:
        custom_id = SIGNER["sign"](custom_id)
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}
    payload = {**_base(uid, 3, permissions), "data": {"custom_id": custom_id, "component_type": 2},
               "message": _message(channel, components=[row])}
    if message is not None:
        payload["message"]["id"] = str(message)
    return payload


class _Errors(logging.Handler):
    """Exceptions inside handlers are logged (by discord.py, or by our error boundary after it
    answered "something went wrong"), not raised: the tests fail on them."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("discord", "bot", "engine")):
            self.records.append(record)


@contextlib.asynccontextmanager
async def running_bot(tmp_path, monkeypatch, fake: FakeDiscord | None = None, errors_expected: bool = False,
                      seed: int = 0):
    """The bot on a fresh service, logged in to a fake Discord over ``fake`` and on its gateway (its
    games dealt from ``seed``). On the way out: nothing logged as an error (unless the test breaks
    something on purpose), no interaction answered twice, and nothing Discord refuses as malformed (400)."""
    fake = fake or FakeDiscord()
    service = await GameService.open(f"sqlite:///{tmp_path / 'dc.db'}")
    SIGNER["sign"] = service.sign
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    try:
        async with fake_discord(monkeypatch, fake) as server:
            client = TycoonBot(service, lang="en", seed=seed)
            async with online(client, server):
                SERVERS[id(client)] = server
                try:
                    yield client, fake, service
                finally:
                    SERVERS.pop(id(client), None)
    finally:
        logging.getLogger().removeHandler(errors)
        await service.close()
    assert errors_expected or not errors.records, [r.getMessage() for r in errors.records]
    malformed = [r for r in fake.refusals if r[2] == 400]
    assert not malformed, malformed[:3]


async def dispatch(client, payload: dict) -> None:
    """``payload`` delivered to the bot down the gateway; back once the bot has finished with it
    and the table updates it caused are out."""
    await handled(client, SERVERS[id(client)], payload)
    await client.front.service.idle()


async def open_table(client, fake, service, game: str = "deal", ai: bool = True) -> int:
    """/newgame by Ann, Bob joins, (an AI seat,) Ann starts: the running table's id."""
    await dispatch(client, slash("newgame", 1, game=game))
    table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
    await dispatch(client, click(f"l:{table}:join", 2))
    if ai:
        await dispatch(client, click(f"l:{table}:ai", 1))
    await dispatch(client, click(f"l:{table}:start", 1))
    assert service.cache.row(table).status == "running"
    return table


async def play_one(client, fake, service, table: int) -> None:
    """The first decision the table waits for, answered as the AI would, by pressing its button."""
    game = service.cache.row(table).game
    state = service.cache.state(table)
    decision = GAMES[game].rules.waiting_for(state)[0]
    uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
    wanted = GAMES[game].choose_listed(state, decision.seat)
    token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
    shown = await reach(client, fake, service, table, uid, token)  # through "My hand" and the steps
    version = service.cache.row(table).version
    await dispatch(client, click(shown, uid))
    assert service.cache.row(table).version > version


async def reach(client, fake, service, table: int, uid: int, token: str) -> str:
    """Presses through the steps of ``uid``'s choices (``bot.chat.steps``) until the move ``token``
    makes is a button they can press: on the channel's messages, in their DM, or in a reply only
    they see. The component id to press (``g:<token>``)."""
    token, nodes = await stepping.plan(service, table, f"dc:{uid}", token, "en")
    seen = len(fake.calls)
    for _ in range(12):
        # the channel, their DM, and the replies only they see (a closed DM's hand) that still have buttons
        live = {i: mid for c in (CHANNEL, DM_BASE + uid, EPHEMERAL_CHANNEL) for mid, ids in fake.live(c).items()
                for i in ids}
        replies = fake.custom_ids([c for c in fake.calls[seen:] if "/webhooks/" in c[1] or "/interactions/" in c[1]])
        if f"g:{token}" in live or f"g:{token}" in replies:
            return f"g:{token}"
        step = stepping.next_step([*live, *replies], nodes)
        seen = len(fake.calls)
        if step is None:  # "My hand" / "My options": their choices from the first step
            await dispatch(client, click(f"h:{table}", uid))
        else:
            await dispatch(client, click(step, uid, message=live.get(step), channel=CHANNEL if step not in live
                                         or live[step] not in fake.live(DM_BASE + uid) else DM_BASE + uid))
    raise AssertionError(f"no way through the steps to {token}")


def _hand_texts(fake: FakeDiscord, uids) -> set[str]:
    """What the players' DMs said (edits that only took buttons away say nothing)."""
    return {text_of(p) for uid in uids for p in fake.dms(uid) if text_of(p)}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["deal", "board"])
async def test_a_whole_game_by_slash_command_and_buttons(tmp_path, monkeypatch, game):
    """From /newgame to the winner by pressing buttons. The board game is dealt from a seed whose game
    ends by bankruptcy (seed 58: 85 turns, auctions, trades, debts, a person wins), not at the
    1,000-turn cap by valuation, where most seeds end between two people and an AI seat."""
    async with running_bot(tmp_path, monkeypatch, seed=0 if game == "deal" else WHOLE_BOARD_SEED) as (
            client, fake, service):
        table = await open_table(client, fake, service, game)
        rules = GAMES[game].rules
        hand_marker = t("en", "deal.ui.hand_line", count=0, cards="").split("(")[0]  # "Your hand "
        windows = 0
        for _ in range(3000):
            if service.cache.row(table).status != "running":
                break
            if rules.waiting_for(service.cache.state(table))[0].kind in ("respond", "counter"):
                windows += 1
            seen = len(fake.calls)
            await play_one(client, fake, service, table)
            new_public = [p for m, u, p in fake.calls[seen:] if f"/channels/{CHANNEL}/messages" in u]
            for seat in range(2):  # the two people's hands, as the public must never see them
                view = rules.view(service.cache.state(table), seat)["players"][seat]
                hand = ", ".join(card_name(c, "en") for c in view.get("hand", []))
                for p in new_public:
                    assert hand_marker not in text_of(p) and "hand.png" not in p["files"]
                    assert len(view.get("hand", [])) < 2 or hand not in text_of(p)
        assert service.cache.row(table).status == "over"
        assert fake.public(), "the table was posted in the channel"
        # no edit that changes nothing, of a channel message, a DM or an ephemeral reply ("My options"
        # kept current, an older one losing its buttons), and no picture uploaded again
        assert fake.identical == [] and fake.reuploads == 0, (fake.identical[:3], fake.reuploads)
        tables = [u for m, u, p in fake.calls if m == "POST" and u.endswith(f"/channels/{CHANNEL}/messages")
                  and "table.png" in p.get("files", [])]
        edits = [u for m, u, p in fake.calls if m == "PATCH" and f"/channels/{CHANNEL}/messages/" in u]
        # a new table message per turn (the old one loses its buttons), edited in place in between
        assert 1 < len(tables) <= service.cache.state(table).turn_number + 2 and len(edits) > 10
        if game == "deal":
            assert windows > 0  # seed 0 deals Just-Say-No windows between the two people
            hands = _hand_texts(fake, (1, 2))
            assert any(hand_marker in h for h in hands), "hands went by DM"
            assert all(h not in text_of(p) for h in hands for p in fake.public())


async def test_a_non_player_gets_an_ephemeral_no(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, "board", ai=False)
        move = next(c for c in fake.custom_ids() if c.startswith("g:"))
        before = service.cache.row(table).version
        await dispatch(client, click(move, 77))
        reply = fake.last_reply()
        assert reply["flags"] == 64 and "not playing" in text_of(reply)
        await dispatch(client, click(f"h:{table}", 77))  # nor may they see anyone's options
        reply = fake.last_reply()
        assert reply["flags"] == 64 and "not playing" in text_of(reply)
        assert service.cache.row(table).version == before


async def test_buttons_sent_before_a_restart_still_work(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, "board", ai=False)
        decision = service.cache.waiting_for(table)[0]
        shown = fake.custom_ids()
        version = service.cache.row(table).version
    # a new process on the same database: nothing in memory, only the ids on the old message
    async with running_bot(tmp_path, monkeypatch) as (client, fake2, service):
        token = next(tok for _, tok in service.buttons(table, decision.seat))
        assert f"g:{token}" in shown
        uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
        await dispatch(client, click(f"g:{token}", uid))
        assert service.cache.row(table).version == version + 1
        assert any(f"/channels/{CHANNEL}/messages" in u for _, u, _ in fake2.calls), "the table was shown again"


async def test_endgame_only_for_its_creator_or_manage_server(tmp_path, monkeypatch):
    """A running game ends only when asked twice (a button under /endgame's question), and only
    for its creator or a moderator; a lobby ends at once."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, "deal", ai=False)
        await dispatch(client, slash("endgame", 2))  # Bob joined but did not open it: told at once
        refusal = fake.last_reply()
        assert refusal["flags"] == 64 and text_of(refusal) == t("en", "service.not_creator")
        assert not fake.custom_ids([("", "", refusal)]), "no question he may not answer"
        await dispatch(client, click(f"e:{table}:y", 2))  # a "yes" pressed anyway (an old question)
        assert text_of(fake.last_reply()) == t("en", "service.not_creator")
        assert service.cache.row(table).status == "running"
        await dispatch(client, slash("endgame", 1))  # the creator is asked
        question = fake.last_reply()
        assert question["flags"] == 64 and text_of(question) == t("en", "ch.endgame_confirm")
        assert f"e:{table}:y" in fake.custom_ids([("", "", question)])
        await dispatch(client, slash("endgame", 1))  # the creator changes their mind
        await dispatch(client, click(f"e:{table}:n", 1))
        assert text_of(fake.last_reply()) == t("en", "ch.game_goes_on")
        assert service.cache.row(table).status == "running"
        await dispatch(client, slash("endgame", 3, permissions=MANAGE_GUILD))  # a moderator
        await dispatch(client, click(f"e:{table}:y", 3, permissions=MANAGE_GUILD))
        assert service.cache.row(table).status == "cancelled"
        assert text_of(fake.last_reply()) == t("en", "service.ended_by", by="U3")
        ended = [p for p in fake.public() if t("en", "service.ended_by", by="U3") in text_of(p)]
        assert ended and not fake.custom_ids([("", "", ended[-1])]), "the table message lost its buttons"
        await dispatch(client, slash("newgame", 1, game="board"))
        await dispatch(client, slash("endgame", 1))  # a lobby: no game to lose, no question
        assert (await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}")) is None


async def test_join_and_leave_by_slash_command(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("join", 2))
        assert text_of(fake.last_reply()) == t("en", "service.no_lobby")
        await dispatch(client, slash("newgame", 1, game="deal"))
        row = await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}")
        lobby = service.cache.row(row.id).messages["dc_lobby"]
        await dispatch(client, slash("join", 2))
        assert [s["user"] for s in service.cache.row(row.id).seats] == ["dc:1", "dc:2"]
        edited = [p for m, u, p in fake.calls if m == "PATCH" and u.endswith(f"/messages/{lobby}")]
        assert edited and "Bob" in text_of(edited[-1])  # the lobby message itself, not a copy
        await dispatch(client, slash("leave", 2))
        assert [s["user"] for s in service.cache.row(row.id).seats] == ["dc:1"]
        await dispatch(client, slash("join", 2))
        await dispatch(client, click(f"l:{row.id}:start", 1))
        while service.cache.waiting_for(row.id)[0].seat != 1:  # until Bob must act
            await play_one(client, fake, service, row.id)
        await dispatch(client, slash("leave", 2))  # in a running game the AI takes the seat at once
        assert service.cache.row(row.id).seats[1]["ai"] and service.cache.row(row.id).status == "running"
        assert all(d.seat != 1 for d in service.cache.waiting_for(row.id))


async def _schedules(service) -> list:
    async with AsyncSession(service.db) as session:
        return (await session.exec(select(ScheduleRow))).all()


async def test_schedule_needs_manage_server_or_events_and_makes_a_calendar_event(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("schedule", 2, game="deal", start="+30", minutes=45))
        reply = fake.last_reply()
        assert reply["flags"] == 64 and text_of(reply) == t("en", "dc.schedule_perm")
        assert await _schedules(service) == []

        await dispatch(client, slash("schedule", 3, permissions=MANAGE_EVENTS, game="deal", start="+30", minutes=45))
        assert len(await _schedules(service)) == 1
        events = [p for m, u, p in fake.calls if u.endswith(f"/guilds/{GUILD}/scheduled-events")]
        assert len(events) == 1 and events[0]["entity_type"] == 3 and events[0]["privacy_level"] == 2
        begins = (await _schedules(service))[0].start_at
        assert events[0]["scheduled_start_time"].startswith(
            discord.utils.utcnow().fromtimestamp(begins, discord.utils.utcnow().tzinfo).isoformat()[:16])
        reply = fake.last_reply()
        assert f"<t:{int(begins)}:R>" in text_of(reply) and t("en", "dc.no_event") not in text_of(reply)
        assert any(c.startswith("s:") for c in fake.custom_ids()), "a sign-up button"

        fake.events_forbidden = True  # the server took Manage Events away from the bot
        await dispatch(client, slash("schedule", 3, permissions=MANAGE_GUILD, game="board", start="20:30",
                                     minutes=30))
        assert len(await _schedules(service)) == 2, "the match stands without its calendar event"
        assert t("en", "dc.no_event") in text_of(fake.last_reply())

        sign_up = next(c for c in fake.custom_ids() if c.startswith("s:"))
        await dispatch(client, click(sign_up, 1))
        assert text_of(fake.last_reply()) == t("en", "ch.signed_up")


async def test_closed_dms_fall_back_to_the_ephemeral_hand_and_are_not_retried(tmp_path, monkeypatch):
    fake = FakeDiscord()
    fake.closed_dms.add(2)
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        table = await open_table(client, fake, service, "deal")
        assert fake.dms(1), "Ann's hand came by DM"
        assert service.cache.row(table).seats[1]["dm"] is False
        for _ in range(30):
            await play_one(client, fake, service, table)
        tries = [u for _, u, _ in fake.calls if f"/channels/{DM_BASE + 2}/messages" in u]
        assert len(tries) == 1, "a closed DM is tried once, not again and again"
        await dispatch(client, click(f"h:{table}", 2))
        reply = fake.last_reply("POST")
        assert reply["flags"] == 64 and t("en", "dc.dm_closed") in text_of(reply)
        assert t("en", "deal.ui.hand_line", count=0, cards="").split("(")[0] in text_of(reply)
        await dispatch(client, click(f"h:{table}", 1))
        assert t("en", "dc.dm_closed") not in text_of(fake.last_reply("POST"))


async def test_just_say_no_is_asked_under_the_table_message_with_a_countdown(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, "deal")
        rules = GAMES["deal"].rules
        for _ in range(500):
            decision = rules.waiting_for(service.cache.state(table))[0]
            if decision.kind in ("respond", "counter"):
                break
            await play_one(client, fake, service, table)
        else:
            pytest.fail("seed 0 deals a Just-Say-No window")
        uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
        asked = next(p for m, u, p in reversed(fake.calls) if m == "POST" and f"/channels/{CHANNEL}/messages" in u
                     and "message_reference" in p and text_of(p).startswith(f"<@{uid}>:"))
        pinged = asked["allowed_mentions"]
        assert [int(u) for u in pinged["users"]] == [uid] and not pinged["parse"], "the target is pinged, nobody else"
        assert asked["message_reference"]["message_id"] == service.cache.row(table).messages["dc"]
        assert f"<t:{int(service.clock()) + 20}:R>" in text_of(asked) or "<t:" in text_of(asked)
        # the prompt accepts in one tap, or opens the target's own choices: the same two buttons for
        # every target, so nothing public tells who holds a Just Say No (issue 45)
        accept = next(tok for a, tok in service.buttons(table, decision.seat) if a == decision.timeout)
        assert fake.custom_ids([("POST", "", asked)]) == [f"g:{accept}", f"h:{table}:{decision.seat}"]
        await dispatch(client, click(f"h:{table}:{decision.seat}", uid))
        tokens = {tok for _, tok in service.buttons(table, decision.seat)}
        own = [c[2:] for ids in fake.live(DM_BASE + uid).values() for c in ids if c.startswith("g:")]  # their DM
        assert own and set(own) <= tokens, "the target's own answers, privately"
        table_message = next(p for m, u, p in reversed(fake.calls)
                             if f"/channels/{CHANNEL}/messages" in u and "message_reference" not in p)
        assert not set(fake.custom_ids([("", "", table_message)])) & set(f"g:{tok}" for tok in own)
        version = service.cache.row(table).version
        await dispatch(client, click(f"g:{accept}", uid))  # one tap on the prompt: accepted
        assert service.cache.row(table).version > version
        assert not any(d.kind in ("respond", "counter") and d.seat == decision.seat
                       for d in rules.waiting_for(service.cache.state(table)))


async def test_lang_changes_the_next_public_message(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("lang", 2, language="zh-Hans"))
        assert text_of(fake.last_reply()) == t("en", "dc.manage_only")
        await dispatch(client, slash("lang", 2, permissions=MANAGE_GUILD, language="zh-Hans"))
        assert text_of(fake.last_reply()) == t("zh-Hans", "ch.lang_set")
        await dispatch(client, slash("newgame", 1, game="deal"))
        lobby = fake.last_reply()
        assert "等待玩家" in text_of(lobby) and "waiting for players" not in text_of(lobby)
        labels = [c["label"] for c in every_component(lobby) if c["type"] == 2]
        assert t("zh-Hans", "ch.btn.join") in labels


async def test_command_names_and_descriptions_are_localised_in_the_synced_tree(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await client.tree.sync()
        method, url, payload = next(c for c in fake.calls if c[1].endswith("/applications/42/commands"))
        assert method == "PUT"
        commands = {c["name"]: c for c in payload["commands"]}
        assert {"newgame", "join", "leave", "hand", "endgame", "rules", "lang", "stats", "schedule",
                "help"} <= set(commands)
        newgame = commands["newgame"]
        assert newgame["name_localizations"] == {"zh-CN": "开局", "zh-TW": "開局"}
        assert newgame["description_localizations"]["zh-CN"] == t("zh-Hans", "dc.cmd.newgame.desc")
        assert all(c["name_localizations"].get("zh-TW") for c in commands.values())
        game = next(o for o in commands["schedule"]["options"] if o["name"] == "game")
        assert game["description_localizations"]["zh-TW"] == t("zh-Hant", "dc.opt.game")


async def test_the_clock_announces_and_starts_a_scheduled_match_in_the_channel(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("schedule", 3, permissions=MANAGE_GUILD, game="deal", start="+30", minutes=20,
                                     ai=1))
        await dispatch(client, click(next(c for c in fake.custom_ids() if c.startswith("s:")), 1))
        now = service.clock()
        service.clock = lambda: now + 31 * 60
        seen = len(fake.calls)
        outcomes = await service.sweep()
        assert [o.key for o in outcomes] == ["service.match_announced", "service.match_started"]
        await service.idle()  # the notices and the tables' updates are out
        posted = [p for m, u, p in fake.calls[seen:] if m == "POST" and f"/channels/{CHANNEL}/messages" in u]
        assert text_of(posted[0]) == t("en", "service.match_announced")
        assert any(c.startswith("s:") for c in fake.custom_ids([("", "", posted[0])]))
        table = (await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}")).id
        assert service.cache.row(table).status == "running"
        assert posted[-1]["files"] == ["table.png"] and service.cache.row(table).messages["dc"]
        assert f"h:{table}" in fake.custom_ids([("", "", posted[-1])])


async def test_a_press_that_breaks_is_still_answered_and_logged_with_its_table(tmp_path, monkeypatch, caplog):
    """discord.py only logs what a button's callback raises: without our boundary the user's press
    would stay "thinking" for ever. A slash command that breaks is answered the same way."""
    async with running_bot(tmp_path, monkeypatch, errors_expected=True) as (client, fake, service):
        table = await open_table(client, fake, service, "board", ai=False)
        move = next(c for c in fake.custom_ids() if c.startswith("g:"))
        real_act = service.act

        async def broken(user, token):
            raise RuntimeError("a bug between the press and the move")

        monkeypatch.setattr(service, "act", broken)
        caplog.set_level(logging.ERROR)
        seat = service.cache.waiting_for(table)[0].seat
        await dispatch(client, click(move, int(service.cache.row(table).seats[seat]["user"][3:])))
        reply = fake.last_reply()
        assert reply["flags"] == 64 and text_of(reply) == t("en", "service.error")
        failed = [r for r in caplog.records if r.name == "bot.discord_app.frontend"]
        assert failed and f"table {table}" in failed[-1].getMessage() and failed[-1].exc_info
        monkeypatch.setattr(service, "act", real_act)
        monkeypatch.setattr(service.chats, "standings", broken)
        await dispatch(client, slash("stats", 1))
        reply = fake.last_reply()
        assert reply["flags"] == 64 and text_of(reply) == t("en", "service.error")
        assert service.cache.row(table).version == 0  # nothing changed


async def test_me_answers_the_asker_alone_with_their_ratings(tmp_path, monkeypatch):
    """Issue 48: ``/me`` is the asker's own (ephemeral): no rated game yet, then a finished game
    between two people gives each a rating, a rank and the game among their latest."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("me", 1))
        reply = fake.last_reply()
        assert reply["flags"] == 64 and t("en", "ch.me.none") in text_of(reply)
        out = await service.lobby.new_table(f"dc:{GUILD}:{CHANNEL}", "deal", None, "dc:1", "Ann")
        await service.lobby.join(out.table, "dc:2", "Bob")
        await service.lobby.start(out.table, "dc:1", seed=4)
        while await step(service, out.table):
            pass
        await service.idle()
        await dispatch(client, slash("me", 2))
        reply = fake.last_reply()
        lines = text_of(reply).splitlines()
        assert reply["flags"] == 64 and lines[0].startswith("📊") and "Bob" in lines[0], lines
        assert any("in every chat" in line and "of 2" in line for line in lines), lines
        assert f"#{out.table}" in lines[-1], lines
        # the achievements of the game: named once in the end message, listed in /me
        earned = {s: keys for s, keys in (await service.seen.story(out.table)).feats.items() if keys}
        assert earned, "this seeded game earns achievements"
        ends = [p for m, u, p in fake.calls if m == "POST" and u.endswith(f"/channels/{CHANNEL}/messages")
                and "🏅" in text_of(p)]
        assert len(ends) == 1, "one end message names them"
        names = {0: "Ann", 1: "Bob"}
        for seat, keys in earned.items():
            named = t("en", "ui.list_sep").join(t("en", f"feat.{k}") for k in keys)
            assert t("en", "end.feats_of", name=names[seat], feats=named) in text_of(ends[0])
        assert "<@" not in next(line for line in text_of(ends[0]).splitlines() if line.startswith("🏅"))
        bob = [line for line in lines if line.startswith("🏅")]
        assert all(t("en", f"feat.{k}") in "".join(bob) for k in earned.get(1, [])) and (bool(bob) == (1 in earned))
        # Rematch: a new lobby of the same game, naming the last game's players once
        await dispatch(client, click(f"l:{out.table}:again", 2))
        lobby = await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}")
        assert lobby is not None and lobby.id != out.table
        called = [p for p in fake.public() if t("en", "end.again_by", name="Bob") in text_of(p)]
        assert len(called) == 1 and text_of(called[0]).rstrip().endswith("<@1>"), called  # Ann, pinged once
        assert [str(u) for u in called[0]["allowed_mentions"]["users"]] == ["1"], called[0]["allowed_mentions"]
        assert [s.user for s in (await service.public_view(lobby.id)).seats] == ["dc:2"], "Bob opened it, seated"


async def test_a_player_who_left_gets_the_seat_back_with_my_hand(tmp_path, monkeypatch):
    """Bob leaves, the AI keeps his seat (the channel is told) and plays his turn, Bob comes back and
    presses "My hand": his own screen, with buttons, and the seat is his again (it used to raise
    KeyError). Bob leaves in the first turn (Ann's, seed 0): Ann plays it out, the AI plays Bob's
    one turn (three plays: nobody can have won yet) and Bob is back when it is Ann's turn again."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, "deal", ai=False)
        assert service.cache.waiting_for(table)[0].seat == 0 and service.cache.state(table).turn_number == 1
        await dispatch(client, slash("leave", 2))
        assert service.cache.row(table).seats[1]["ai"] is True
        note = t("en", "service.seat_left", name="Bob")
        assert any(note in text_of(p) for p in fake.public()), "the channel heard Bob left"
        while service.cache.state(table).turn_number == 1:  # Ann's turn, to its end
            await play_one(client, fake, service, table)
        for _ in range(2000):  # the AI plays Bob's turn by itself
            if service.cache.waiting_for(table)[0].seat == 0:
                break
            await asyncio.sleep(0.005)
        assert service.cache.waiting_for(table)[0].seat == 0 and service.cache.row(table).status == "running"
        assert any(x.seat == 1 for x in await queries.load_log(service.db, table)), "the AI played for Bob"
        seen = len(fake.calls)
        await dispatch(client, click(f"h:{table}", 2))
        reply = fake.last_reply("POST")
        assert reply["flags"] == 64 and t("en", "service.welcome_back") in text_of(reply)
        assert t("en", "ch.own_sent") in text_of(reply)  # one live copy of his hand: his DM
        hand = t("en", "deal.ui.hand_line", count=0, cards="").split("(")[0]
        assert any(hand in text_of(p) for m, u, p in fake.calls[seen:]
                   if f"/channels/{DM_BASE + 2}/messages" in u), "his own screen, in his DM"
        assert service.cache.row(table).seats[1]["ai"] is False
        await dispatch(client, slash("hand", 2))  # /hand too: his screen, no second welcome
        reply = fake.last_reply("POST")
        assert reply["flags"] == 64 and t("en", "service.welcome_back") not in text_of(reply)
        back = t("en", "service.seat_back", name="Bob")
        await play_one(client, fake, service, table)  # Ann moves; the table shows Bob is back
        assert any(back in text_of(p) for p in fake.public())


async def test_a_game_that_cannot_be_restored_is_announced_in_its_channel_once(tmp_path, monkeypatch):
    from sqlalchemy import update
    from sqlmodel.ext.asyncio.session import AsyncSession

    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("lang", 3, permissions=MANAGE_GUILD, language="zh-Hant"))
        table = await open_table(client, fake, service, "deal", ai=False)
        await play_one(client, fake, service, table)
        async with AsyncSession(service.db) as session:
            await session.exec(update(ActionRow).where(ActionRow.table_id == table)
                               .values(action="{garbled"))
            await session.commit()
    for _ in range(2):  # two restarts: told once
        async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
            await service.startup()
            told = [p for p in fake.public() if t("zh-Hant", "service.table_damaged", table=table) in
                    text_of(p)]
            assert len(told) == (1 if _ == 0 else 0)
            assert (await service.lobby.new_table(f"dc:{GUILD}:{CHANNEL}", "deal", None, "dc:1", "Ann")).ok or _


def _one_life(fake: FakeDiscord, service, table: int, members) -> None:
    """Only the current table message, the open prompts and each player's one DM have buttons;
    a Deal player's DM shows the hand they hold now."""
    from bot.chat.screens import hand_line
    from bot.discord_app.messenger import md
    from tests.bot.telegram_app.test_telegram import _own_view

    record = service.cache.row(table).messages or {}
    current = {record.get("dc")} | {p["id"] for p in record.get("dc_prompts", []) if p["buttons"]}
    assert set(fake.live(CHANNEL)) <= current, (fake.live(CHANNEL).keys(), current)
    dms = record.get("dc_dm", {})
    for seat, uid in enumerate(members):
        mine = set(dms[str(seat)][1]) if str(seat) in dms else set()
        assert set(fake.live(DM_BASE + uid)) <= mine, (uid, fake.live(DM_BASE + uid).keys(), mine)
        if service.cache.row(table).game == "deal" and mine:
            shown = fake.messages[(DM_BASE + uid, dms[str(seat)][1][0])]["content"]
            assert md(hand_line(_own_view(service, table, seat), "en")) in shown, "the private hand is current"


@pytest.mark.parametrize("game", ["deal", "board"])
async def test_four_members_play_a_whole_game_and_every_message_has_one_life(tmp_path, monkeypatch, game):
    """Four people, one of whom leaves and comes back: one new table message per turn (plus the
    start and the result), nothing but the current messages with buttons, no edit that changes
    nothing and no picture sent twice, every private hand current after every move. The board
    game starts at turn 940 (its last sixty turns; a whole one is played by the first test)."""
    if game == "board":
        tables_start_at(monkeypatch, SESSION_TURN)
    members = (1, 2, 3, 4)
    new_messages: list[str] = []
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        async def heard(update):
            if update.kind == "started" or update.turn_passed or update.over:
                new_messages.append(update.kind)

        service.subscribe(heard)
        await dispatch(client, slash("newgame", 1, game=game))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        for uid in members[1:]:
            await dispatch(client, slash("join", uid))
        lobby = service.cache.row(table).messages["dc_lobby"]
        assert "U4" in text_of(fake.messages[(CHANNEL, lobby)]), "/join updates the lobby message"
        started = len(fake.calls)
        await dispatch(client, click(f"l:{table}:start", 1, message=lobby))
        assert not fake.messages[(CHANNEL, lobby)]["ids"], "the lobby lost its buttons at Start"
        first_turn = service.cache.state(table).turn_number
        rules, presses, left, back = GAMES[game].rules, 0, False, False
        while service.cache.row(table).status == "running" and presses < 4000:
            _one_life(fake, service, table, members)
            if presses == 8 and not left:
                await dispatch(client, slash("leave", 3))  # Cy has to go; the AI keeps the seat
                left = True
                continue
            if left and not back and presses == 20:
                offered = [i for ids in fake.live(DM_BASE + 3).values() for i in ids]
                assert f"b:{table}" in offered, "Cy is offered the seat back in his DM"
                await dispatch(client, click(f"b:{table}", 3))
                back = service.cache.row(table).seats[2]["ai"] is False
                assert back
                continue
            state = service.cache.state(table)
            decision = rules.waiting_for(state)[0]
            uid = members[decision.seat]
            wanted = GAMES[game].choose_listed(state, decision.seat)
            token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
            token = await reach(client, fake, service, table, uid, token)  # every choice is shown
            await dispatch(client, click(token, uid))
            presses += 1
        assert service.cache.row(table).status == "over" and left and back
        answered = len([u for m, u, p in fake.calls[started:] if "/interactions/" in u])
        assert game == "deal" or answered >= 700, answered  # a long session: the board from turn 350
        # about one new channel message a turn, the prompts for answers under the table included
        posts = [u for m, u, p in fake.calls[started:] if m == "POST" and u.endswith(f"/channels/{CHANNEL}/messages")]
        turns = service.cache.state(table).turn_number - first_turn + 1  # the turns played through the chat
        assert 0.8 <= len(posts) / turns <= 1.6, (len(posts), turns)
        assert fake.identical == [], fake.identical[:3]
        assert fake.reuploads == 0
        tables = [p for m, u, p in fake.calls if m == "POST" and u.endswith(f"/channels/{CHANNEL}/messages")
                  and "table.png" in p.get("files", [])]
        assert len(tables) == len(new_messages) <= turns + 2
        assert new_messages[0] == "started" and new_messages[-1] == "over"
        (_end, after), = fake.live(CHANNEL).items()  # what next, under the result only
        assert after == [f"l:{table}:{op}" for op in ("again", "stats", "n:deal", "n:board")]
        assert not any(fake.live(DM_BASE + uid) for uid in members)
        result = tables[-1]
        assert all(f"<@{uid}>" in text_of(result) for uid in members), "the result mentions everyone"
        assert sorted(int(u) for u in result["allowed_mentions"]["users"]) == list(members)
        turns = [p for p in tables[1:-1] if "<@" in text_of(p)]
        assert all(len(p["allowed_mentions"]["users"]) == 1 for p in turns), "a turn pings one player"


async def test_every_bidder_can_bid_in_an_eight_player_auction(tmp_path, monkeypatch):
    """Eight bidders need more buttons than a Discord message holds: each gets one that opens
    their own bids, and every bid is there."""
    members = tuple(range(1, 9))
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", 1, game="board"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        for uid in members[1:]:
            await dispatch(client, slash("join", uid))
        await dispatch(client, click(f"l:{table}:start", 1))
        rules = GAMES["board"].rules
        for _ in range(400):
            decisions = rules.waiting_for(service.cache.state(table))
            bidders = [d.seat for d in decisions if d.kind == "bid"]
            if len(bidders) >= 7:
                break
            if decisions[0].kind == "buy":  # the player declines: the street goes to auction
                seat = decisions[0].seat
                token = next(tok for a, tok in service.buttons(table, seat) if a == decisions[0].timeout)
                await dispatch(client, click(f"g:{token}", members[seat]))
            else:
                await play_one(client, fake, service, table)
        else:
            pytest.fail("a declined street goes to an auction among everyone")
        shown = [i for ids in fake.live(CHANNEL).values() for i in ids]
        for seat in bidders:
            uid = members[seat]
            bids = {f"g:{tok}" for a, tok in service.buttons(table, seat)
                    if a in rules.answers(rules.waiting_for(service.cache.state(table))[0], [a])}
            if not bids <= set(shown):
                assert f"h:{table}:{seat}" in shown, "a button that opens this bidder's own answers"
                await dispatch(client, click(f"h:{table}:{seat}", uid))
                mine = {i for ids in fake.live(DM_BASE + uid).values() for i in ids}  # in their DM
                answers = {f"g:{tok}" for a, tok in service.buttons(table, seat)
                           if any(a in rules.answers(d, [a]) for d in rules.waiting_for(service.cache.state(table))
                                  if d.seat == seat)}
                assert answers and answers <= mine, "every bid of this bidder, one press away"


async def test_an_older_my_hand_reply_loses_its_buttons_after_a_restart_too(tmp_path, monkeypatch):
    """"My hand" pressed, the bot restarted, "My hand" pressed again: the reply from before the
    restart goes inert (its interaction token was noted), and the new one is kept current (DMs
    closed: a player whose DMs are open has their hand there)."""
    fake = FakeDiscord()
    fake.closed_dms.update({1, 2})
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        table = await open_table(client, fake, service, "deal", ai=False)
        seat = service.cache.waiting_for(table)[0].seat
        uid = int(service.cache.row(table).seats[seat]["user"][3:])
        await dispatch(client, click(f"h:{table}", uid))
        first = next(u for m, u, p in reversed(fake.calls) if m == "POST" and "/webhooks/" in u)
        first_token = first.split("/webhooks/")[1].split("/")[1]
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        fake.calls.clear()
        await dispatch(client, click(f"h:{table}", uid))
        stripped = [u for m, u, p in fake.calls if m == "PATCH" and f"/webhooks/42/{first_token}/messages/" in u
                    and p.get("components") == []]
        assert stripped, "the reply from before the restart lost its buttons"
        second = next(u for m, u, p in reversed(fake.calls) if m == "POST" and "/webhooks/" in u)
        second_token = second.split("/webhooks/")[1].split("/")[1]
        await play_one(client, fake, service, table)  # a move: the new reply shows the new choices
        kept = [p for m, u, p in fake.calls if m == "PATCH" and f"/webhooks/42/{second_token}/messages/" in u]
        assert kept and kept[-1]["components"], "the reply made after the restart is kept current"


async def test_my_hand_is_kept_current_and_an_older_reply_loses_its_buttons(tmp_path, monkeypatch):
    """DMs closed: the hand is an ephemeral reply, kept current, one live at a time."""
    fake = FakeDiscord()
    fake.closed_dms.update({1, 2})
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        table = await open_table(client, fake, service, "deal", ai=False)
        seat = service.cache.waiting_for(table)[0].seat
        uid = int(service.cache.row(table).seats[seat]["user"][3:])
        await dispatch(client, click(f"h:{table}", uid))
        first = next(u for m, u, p in reversed(fake.calls) if m == "POST" and "/webhooks/" in u)
        await play_one(client, fake, service, table)  # a move: the reply shows the new choices
        kept = [p for m, u, p in fake.calls if m == "PATCH" and "/webhooks/" in u and "/messages/" in u
                and "@original" not in u]
        assert kept and kept[-1]["components"], "the My hand reply was edited to the current buttons"
        tokens = {f"g:{tok}" for _, tok in service.buttons(table, seat)}
        steps = {i for i in fake.custom_ids([("", "", kept[-1])]) if i.startswith(f"m:{table}:")}  # whose, which
        assert set(fake.custom_ids([("", "", kept[-1])])) - steps <= tokens | {f"b:{table}"}
        await dispatch(client, click(f"h:{table}", uid))  # pressed again: the older reply goes inert
        stripped = [p for m, u, p in fake.calls if m == "PATCH" and "/webhooks/" in u and p.get("components") == []]
        assert stripped and first


async def test_an_older_reply_without_buttons_is_not_edited_when_a_newer_one_comes(tmp_path, monkeypatch):
    """Issue 44: an edit that would change nothing is never sent, ephemeral replies included. A
    player with nothing to press (a Deal hand before their turn, the discard pile still empty)
    opens "My hand" twice: the older reply has no buttons to lose, so it is left as it is."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, "deal", ai=False)
        waiting = service.cache.waiting_for(table)[0].seat
        idle = 1 - waiting
        uid = int(service.cache.row(table).seats[idle]["user"][3:])
        await dispatch(client, click(f"h:{table}", uid))
        first = fake.last_reply("POST")
        assert first["flags"] == 64 and not fake.custom_ids([("", "", first)]), "nothing to press yet"
        seen = len(fake.calls)
        await dispatch(client, click(f"h:{table}", uid))
        assert fake.last_reply("POST")["flags"] == 64
        edits = [u for m, u, p in fake.calls[seen:] if m == "PATCH" and "/webhooks/" in u]
        assert edits == [], edits
        assert fake.identical == []


async def test_B04_a_bidder_types_a_bid_of_their_own_in_a_form(tmp_path, monkeypatch):
    """"✏️ Type a bid" opens a form for the bidder; what they submit is their bid (too low: the
    rule's reason, nothing changes)."""
    async with running_bot(tmp_path, monkeypatch, seed=3) as (client, fake, service):
        table = await open_table(client, fake, service, "board", ai=False)
        rules = GAMES["board"].rules
        for _ in range(200):
            state = service.cache.state(table)
            if state.stage == "auction":
                break
            decision = rules.waiting_for(state)[0]
            if decision.kind == "buy":  # declined: the street goes to auction
                uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
                token = next(tok for a, tok in service.buttons(table, decision.seat) if a == decision.timeout)
                await dispatch(client, click(await reach(client, fake, service, table, uid, token), uid))
            else:
                await play_one(client, fake, service, table)
        state = service.cache.state(table)
        assert state.stage == "auction"
        bidder = rules.waiting_for(state)[0].seat
        uid = int(service.cache.row(table).seats[bidder]["user"][3:])
        assert f"a:{table}" in [i for ids in fake.live(CHANNEL).values() for i in ids]
        await dispatch(client, click(f"a:{table}", uid))
        form = fake.last_form(uid)
        assert form is not None and form["custom_id"].startswith(f"a:{table}.")
        await handled(client, SERVERS[id(client)], fake.form_payload(form["custom_id"], uid, {"amount": "5"}))
        await client.front.service.idle()
        assert "B-04" in text_of(fake.last_reply()) and service.cache.state(table).auction.high_bidder < 0
        await handled(client, SERVERS[id(client)], fake.form_payload(form["custom_id"], uid, {"amount": "1230"}))
        await client.front.service.idle()
        auction = service.cache.state(table).auction
        assert auction.high_bid == 1230 and auction.high_bidder == bidder
