"""Hostile and careless input to the Telegram bot, generated: random and tampered button data, the
buttons of another chat's game pressed here, commands with odd arguments ("²", huge numbers,
markup), deep links, and names full of markup and control characters.

Whatever comes in: no handler fails (nothing is logged as an error), every press is answered,
nothing a refusal touches changes, and the only mentions the bot ever writes are of the players it
means (a text mention of a seated player, the rest escaped).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from telegram import Update

from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI, _app

OTHER = -2002
_ids = itertools.count(10_000)
TAGS = re.compile(r"<[^>]*>")
ALLOWED_TAG = re.compile(r'<a href="tg://user\?id=(\d+)">|</a>')

NAMES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["<b>Ann</b>", "@everyone", "\u202eevil\u202c", "a\u0000b\u200d", "**bold** _it_",
                     '<a href="tg://user?id=1">me</a>', "&amp;&lt;", "x" * 300, "\n\n\n", "Ann"]),
)
DATA = st.one_of(
    st.text(max_size=80),
    st.text(alphabet="lhbesTgn:0123456789²٣⁹abcdef.-", max_size=40),
    st.sampled_from(["l:1:join", "l:999999999999:join", "h:-1", "b:1", "e:1:y", "s:1", "T:1:s", "T:1:j:x",
                     "1.0.0.0.abcdef0123", "٣.0.0.0.abcdef0123", "l:1:join.00000000", ""]),
)
WORDS = st.one_of(st.text(max_size=12), st.sampled_from(["²", "٣٣", "99999999999999999999", "+30", "20:30", "+²",
                                                         "-5", "deal", "board", "solo", "team", "ai", "0", "<b>"]))
COMMANDS = ["/schedule", "/tournament", "/newgame", "/join", "/endgame", "/lang", "/team", "/rep", "/stats",
            "/standings", "/help", "/rules"]
EVENTS = st.one_of(
    st.tuples(st.just("data"), DATA, st.integers(1, 5), st.sampled_from([GROUP, OTHER, 1]), NAMES),
    st.tuples(st.just("tamper"), st.integers(0, 10_000), st.text(alphabet="0123456789abcz²:.", min_size=1,
                                                                  max_size=3), st.integers(1, 5), NAMES),
    st.tuples(st.just("other"), st.sampled_from(["join", "leave", "ai", "noai", "start", "cancel"]), st.integers(1, 5),
              NAMES),
    st.tuples(st.just("command"), st.sampled_from(COMMANDS), st.lists(WORDS, max_size=6), st.integers(1, 5), NAMES),
    st.tuples(st.just("start"), st.text(max_size=30) | st.sampled_from(["t1", "t²", "t999999999999", "t-1"]),
              st.integers(1, 5), NAMES),
)


def _from(uid: int, name: str) -> dict:
    return {"id": uid, "is_bot": False, "first_name": name or "?", "last_name": name[::-1] if name else None}


def _command(text: str, uid: int, name: str, chat: int = GROUP) -> dict:
    n = next(_ids)
    word = text.split()[0] if text.split() else "/"
    return {"update_id": n, "message": {
        "message_id": n, "date": 0, "chat": {"id": chat, "type": "supergroup" if chat < 0 else "private"},
        "from": _from(uid, name), "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": len(word)}]}}


def _press(data: str, uid: int, name: str, chat: int = GROUP) -> dict:
    n = next(_ids)
    return {"update_id": n, "callback_query": {
        "id": str(n), "from": _from(uid, name), "chat_instance": "c", "data": data,
        "message": {"message_id": 1, "date": 0, "text": "x",
                    "chat": {"id": chat, "type": "supergroup" if chat < 0 else "private"}}}}


class _Failures(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot", "engine", "telegram")):
            self.records.append(record)


def _state(service: GameService, tables: list[int]) -> list:
    rows = [service.cache.row(t) for t in tables]
    return [(r.version, r.status, [(s["user"], s["ai"]) for s in r.seats]) if r else None for r in rows]


async def _scenario(path: str, players: tuple[str, str], events: list) -> None:
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{path}")
    app = _app(service, api, lang="en", seed=1)
    failures = _Failures()
    logging.getLogger().addHandler(failures)
    try:
        async with app:
            async def send(update: dict) -> None:
                await app.process_update(Update.de_json(update, app.bot))
                await service.idle()

            await send(_command("/newgame deal", 1, players[0]))  # players whose names are full of markup
            game = int(api.keyboards(GROUP)[0].split(":")[1])
            await send(_press(service.sign(f"l:{game}:join"), 2, players[1]))
            await send(_press(service.sign(f"l:{game}:start"), 1, players[0]))
            await send(_command("/newgame board", 3, "Cy", chat=OTHER))
            other = int(api.keyboards(OTHER)[0].split(":")[1])
            tables = [game, other]
            seated = {1, 2}
            for event in events:
                before, calls = _state(service, tables), len(api.calls)
                kind = event[0]
                if kind == "data" and event[1] not in ("n:deal", "n:board"):
                    await send(_press(event[1], event[2], event[4], event[3]))
                elif kind == "tamper":
                    shown = api.keyboards(GROUP) or ["l:1:join"]
                    real = shown[event[1] % len(shown)]
                    at = event[1] % max(1, len(real))
                    forged = real[:at] + event[2] + real[at + len(event[2]):]
                    if forged == real:
                        continue
                    await send(_press(forged, event[3], event[4]))
                elif kind == "other":  # a real button of the other chat's lobby, pressed in this one
                    await send(_press(service.sign(f"l:{other}:{event[1]}"), event[2], event[3]))
                elif kind == "command":
                    await send(_command(" ".join([event[1], *event[2]]), event[3], event[4]))
                elif kind == "start":
                    await send(_command(f"/start {event[1]}", event[2], event[3], chat=event[2]))
                else:
                    continue
                assert not failures.records, [r.getMessage() for r in failures.records]
                presses = sum(1 for name, _ in api.calls[calls:] if name == "answerCallbackQuery")
                if kind in ("data", "tamper", "other"):
                    assert presses == 1, "every press is answered, once"
                    assert _state(service, tables) == before, "a refused press changes nothing"
                if kind == "start":
                    assert _state(service, tables)[:1] == before[:1]
            for _, params in api.calls:  # everything the bot wrote, the game's start included
                if params.get("parse_mode") != "HTML" and "media" not in params:
                    continue  # plain text: Telegram shows it as it is, nothing in it mentions anyone
                text = str(params.get("text") or params.get("caption") or params.get("media") or "")
                for tag in TAGS.findall(text):
                    match = ALLOWED_TAG.fullmatch(tag.replace('\\"', '"'))
                    assert match is not None, f"markup from outside got through: {tag!r}"
                    assert match.group(1) is None or int(match.group(1)) in seated, "a mention of a player"
    finally:
        logging.getLogger().removeHandler(failures)
        await service.close()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(NAMES, NAMES), st.lists(EVENTS, min_size=1, max_size=12))
def test_nothing_from_outside_breaks_the_telegram_bot(players, events):
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_scenario(f"{tmp}/fuzz.db", players, events))
