"""Issue 49: a table's messages in a Discord channel are Components v2 messages, one container
holding the picture, the text and the buttons (``bot/discord_app/messenger.py``), and the fake
refuses what Discord refuses of them (``tests/fakes/discord_limits.py``: the documented limits, the
error Discord answers with).

First the fake's checks, request by request (a payload that breaks one limit, and the same payload
just inside it); then the bot over the fake: a table message's shape and a press on it, an edit
that shows the picture without uploading it again, a message from before (plain) made v2 by its
first edit, the buttons taken off after a restart and beside other processes (what the message
shows read back from Discord), and the largest messages a table makes (eight people with the
longest, most awkward names; a full page of buttons; a prompt asking many players at once)."""

from __future__ import annotations

import pytest

from bot.chat.messenger import Mention, Text
from bot.chat.screens import Button
from bot.discord_app.messenger import PAGE, TEXT_V2
from engine.games import GAMES
from engine.service.views import Seat
from tests.bot.discord_app.test_discord import dispatch, open_table, play_one, running_bot
from tests.engine.service.test_service import play_out, step
from tests.fakes import discord_limits as limits
from tests.fakes.discord_api import (
    CHANNEL,
    DM_BASE,
    GUILD,
    V2,
    DiscordAPI,
    every_component,
    text_of,
)

PNG, OTHER_PNG = b"\x89PNG\r\n\x1a\nthe table", b"\x89PNG\r\n\x1a\nthe table, later"
URL = f"/channels/{CHANNEL}/messages"


# -- the fake refuses what Discord refuses ------------------------------------------------------------


def _text(content: str = "the table") -> dict:
    return {"type": 10, "content": content}


