"""The Discord bot, offline: the real discord.py command tree and view store, fed real-shaped
interaction payloads (``parse_interaction_create``), with a fake HTTP layer and webhook adapter."""

from __future__ import annotations

import asyncio
import contextlib
import itertools

import discord
import pytest
from discord.webhook import async_ as webhook_async

from bot.discord_app.app import TycoonBot
from engine.games import GAMES, PLUGS
from engine.service.tables import GameService

CHANNEL, GUILD = 10, 20
_ids = itertools.count(1000)


def _message(channel: int = CHANNEL, components=None) -> dict:
    return {"id": str(next(_ids)), "channel_id": str(channel), "content": "", "type": 0, "tts": False,
            "author": {"id": "99", "username": "tycoon", "discriminator": "0", "avatar": None, "bot": True},
            "attachments": [], "embeds": [], "mentions": [], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
            "flags": 0, "components": components or []}


class FakeDiscord:
    """Records every REST call and interaction response; answers like Discord would."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict]] = []

    async def http(self, route, *args, **kwargs):
        payload = kwargs.get("json") or {}
        form = kwargs.get("form") or []
        for part in form:  # multipart: the JSON part carries content and components
            if part.get("name") == "payload_json":
                import json as _json

                payload = _json.loads(part["value"])
        self.calls.append((route.method, route.path, payload))
        return _message(components=payload.get("components"))

    async def webhook(self, route, *args, **kwargs):
        payload = kwargs.get("payload") or {}
        if kwargs.get("multipart"):
            import json as _json

            payload = next((_json.loads(p["value"]) for p in kwargs["multipart"] if p.get("name") == "payload_json"),
                           payload)
        self.calls.append((route.method, route.url, payload))
        message = _message(components=(payload.get("data") or payload).get("components"))
        if route.url.endswith("/callback"):  # the interaction response
            return {"interaction": {"id": "1", "type": 2, "response_message_id": message["id"],
                                    "response_message_loading": False, "response_message_ephemeral": False},
                    "resource": {"type": payload.get("type", 4), "message": message}}
        return message

    def custom_ids(self) -> list[str]:
        """Every button id the bot has shown, newest first."""
        out: list[str] = []

        def walk(node):
            if isinstance(node, dict):
                if "custom_id" in node:
                    out.append(node["custom_id"])
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)

        for _, _, payload in reversed(self.calls):
            walk(payload)
        return out


def _member(uid: int, admin: bool = False) -> dict:
    return {"user": {"id": str(uid), "username": f"u{uid}", "global_name": {1: "Ann", 2: "Bob"}.get(uid, f"U{uid}"),
                     "discriminator": "0", "avatar": None},
            "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
            "permissions": "32" if admin else "0"}


def _base(uid: int, kind: int) -> dict:
    return {"id": str(next(_ids)), "application_id": "42", "type": kind, "token": f"tok{next(_ids)}",
            "version": 1, "channel_id": str(CHANNEL), "guild_id": str(GUILD), "locale": "en-US",
            "guild_locale": "en-US", "member": _member(uid), "app_permissions": "8", "entitlements": [],
            "authorizing_integration_owners": {}, "attachment_size_limit": 1000000,
            "channel": {"id": str(CHANNEL), "type": 0, "guild_id": str(GUILD), "name": "games", "position": 0,
                        "permission_overwrites": [], "nsfw": False, "parent_id": None}}


def slash(name: str, uid: int, **options) -> dict:
    data = {"id": str(abs(hash(name))), "name": name, "type": 1,
            "options": [{"name": k, "type": 3, "value": v} for k, v in options.items()]}
    return {**_base(uid, 2), "data": data}


def click(custom_id: str, uid: int) -> dict:
    """A press on a button of a message that carries it (discord.py finds the button there)."""
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}
    return {**_base(uid, 3), "data": {"custom_id": custom_id, "component_type": 2},
            "message": _message(components=[row])}


@contextlib.asynccontextmanager
async def running_bot(tmp_path, monkeypatch):
    fake = FakeDiscord()
    service = await GameService.open(f"sqlite:///{tmp_path / 'dc.db'}")
    client = TycoonBot(service, lang="en", seed=0)
    monkeypatch.setattr(webhook_async.AsyncWebhookAdapter, "request", fake.webhook)
    try:
        async with client:
            client._connection.user = discord.ClientUser(state=client._connection, data={
                "id": "99", "username": "tycoon", "discriminator": "0", "avatar": None, "bot": True})
            client._connection.application_id = 42
            client.http.request = fake.http
            await client.setup_hook()
            yield client, fake, service
    finally:
        await service.close()


async def dispatch(client, payload: dict) -> None:
    before = set(asyncio.all_tasks())  # long-lived tasks of the client are not ours to wait for
    client._connection.parse_interaction_create(payload)
    await asyncio.sleep(0)
    for _ in range(400):  # let the dispatched handler (and its database calls) finish
        pending = [t for t in asyncio.all_tasks() - before if t is not asyncio.current_task() and not t.done()
                   and "timeout_task" not in repr(t.get_coro())]  # an ephemeral view's 15-minute timer
        if not pending:
            break
        await asyncio.wait(pending, timeout=0.05)


@pytest.mark.parametrize("game", ["deal"])  # the board through Discord: next session (see the closing note)
async def test_a_whole_game_by_slash_command_and_buttons(tmp_path, monkeypatch, game):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", 1, game=game))
        lobby = [c for c in fake.custom_ids() if c.startswith("l:")]
        assert lobby, "the lobby came with its buttons"
        table = int(lobby[0].split(":")[1])
        await dispatch(client, click(f"l:{table}:join", 2))
        await dispatch(client, click(f"l:{table}:ai", 1))
        await dispatch(client, click(f"l:{table}:start", 1))
        assert service.table(table).status == "running"
        rules = GAMES[game]
        for _ in range(3000):
            if service.table(table).status != "running":
                break
            state = service.state(table)
            decision = rules.waiting_for(state)[0]
            uid = int(service.table(table).seats[decision.seat]["user"][3:])
            if f"h:{table}" in fake.custom_ids()[:40] and game == "deal":
                await dispatch(client, click(f"h:{table}", uid))  # the hand, only for them
            wanted = PLUGS[game].choose(state, decision.seat)
            token = next(tok for a, tok in service.buttons(table, decision.seat) if a == wanted)
            assert f"g:{token}" in fake.custom_ids(), (decision.kind, len(service.buttons(table, decision.seat)))
            await dispatch(client, click(f"g:{token}", uid))
        assert service.table(table).status == "over"
        ephemeral = [p for m, u, p in fake.calls if "/callback" in str(u) and (p.get("data") or {}).get("flags") == 64]
        public = [p for m, u, p in fake.calls if "/channels/" in str(u)]
        assert public, "the table was posted in the channel"
        if game == "deal":
            assert ephemeral or any("followup" in str(u) or "webhooks" in str(u) for _, u, _ in fake.calls)


async def test_a_non_player_gets_an_ephemeral_no_and_old_buttons_parse_back(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", 1, game="board"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        await dispatch(client, click(f"l:{table}:join", 2))
        await dispatch(client, click(f"l:{table}:start", 1))
        move = next(c for c in fake.custom_ids() if c.startswith("g:"))
        before = service.table(table).version
        await dispatch(client, click(move, 77))
        method, url, payload = fake.calls[-1]
        assert "/callback" in url and payload["data"]["flags"] == 64 and "not playing" in payload["data"]["content"]
        assert service.table(table).version == before