def _row(*ids: str) -> dict:
    return {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": i} for i in ids]}


def _gallery(*names: str) -> dict:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{n}"}} for n in names]}


def _v2(*children, **fields) -> dict:
    """A Components v2 message: one container holding ``children``."""
    return {"flags": V2, "components": [{"type": 17, "components": list(children)}], **fields}


def _refusal(status_body: tuple[int, object]) -> set[tuple[str, str]]:
    """(path, code) of each error in Discord's 400 Invalid Form Body; fails on any other answer."""
    status, body = status_body
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body", status_body
    found: set[tuple[str, str]] = set()

    def walk(node: dict, path: tuple) -> None:
        for key, value in node.items():
            if key == "_errors":
                found.update((".".join(path), e["code"]) for e in value)
            else:
                walk(value, (*path, key))

    walk(body["errors"], ())
    return found


def _post(api: DiscordAPI, payload: dict, files=()) -> tuple[int, object]:
    return api.handle("POST", URL, payload, list(files))


BAD = {
    "content beside the flag": (_v2(_text(), content="hello"), (),
                                ("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")),
    "an embed beside the flag": (_v2(_text(), embeds=[{"title": "x"}]), (),
                                 ("embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")),
    "41 components, the container counted": (_v2(*[_text()] * 40), (), ("components", "MESSAGE_COMPONENTS_TOO_MANY")),
    "4001 characters of text": (_v2(_text("a" * 2000), _text("b" * 2001)), (),
                                ("components", "MESSAGE_TEXT_DISPLAY_TOO_LONG")),
    "six buttons in a row": (_v2(_row(*"abcdef")), (),
                             ("components.0.components.0.components", "BASE_TYPE_MAX_LENGTH")),
    "a container in a container": (_v2({"type": 17, "components": [_text()]}), (),
                                   ("components.0.components.0.type", "UNION_TYPE_CHOICES")),
    "a thumbnail alone in a container": (_v2({"type": 11, "media": {"url": "https://x.test/a.png"}}), (),
                                         ("components.0.components.0.type", "UNION_TYPE_CHOICES")),
    "an empty media gallery": (_v2({"type": 12, "items": []}), (),
                               ("components.0.components.0.items", "BASE_TYPE_BAD_LENGTH")),
    "eleven pictures in a gallery": (_v2(_gallery(*["t.png"] * 11)), [("t.png", PNG)],
                                     ("components.0.components.0.items", "BASE_TYPE_BAD_LENGTH")),
    "a custom id of 101 characters": (_v2(_row("g" * 101)), (),
                                      ("components.0.components.0.components.0.custom_id", "BASE_TYPE_BAD_LENGTH")),
    "one custom id twice": (_v2(_row("a"), _row("a")), (), ("components", "COMPONENT_CUSTOM_ID_DUPLICATED")),
    "one component id twice": (_v2({**_text(), "id": 7}, {**_text(), "id": 7}), (),
                               ("components", "COMPONENT_ID_DUPLICATED")),
    "a picture not uploaded": (_v2(_gallery("table.png"), _text()), [("hand.png", PNG)],
                               ("components.0.components.0.items.0.media.url",
                                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND")),
    "a container without the flag": ({"components": [{"type": 17, "components": [_text()]}]}, (),
                                     ("components.0", "COMPONENT_TYPE_INVALID")),
}


@pytest.mark.parametrize("case", list(BAD))
def test_the_fake_refuses_a_components_v2_message_over_discords_limits(case):
    payload, files, error = BAD[case]
    api = DiscordAPI()
    assert error in _refusal(_post(api, payload, files)), case
    assert not api.messages, "nothing was posted"


def test_the_fake_takes_a_components_v2_message_at_discords_limits():
    """The same limits, just inside: 40 components, 4000 characters, 5 buttons a row, 10 pictures."""
    api = DiscordAPI()
    for payload, files in [
        (_v2(*[_text()] * 39), ()),
        (_v2(_text("a" * 2000), _text("b" * 2000)), ()),
        (_v2(_gallery(*["t.png"] * 10), _row(*"abcde"), _text("c" * 100)), [("t.png", PNG)]),
        (_v2(_gallery("table.png"), _text(), _row("g" * 100)), [("table.png", PNG)]),
    ]:
        status, body = _post(api, payload, files)
        assert status == 200, body
    assert all(m["flags"] & V2 and m["content"] == "" for m in api.messages.values())


def test_an_edit_keeps_the_flag_and_may_name_the_files_the_message_keeps():
    """Discord takes the flag off no message; an edit names the picture the message carries without
    uploading it again, not one it dropped; an edit that would leave nothing is refused."""
    api = DiscordAPI()
    status, sent = _post(api, _v2(_gallery("table.png"), _text()), [("table.png", PNG)])
    assert status == 200
    shown = every_component(sent)[1]["items"][0]["media"]  # as Discord answers: the file's own address
    assert shown["url"].endswith("/table.png") and shown["attachment_id"]
    key = (CHANNEL, int(sent["id"]))
    patch, picture = f"{URL}/{sent['id']}", api.messages[key]["picture"]
    status, body = api.handle("PATCH", patch, _v2(_gallery("table.png"), _text("later")), [])
    assert status == 200, body
    assert api.messages[key]["picture"] == picture and text_of(api.messages[key]) == "later"
    assert ("components.0.components.0.items.0.media.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND") in _refusal(
        api.handle("PATCH", patch, {**_v2(_gallery("table.png"), _text()), "attachments": []}, []))
    assert ("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2") in _refusal(
        api.handle("PATCH", patch, {"content": "plain again", "flags": 0}, []))
    status, body = api.handle("PATCH", patch, {"components": []}, [])
    assert status == 400 and body["code"] == 50006
    assert text_of(api.messages[key]) == "later", "a refused edit changes nothing"
    # a plain message becomes one with its first v2 edit, its content emptied (null)
    status, plain = _post(api, {"content": "old", "components": [_row("a")]}, [("table.png", PNG)])
    status, body = api.handle("PATCH", f"{URL}/{plain['id']}", {**_v2(_gallery("table.png"), _text()),
                                                                "content": None}, [])
    assert status == 200 and api.messages[(CHANNEL, int(plain["id"]))]["flags"] & V2, body


# -- the bot's table messages ---------------------------------------------------------------------


def _channel_writes(fake: DiscordAPI, since: int = 0) -> list[tuple[str, str, dict]]:
    return [(m, u, p) for m, u, p in fake.calls[since:] if m in ("POST", "PATCH") and URL in u]


async def test_a_table_message_is_one_container_of_picture_text_and_buttons(tmp_path, monkeypatch):
    """The table message Start posts: the v2 flag and no content, one container holding the
    picture uploaded with it, the table's text, the line that pings the player to act (and only
    them), and the buttons in rows, with the ids they always had; pressed there, a button moves the
    table (discord.py finds its item in the container); the edit shows the picture again without
    uploading it when it did not change. A player's hand stays a plain DM."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, "deal", ai=False)
        mid = service.cache.row(table).messages["dc"]
        _, _, posted = next((m, u, p) for m, u, p in fake.calls if m == "POST" and u == URL and p["files"])
        assert posted["flags"] & V2 and posted.get("content") is None and posted["files"] == ["table.png"]
        [box] = posted["components"]
        kinds = [c["type"] for c in box["components"]]
        assert box["type"] == 17 and kinds[:2] == [12, 10] and set(kinds[2:]) <= {10, 1} and kinds[-1] == 1
        assert box["components"][0]["items"][0]["media"]["url"] == "attachment://table.png"
        first = service.cache.waiting_for(table)[0].seat
        uid = int(service.cache.row(table).seats[first]["user"][3:])
        assert f"<@{uid}>" in box["components"][2]["content"]
        assert [int(u) for u in posted["allowed_mentions"]["users"]] == [uid]
        rows = [c for c in box["components"] if c["type"] == 1]
        assert all(len(r["components"]) <= 5 for r in rows) and fake.live(CHANNEL)[mid] == [
            c["custom_id"].rsplit(".", 1)[0] if c["custom_id"][:2] in fake.SIGNED else c["custom_id"]
            for r in rows for c in r["components"] if "custom_id" in c]
        dms = [p for m, u, p in fake.calls if f"/channels/{DM_BASE + uid}/messages" in u]
        assert dms and all(p.get("content") and not (p.get("flags") or 0) & V2 for p in dms), "the hand: plain"

        # Bob's "answer…" button for Ann's first play, pressed on the v2 message as Discord delivers it
        version, seen = service.cache.row(table).version, len(fake.calls)
        key, own = next((k, c) for k, c in fake.pressable(uid) if k == (CHANNEL, mid)
                        and c["custom_id"].startswith(f"h:{table}"))
        await dispatch(client, fake.press_payload(key, own, uid))
        assert fake.last_reply("POST")["flags"] & 64, "their own screen, answered to them alone"
        while service.cache.row(table).version == version:
            await play_one(client, fake, service, table)
        edits = [p for m, u, p in _channel_writes(fake, seen) if m == "PATCH" and u.endswith(f"/{mid}")]
        assert edits and all(p["flags"] & V2 and "content" not in p for p in edits)
        assert all(every_component(p)[1]["items"][0]["media"]["url"] == "attachment://table.png" for p in edits)
        assert fake.reuploads == 0 and fake.identical == []


async def _note_and_restart(tmp_path, monkeypatch, fake: DiscordAPI):
    """A table message posted by one process (a picture, a ping, buttons): its id and who it names."""
    ann = Seat("Ann", "dc:1", False, True, True)
    text = Text("== Turn 1 · Ann to play ==", (Mention(ann), ": your turn"))
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        mid = await client.front.messenger.post(CHANNEL, text, [Button("Roll", "abc", 0),
                                                                Button("My hand", "h:1", -1)], PNG)
    return mid


async def test_buttons_come_off_after_a_restart_with_the_text_and_picture_read_back(tmp_path, monkeypatch):
    """A new process knows nothing of the message: it reads it back (one GET), and shows it again
    without its rows: the same texts, the picture it carries named as uploaded, the ping kept."""
    fake = DiscordAPI()
    mid = await _note_and_restart(tmp_path, monkeypatch, fake)
    before = dict(fake.messages[(CHANNEL, mid)])
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        seen = len(fake.calls)
        await client.front.messenger.strip(CHANNEL, mid)
        calls = [(m, u) for m, u, _ in fake.calls[seen:]]
        assert calls == [("GET", f"{URL}/{mid}"), ("PATCH", f"{URL}/{mid}")], calls
        after = fake.messages[(CHANNEL, mid)]
        assert after["ids"] == [] and text_of(after) == text_of(before) and after["picture"] == before["picture"]
        assert after["files"] == before["files"], "no upload: the picture kept"
        patch = fake.calls[-1][2]
        assert patch["files"] == [] and [int(u) for u in patch["allowed_mentions"]["users"]] == [1]
        # what this process noted since, it trusts (alone, it is the only one to edit its messages)
        seen = len(fake.calls)
        assert await client.front.messenger.edit(CHANNEL, mid, Text("== Turn 2 =="), [Button("Go", "abc", 0)],
                                                 PNG, False)
        await client.front.messenger.strip(CHANNEL, mid)
        assert [m for m, _, _ in fake.calls[seen:]] == ["PATCH", "PATCH"]
        assert text_of(fake.messages[(CHANNEL, mid)]) == "== Turn 2 ==" and not fake.messages[(CHANNEL, mid)]["ids"]


async def test_beside_other_processes_what_a_message_shows_is_read_back(tmp_path, monkeypatch):
    """A process holding some of the shards is not alone: another may have edited the message since
    it noted it, so taking its buttons off reads what it shows now (never an older text)."""
    fake = DiscordAPI()
    async with running_bot(tmp_path, monkeypatch, fake) as (client, fake, service):
        messenger = client.front.messenger
        mid = await messenger.post(CHANNEL, Text("first"), [Button("Roll", "abc", 0)], PNG)
        # another process's edit, straight to Discord
        status, _ = fake.handle("PATCH", f"{URL}/{mid}", _v2(_gallery("table.png"), _text("newer"), _row("g:abc")), [])
        assert status == 200
        monkeypatch.setattr(client, "shard_ids", [0], raising=False)
        monkeypatch.setattr(client, "shard_count", 2, raising=False)
        seen = len(fake.calls)
        await messenger.strip(CHANNEL, mid)
        assert [m for m, _, _ in fake.calls[seen:]] == ["GET", "PATCH"]
        assert text_of(fake.messages[(CHANNEL, mid)]) == "newer" and not fake.messages[(CHANNEL, mid)]["ids"]


async def test_a_plain_table_message_from_before_becomes_v2_with_its_first_edit(tmp_path, monkeypatch):
    """A game running when the bot was updated: its table message is plain (content, attachment,
    rows). The first edit makes it a v2 message (content emptied, the flag set), showing the
    picture it already carries without uploading it again."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        status, old = _post(fake, {"content": "== Turn 3 ==", "components": [_row("g:abc")]}, [("table.png", PNG)])
        mid = int(old["id"])
        ok = await client.front.messenger.edit(CHANNEL, mid, Text("== Turn 3 · later =="), [Button("Buy", "def", 0)],
                                               PNG, False)
        assert ok
        patch = fake.calls[-1][2]
        assert patch["content"] is None and patch["flags"] & V2 and patch["files"] == []
        shown = fake.messages[(CHANNEL, mid)]
        assert shown["flags"] & V2 and text_of(shown) == "== Turn 3 · later ==" and shown["ids"] == ["g:def"]
        assert fake.reuploads == 0


# -- the largest messages ----------------------------------------------------------------------------


# names as long and awkward as a platform lets them be (64 characters, as in tests/bot/chat/test_channel.py):
# letters outside the BMP, markdown and mentions of both platforms, CJK
EIGHT = [
    ("𝓐𝓷𝓷🎲" * 16)[:64],
    ("<b>Bob</b> @everyone **x** ||y|| `z` &amp; " + "長" * 64)[:64],
    ("<@&123> <#456> _Carl_ " + "𝕮" * 64)[:64],
    ("@here ~~Dee~~ > quote " + "ﷺ" * 64)[:64],
    ("# Eve heading [link](https://x.test) " + "é" * 64)[:64],
    ("<@99> Fay <t:0:R> " + "😀" * 64)[:64],
    ("```Gus``` \\*escaped\\* " + "龍" * 64)[:64],
    ("-# Hal small text :smile: " + "W" * 64)[:64],
]


def _sizes(payload: dict) -> tuple[int, int]:
    """(components, characters of text) of a v2 payload, as Discord counts them."""
    parts = every_component(payload)
    extra = sum(1 for c in parts if isinstance(c.get("accessory"), dict))
    return len(parts) + extra, sum(len(c["content"]) for c in parts if c.get("type") == 10)


def _check_all(fake: DiscordAPI) -> list[dict]:
    """Every write to the channel was v2 and within Discord's limits (checked again here, so the
    test fails even if the fake's door let something through)."""
    writes = [p for _, _, p in _channel_writes(fake)]
    for p in writes:
        assert p.get("flags", 0) & V2 or "components" not in p, p
        if p.get("flags", 0) & V2:
            errors = limits.check_message(p, len(p["files"]), (), flags_before=V2, names=tuple(p["files"]) + (
                "table.png",))
            assert not errors, errors.flat
            count, text = _sizes(p)
            assert count <= limits.V2_COMPONENTS_MAX and text <= limits.V2_TEXT_MAX
    return writes


async def _an_auction_among_everyone(service, table: int) -> None:
    """Press the AI's choices, but decline the first street offered: it goes to auction, and
    every player is asked to bid at once."""
    rules = GAMES["board"].rules
    for _ in range(400):
        decisions = rules.waiting_for(service.cache.state(table))
        if sum(d.kind == "bid" for d in decisions) == len(service.cache.row(table).seats):
            return
        if decisions[0].kind == "buy":
            seat = decisions[0].seat
            token = next(tok for a, tok in service.buttons(table, seat) if a == decisions[0].timeout)
            assert (await service.act(service.cache.row(table).seats[seat]["user"], token)).ok
            await service.idle()
        else:
            assert await step(service, table)
    pytest.fail("a declined street goes to auction among everyone")


async def test_the_largest_table_messages_pass_discords_limits(tmp_path, monkeypatch):
    """Eight people with the longest, most awkward names play a board game in the channel: an
    auction among all eight (the table's text, every bidder's answer button, a typed bid's), then
    to the end (the result pinging all eight); five play Deal (prompts asking four players at
    once, two buttons each). No message goes over Discord's limits, each checked again here."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        chat = f"dc:{GUILD}:{CHANNEL}"
        for game, names in (("board", EIGHT), ("deal", EIGHT[:5])):
            out = await service.lobby.new_table(chat, game, None, "dc:1", names[0])
            for uid, name in enumerate(names[1:], 2):
                await service.lobby.join(out.table, f"dc:{uid}", name)
            await service.lobby.start(out.table, "dc:1", seed=11, turn_cap=12)
            if game == "board":
                await _an_auction_among_everyone(service, out.table)
                shown = fake.messages[(CHANNEL, service.cache.row(out.table).messages["dc"])]
                asked = [c["custom_id"] for c in every_component(shown) if c["type"] == 2]
                assert sum(c.startswith(f"h:{out.table}:") for c in asked) == 8, "each bidder's own button"
            await play_out(service, out.table, 1500)
            writes = _check_all(fake)
            result = [p for p in writes if "table.png" in p["files"] and len((p.get("allowed_mentions") or {}).get(
                "users", [])) == len(names)]
            assert result, f"the {game} result pings all {len(names)} players"
            if game == "board":  # eight such names: more text than a plain message could hold
                assert max(_sizes(p)[1] for p in writes) > limits.CONTENT_MAX
            else:  # a prompt asking several at once (a birthday, a debt collector)
                prompts = [p for p in writes if "message_reference" in p]
                widest = max(prompts, key=lambda p: _sizes(p)[0])
                assert len([c for c in every_component(widest) if c["type"] == 2]) >= 8, widest
            fake.calls.clear()


async def test_a_full_page_of_buttons_and_the_longest_text_fit_one_message(tmp_path, monkeypatch):
    """The most a table message can hold: a body far over the budget (cut to it, its head kept),
    a ping naming eight players, a full page of 25 buttons with the longest labels and ids (moves,
    signed data, a link), the picture: 34 components and at most 3,900 characters, posted, edited
    with the same picture (named, not uploaded), with a new one (uploaded once), and stripped."""
    seats = [Seat(name, f"dc:{uid}", False, True, True) for uid, name in enumerate(EIGHT, 1)]
    after: tuple = ()
    for n, seat in enumerate(seats):
        after += ((", ",) if n else ()) + (Mention(seat),)
    lines = [f"{name} pays {name} $2,000" for name in EIGHT * 40]
    body = "== Turn 999 · " + EIGHT[1] + " to play ==\n" + "\n".join(lines)
    buttons = [Button(f"{EIGHT[n % 8]}: Forced Deal ↔ " + EIGHT[(n + 1) % 8], f"{'q' * 62}{n:02d}", n % 8)
               for n in range(PAGE - 3)]  # a move's token is at most 64 characters
    buttons += [Button("My hand " + EIGHT[0], "h:2147483647", -1), Button("✏️ " + EIGHT[2], "a:2147483647", -1),
                Button("Watch " + EIGHT[3], "https://tycoon.example/w/" + "z" * 200, -1)]
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        messenger = client.front.messenger
        mid = await messenger.post(CHANNEL, Text(body, after), buttons, PNG)
        posted = fake.calls[-1][2]
        count, text = _sizes(posted)
        assert count == 1 + 1 + 2 + 5 + 25 and text <= TEXT_V2, (count, text)
        assert text_of(posted).startswith("== Turn 999") and len(posted["allowed_mentions"]["users"]) == 8
        assert await messenger.edit(CHANNEL, mid, Text(body + "\nmore", after), buttons, PNG, False)
        assert fake.calls[-1][2]["files"] == []
        assert await messenger.edit(CHANNEL, mid, Text(body, after), buttons[:3], OTHER_PNG, True)
        assert fake.calls[-1][2]["files"] == ["table.png"] and fake.reuploads == 0
        await messenger.strip(CHANNEL, mid)
        shown = fake.messages[(CHANNEL, mid)]
        assert shown["ids"] == [] and text_of(shown).startswith("== Turn 999") and shown["picture"]
        _check_all(fake)
