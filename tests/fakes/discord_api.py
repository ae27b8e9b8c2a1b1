"""Discord's HTTP side as the bot meets it, strict: every REST call and interaction answer goes
through ``DiscordAPI.handle``, which answers like Discord (status and JSON body) and refuses what
Discord refuses:

- payloads over Discord's limits (``discord_limits``: commands, messages, embeds, buttons, select
  menus, forms), with the 50035 "Invalid Form Body" error nested by field;
- an interaction answered twice (40060 "Interaction has already been acknowledged"), a follow-up
  or an edit of the answer before any answer (10015 "Unknown Webhook"), an interaction it never
  delivered (10062 "Unknown interaction"), an answer type that does not fit the interaction (a
  message update for a slash command, a form for a form);
- an edit or delete of a message that does not exist (10008 "Unknown Message"), a reply to one,
  an empty message (50006), a DM to a user whose DMs are closed (50007).

The first follow-up after a deferred answer (type 5) takes the place of the "thinking…" message
and keeps *its* visibility, whatever flags the follow-up carries: Discord does this, and it is how
a private answer can end up public.

Components v2 messages (flag ``IS_COMPONENTS_V2``) are checked as Discord checks them
(``discord_limits``: no content, 40 components, 4000 characters of text, a media gallery's
``attachment://`` naming a file the message carries); the flag stays on a message once set, an
edit that would leave one without any component is refused (50006), and Discord's answers and
reads show an uploaded file's media item at the file's own address (``attachment_id``, the name at
the end of the path), with an empty ``attachments`` list, as Discord does. ``text_of`` reads what a
message or a payload says, v2 or not.

An application with Activities (``embedded``) may have an Entry Point command and answer with
LAUNCH_ACTIVITY; the rules of both are ``discord_activity``'s.

It also keeps what each message shows now (text, button ids, picture), counts edits that change
nothing (``identical``) and pictures uploaded again unchanged (``reuploads``), and records every
call (``calls``) and every refusal (``refusals``). The bot reaches it only over the wire:
``discord_server`` serves it as HTTP and a gateway on 127.0.0.1, for ``tycoon run`` and for the
in-process tests alike (``tests/bot/discord_app/harness.py``).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass, field

from tests.fakes import discord_activity as activity
from tests.fakes import discord_checks as checks
from tests.fakes import discord_limits as limits

APP_ID, BOT_ID, GUILD, CHANNEL = 42, 99, 20, 10
DM_BASE = 900_000_000  # DM channels far above the ids the fake hands out
EPHEMERAL_CHANNEL = -1  # where the fake keeps ephemeral messages (each seen by one user only)
EPHEMERAL = 64
V2 = limits.IS_COMPONENTS_V2
CDN = "https://cdn.discordapp.com/attachments"
BOT_USER = {"id": str(BOT_ID), "username": "tycoon", "discriminator": "0", "avatar": None, "bot": True,
            "global_name": None, "flags": 0}
_ids = itertools.count(1000)


def next_id() -> int:
    return next(_ids)


def message_payload(channel: int, components=None, content: str = "", flags: int = 0, mid: int | None = None) -> dict:
    """A message object as Discord returns it."""
    return {"id": str(mid if mid is not None else next_id()), "channel_id": str(channel), "content": content,
            "type": 0, "tts": False, "author": dict(BOT_USER), "attachments": [], "embeds": [], "mentions": [],
            "mention_roles": [], "pinned": False, "mention_everyone": False,
            "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None, "flags": flags,
            "components": components or []}


def member(uid: int, permissions: int = 0, name: str | None = None) -> dict:
    """A server member as an interaction carries them."""
    return {"user": {"id": str(uid), "username": f"u{uid}",
                     "global_name": name or {1: "Ann", 2: "Bob"}.get(uid, f"U{uid}"), "discriminator": "0",
                     "avatar": None},
            "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
            "permissions": str(permissions)}


MANAGE_EVENTS = 1 << 33


def interaction_payload(uid: int, kind: int, permissions: int = 0, app_permissions: int = MANAGE_EVENTS,
                        locale: str = "en-US", channel: int = CHANNEL) -> dict:
    """What every interaction Discord delivers has: who, where (``context`` 0: a server; the
    server's install named in ``authorizing_integration_owners``), and a token good for one answer."""
    return {"id": str(next_id()), "application_id": str(APP_ID), "type": kind, "token": f"tok{next_id()}",
            "version": 1, "channel_id": str(channel), "guild_id": str(GUILD), "locale": locale,
            "guild_locale": locale, "member": member(uid, permissions), "app_permissions": str(app_permissions),
            "entitlements": [], "authorizing_integration_owners": {"0": str(GUILD)}, "context": 0,
            "attachment_size_limit": 1000000,
            "channel": {"id": str(channel), "type": 0, "guild_id": str(GUILD), "name": "games", "position": 0,
                        "permission_overwrites": [], "nsfw": False, "parent_id": None}}


GROUP_DM = 800_000_000  # a group DM of friends (the bot is not in it)
# what an app may do in a DM or group DM it was not added to (Discord's note on ``app_permissions``)
PRIVATE_APP_PERMISSIONS = (1 << 15) | (1 << 14) | (1 << 17)


def elsewhere(payload: dict, where: str) -> dict:
    """``payload`` (a server's, as ``interaction_payload`` makes it) as it arrives from elsewhere,
    from someone who added Tycoon to their own account: ``"dm"`` their DM with the bot (context 1),
    ``"group"`` a group DM of friends (context 2), ``"guest"`` a server that never added the bot
    (context 0, only the user's install named)."""
    out = dict(payload)
    uid = (out.get("member") or {}).get("user", {}).get("id") or out.get("user", {}).get("id")
    user = (out.get("member") or {}).get("user") or out.get("user")
    out["authorizing_integration_owners"] = {"1": str(uid)}
    if where == "guest":
        out["app_permissions"] = str(PRIVATE_APP_PERMISSIONS)
        return out
    out.pop("guild_id", None)
    out.pop("guild_locale", None)
    out.pop("member", None)
    out["user"] = user
    if where == "dm":
        channel = DM_BASE + int(uid)
        out["context"], out["app_permissions"] = 1, str(PRIVATE_APP_PERMISSIONS | (1 << 18))
        out["channel"] = {"id": str(channel), "type": 1, "recipients": [user]}
    else:
        channel = GROUP_DM
        out["context"], out["app_permissions"] = 2, str(PRIVATE_APP_PERMISSIONS)
        friend = {"id": "77", "username": "u77", "global_name": "Cat", "discriminator": "0", "avatar": None}
        out["channel"] = {"id": str(channel), "type": 3, "name": None, "owner_id": str(uid), "icon": None,
                          "recipients": [user, friend]}
    out["channel_id"] = str(channel)
    return out


def command_payload(name: str, uid: int, permissions: int = 0, options: list | None = None, **values) -> dict:
    """A slash command as typed (``values``: its options; or ``options`` as Discord nests them)."""
    opts = options if options is not None else [
        {"name": k, "type": 5 if isinstance(v, bool) else 4 if isinstance(v, int) else 3, "value": v}
        for k, v in values.items()]
    return {**interaction_payload(uid, 2, permissions), "data": {"id": str(abs(hash(name))), "name": name,
                                                                  "type": 1, "options": opts}}


def autocomplete_payload(name: str, uid: int, focused: str, locale: str = "en-US", **values) -> dict:
    """What Discord sends while an option is typed (interaction type 4): the options filled so far,
    the one being typed (``focused``) marked, partial text as it stands."""
    opts = [{"name": k, "type": 4 if isinstance(v, int) and not isinstance(v, bool) else 3, "value": v,
             **({"focused": True} if k == focused else {})} for k, v in values.items()]
    return {**interaction_payload(uid, 4, locale=locale), "data": {"id": str(abs(hash(name))), "name": name,
                                                                    "type": 1, "options": opts}}


def _walk(components):
    """Every component of a message, nested ones too (a container's rows, a section's accessory)."""
    for c in components or []:
        if isinstance(c, dict):
            yield c
            yield from _walk(c.get("components"))
            if isinstance(c.get("accessory"), dict):
                yield from _walk([c["accessory"]])


def _plain_ids(components, signed: tuple[str, ...]) -> list[str]:
    """The custom ids of a message's components, without the bot's signature on signed data."""
    out = []
    for c in _walk(components):
        if "custom_id" in c:
            cid = c["custom_id"]
            out.append(cid.rsplit(".", 1)[0] if cid[:2] in signed else cid)
    return out


def every_component(message: dict) -> list[dict]:
    """Every component of a message or a payload, nested ones too, in order."""
    return list(_walk(message.get("components")))


def text_of(message: dict) -> str:
    """What a message (as the fake keeps it) or a payload the bot sent says: its content, and the
    text displays of a Components v2 message, in order, a line each."""
    texts = [message.get("content") or ""] + [c.get("content") or "" for c in _walk(message.get("components"))
                                              if c.get("type") == limits.TEXT_DISPLAY]
    return "\n".join(text for text in texts if text)


def _resolved(components, channel: int, files: list[tuple[int, str]]):
    """Components as Discord answers with them: ``attachment://name`` at the file's own address."""
    ids = {name: fid for fid, name in files}

    def media(item: dict) -> dict:
        url = item.get("url") or ""
        name = url[len(limits.ATTACHMENT):] if url.startswith(limits.ATTACHMENT) else None
        if name not in ids:
            return item
        return {"url": f"{CDN}/{channel}/{ids[name]}/{name}", "proxy_url": f"{CDN}/{channel}/{ids[name]}/{name}",
                "content_type": "image/png", "attachment_id": str(ids[name]), "flags": 0}

    def one(c):
        if not isinstance(c, dict):
            return c
        c = dict(c)
        if isinstance(c.get("components"), list):
            c["components"] = [one(x) for x in c["components"]]
        if isinstance(c.get("accessory"), dict):
            c["accessory"] = one(c["accessory"])
        if isinstance(c.get("media"), dict):
            c["media"] = media(c["media"])
        if isinstance(c.get("file"), dict):
            c["file"] = media(c["file"])
        if isinstance(c.get("items"), list):
            c["items"] = [{**i, "media": media(i.get("media") or {})} for i in c["items"]]
        return c

    return [one(c) for c in components or []]


def _answer(field: dict, left: dict, ids) -> dict:
    """One field of a submitted form as Discord sends it: a text input's ``value``, a select menu's
    ``values`` (``left``: what the test typed or chose, taken out as it is used)."""
    cid = field.get("custom_id")
    if field.get("type") == limits.TEXT_INPUT:
        value = left.pop(cid, field.get("value") or "")
        assert isinstance(value, str) and len(value) <= field.get("max_length", limits.TEXT_INPUT_MAX), (cid, value)
        assert value or not field.get("required", True), f"{cid} must be filled in"
        return {"type": limits.TEXT_INPUT, "id": next(ids), "custom_id": cid, "value": value}
    offered = [o["value"] for o in field.get("options") or []]
    values = list(left.pop(cid, [o["value"] for o in field.get("options") or [] if o.get("default")]))
    least = field.get("min_values", 1) if field.get("required", True) else 0
    assert set(values) <= set(offered) and least <= len(values) <= field.get("max_values", 1), (cid, values, offered)
    return {"type": field.get("type"), "id": next(ids), "custom_id": cid, "values": values}


@dataclass
class Interaction:
    """An interaction Discord delivered to the bot, and what the bot did with it."""

    token: str
    kind: int  # 2 slash command, 3 component, 5 form submitted
    channel: int
    user: int
    origin: tuple[int, int] | None = None  # the message a pressed component is on
    answers: list[int] = field(default_factory=list)  # callback types, in order (more than one is refused)
    original: tuple[int, int] | None = None  # the answer's own message (a channel message or an ephemeral one)
    loading: bool = False  # deferred with "thinking…": the first follow-up takes its place
    loading_flags: int = 0
    followups: list[int] = field(default_factory=list)
    message: dict | None = None  # the message a pressed component is on, as Discord sent it


class Refused(Exception):
    """What Discord answers with an error: its status and JSON body."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status} {body}")
        self.status, self.body = status, body


def _form(errors: limits.FormErrors) -> None:
    if errors:
        raise Refused(400, errors.body())


class DiscordAPI:
    """The state of one Discord (channels, messages, DMs, interactions, commands) and its answers."""

    SIGNED = ("l:", "h:", "b:", "e:", "s:", "T:", "p:", "m:", "a:")  # what the tests sign again when they press it

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict]] = []
        self._shown: tuple[set[str], int, object] = (set(), 0, None)  # ``has_shown``: ids, calls read, the last
        self.refusals: list[tuple[str, str, int, dict]] = []
        self.messages: dict[tuple[int, int], dict] = {}
        self.identical: list[tuple[str, dict]] = []
        self.reuploads = 0
        self.closed_dms: set[int] = set()  # users whose DMs refuse the bot (error 50007)
        self.events_forbidden = False  # the bot lacks Manage Events in the guild
        self.threads_forbidden = False  # the bot lacks Create Public Threads in the channel
        self.thread_parents: dict[int, int] = {}  # thread -> its parent channel
        self.interactions: dict[str, Interaction] = {}
        self.commands: list[dict] = []  # the global commands as last synced
        self.install_types = (0, 1)  # where the application may be installed (its settings on Discord)
        self.embedded = False  # Activities on (flag EMBEDDED): an Entry Point command, LAUNCH_ACTIVITY answers
        self.on_launch = None  # (channel, guild, user) -> the Activity instance a launch runs (discord_oauth)
        self.launched: list[tuple[int, int, str]] = []  # (channel, user, instance) of each LAUNCH_ACTIVITY
        self.modals: dict[str, tuple[dict, Interaction]] = {}  # a form's id -> the form, what opened it
        self.gateway_url = ""
        self.made_up: dict[tuple[int, int], dict] = {}  # messages a test's press claims to be on

    # -- the interactions the tests deliver ---------------------------------------------------------

    def issue(self, payload: dict) -> None:
        """An interaction about to be delivered to the bot: Discord knows its token from now on."""
        origin = None
        message = payload.get("message")
        if message is not None:
            ephemeral = (message.get("flags") or 0) & EPHEMERAL
            origin = (EPHEMERAL_CHANNEL if ephemeral else int(message["channel_id"]), int(message["id"]))
            # a button is pressed on a message that exists: one the test made up (not one the bot
            # posted here) is kept apart, for the answers that edit it
            if origin not in self.messages:
                self.made_up[origin] = self._look(message, [])
        who = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        self.interactions[payload["token"]] = Interaction(payload["token"], payload["type"],
                                                          int(payload["channel_id"]), int(who.get("id", 0)), origin,
                                                          message=message)

    def answered(self) -> dict[str, list[int]]:
        """Each delivered interaction's answer types (one, once answered)."""
        return {tok: i.answers for tok, i in self.interactions.items()}

    # -- what messages show ------------------------------------------------------------------------

    def _look(self, payload: dict, files: list[tuple[str, bytes]], user: int | None = None,
              channel: int | None = None, at: int = 0) -> dict:
        """What a message shows; an ephemeral one also says whose it is and where it appears. Its
        files (id, name) and its components as Discord answers with them (``_resolved``)."""
        picture = hashlib.sha1(files[0][1]).hexdigest() if files else None
        stored = [(next_id(), name) for name, _ in files]
        return {"content": payload.get("content") or "",
                "components": _resolved(payload.get("components"), at or channel or 0, stored),
                "ids": _plain_ids(payload.get("components"), self.SIGNED), "files": stored,
                "picture": picture, "flags": payload.get("flags") or 0, "user": user, "channel": channel}

    def _post(self, channel: int, payload: dict, files: list[tuple[str, bytes]]) -> dict:
        look = self._look(payload, files, at=channel)
        answer = message_payload(channel, look["components"], look["content"], look["flags"])
        self.messages[(channel, int(answer["id"]))] = look
        return answer

    @staticmethod
    def _kept(old: dict | None, payload: dict) -> list[tuple[int, str]]:
        """The files an edit keeps: all (no ``attachments``), else those it lists by id."""
        if old is None:
            return []
        if "attachments" not in payload:
            return list(old.get("files", []))
        listed = {str(a.get("id")) for a in payload.get("attachments") or [] if isinstance(a, dict)}
        return [f for f in old.get("files", []) if str(f[0]) in listed]

    def _edit(self, key: tuple[int, int], payload: dict, files: list[tuple[str, bytes]], url: str) -> dict:
        store = self.messages if key in self.messages else self.made_up
        old = store.get(key)
        if old is None:
            raise Refused(404, limits.error(10008, "Unknown Message"))
        new = dict(old)
        new["flags"] = old["flags"] | (payload.get("flags") or 0) & V2  # the v2 flag is only ever set
        new["files"] = self._kept(old, payload) + [(next_id(), name) for name, _ in files]
        if "content" in payload:
            new["content"] = payload["content"] or ""
        if "components" in payload:
            new["ids"] = _plain_ids(payload["components"], self.SIGNED)
            new["components"] = _resolved(payload["components"], old.get("channel") or key[0], new["files"])
        if new["flags"] & V2 and not new["components"]:  # nothing left to show
            raise Refused(400, limits.error(50006, "Cannot send an empty message"))
        if files:
            picture = hashlib.sha1(files[0][1]).hexdigest()
            self.reuploads += picture == old["picture"]
            new["picture"] = picture
        elif payload.get("attachments") == []:
            new["picture"] = None
        if new == old:
            self.identical.append((url, payload))
        store[key] = new
        return message_payload(key[0], new["components"], new["content"], new["flags"], mid=key[1])

    def live(self, channel: int) -> dict[int, list[str]]:
        """The messages of ``channel`` that have buttons now: message id -> their ids."""
        return {mid: m["ids"] for (c, mid), m in self.messages.items() if c == channel and m["ids"]}

    # -- the one door --------------------------------------------------------------------------------

    def handle(self, method: str, path: str, payload, files: list[tuple[str, bytes]]) -> tuple[int, object]:
        """Discord's answer to one request: (status, JSON body). ``path`` starts after ``/api/v10``."""
        record = {"commands": payload} if isinstance(payload, list) else dict(payload or {})
        record["files"] = [name for name, _ in files]
        self.calls.append((method, path, record))
        try:
            return 200, self._route(method, path, payload if payload is not None else {}, files)
        except Refused as e:
            self.refusals.append((method, path, e.status, e.body))
            return e.status, e.body

    def _route(self, method: str, path: str, payload, files):  # noqa: C901 (one branch per endpoint)
        path = path.split("?", 1)[0]
        if path == "/gateway/bot":
            return {"url": self.gateway_url, "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}
        if path == "/users/@me":
            return dict(BOT_USER)
        if path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Tycoon", "icon": None, "description": "", "bot_public": True,
                    "bot_require_code_grant": False, "verify_key": "0" * 64,
                    "flags": activity.EMBEDDED if self.embedded else 0,
                    "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None}, "team": None}
        if m := re.fullmatch(r"/applications/(\d+)/commands", path):
            if method == "GET":
                return self.commands
            _form(checks.check_places(payload, limits.check_commands(payload), self.install_types))
            refused = activity.check_commands(payload, self.commands, self.embedded)  # the Entry Point's rules
            if refused:
                raise Refused(*refused)
            self.commands = [{**c, "id": str(next_id()), "application_id": m[1], "version": "1",
                              "type": c.get("type", 1), "default_member_permissions": None, "dm_permission": True,
                              "nsfw": False, **checks.stored(c)} for c in payload]
            return self.commands
        if path == "/users/@me/channels":
            uid = int(payload["recipient_id"])
            return {"id": str(DM_BASE + uid), "type": 1, "last_message_id": None,
                    "recipients": [{"id": str(uid), "username": f"u{uid}", "discriminator": "0", "avatar": None}]}
        if m := re.fullmatch(r"/channels/(\d+)/threads", path):
            if self.threads_forbidden:
                raise Refused(403, limits.error(50013, "Missing Permissions"))
            limits_errors = limits.FormErrors()
            limits_errors.length(("name",), payload.get("name"), 1, limits.THREAD_NAME_MAX)
            _form(limits_errors)
            thread = next_id()
            self.thread_parents[thread] = int(m[1])
            return {"id": str(thread), "type": 11, "guild_id": str(GUILD), "parent_id": m[1],
                    "name": payload["name"], "owner_id": str(BOT_ID), "thread_metadata": {
                        "archived": False, "auto_archive_duration": 1440, "archive_timestamp":
                        "2026-01-01T00:00:00+00:00", "locked": False}}
        if m := re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path):
            return self._channel_message(method, int(m[1]), int(m[2]) if m[2] else None, payload, files, path)
        if m := re.fullmatch(r"/guilds/(\d+)/scheduled-events(?:/(\d+))?", path):
            if self.events_forbidden:
                raise Refused(403, limits.error(50013, "Missing Permissions"))
            if method == "DELETE":
                return None
            errors = limits.FormErrors()
            errors.length(("name",), payload.get("name"), 1, limits.EVENT_NAME_MAX)
            errors.length(("description",), payload.get("description", ""), 0, limits.EVENT_DESCRIPTION_MAX)
            _form(errors)
            return {"id": str(next_id()), "guild_id": m[1], **payload}
        if m := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            return self._callback(m[2], payload, files)
        if m := re.fullmatch(r"/webhooks/(\d+)/([^/]+)(?:/messages/(@original|\d+))?", path):
            return self._webhook(method, m[2], m[3], payload, files, path)
        raise Refused(404, limits.error(0, "404: Not Found"))

    def _channel_message(self, method, channel, message, payload, files, path):
        if channel - DM_BASE in self.closed_dms:
            raise Refused(403, limits.error(50007, "Cannot send messages to this user"))
        if method == "DELETE":
            if self.messages.pop((channel, message), None) is None:
                raise Refused(404, limits.error(10008, "Unknown Message"))
            return None
        if method == "GET":
            if (channel, message) not in self.messages:
                raise Refused(404, limits.error(10008, "Unknown Message"))
            shown = self.messages[(channel, message)]
            return message_payload(channel, shown["components"], shown["content"], shown["flags"], mid=message)
        if method == "PATCH":
            self._check(payload, files, edit=True, old=self.messages.get((channel, message)))
            return self._edit((channel, message), payload, files, path)
        self._check(payload, files)
        reference = payload.get("message_reference")
        if reference and (channel, int(reference["message_id"])) not in self.messages \
                and reference.get("fail_if_not_exists", True):
            errors = limits.FormErrors()
            errors.add(("message_reference",), "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
            raise Refused(400, errors.body())
        return self._post(channel, payload, files)

    def _check(self, payload: dict, files, edit: bool = False, old: dict | None = None) -> None:
        """``old``: the message an edit changes (its flags stay; the files it keeps may be named)."""
        names = tuple(name for _, name in self._kept(old, payload)) + tuple(name for name, _ in files)
        _form(limits.check_message(payload, len(files), tuple(len(b) for _, b in files), edit,
                                   (old or {}).get("flags", 0), names))
        if not edit and limits.is_empty(payload, len(files)):
            raise Refused(400, limits.error(50006, "Cannot send an empty message"))

    # -- interactions --------------------------------------------------------------------------------

    def _interaction(self, token: str, webhook: bool = False) -> Interaction:
        found = self.interactions.get(token)
        if found is None:
            raise Refused(404, limits.error(10015, "Unknown Webhook") if webhook
                          else limits.error(10062, "Unknown interaction"))
        return found

    def _callback(self, token: str, payload: dict, files):
        it = self._interaction(token)
        kind, data = payload.get("type"), payload.get("data") or {}
        if it.answers:
            raise Refused(400, limits.error(40060, "Interaction has already been acknowledged."))
        if kind == activity.LAUNCH_ACTIVITY:  # the Activity opened in the interaction's channel
            return activity.launch(self, it, None if it.channel >= GROUP_DM else GUILD)
        if kind in (6, 7) and it.kind not in (3, 5) or kind == 9 and it.kind in (4, 5) \
                or (kind == 8) != (it.kind == 4) or kind not in (1, 4, 5, 6, 7, 8, 9):
            errors = limits.FormErrors()
            errors.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID",
                       "Interaction response type is invalid for this interaction")
            raise Refused(400, errors.body())
        if kind == 9:
            _form(checks.check_modal(data))
            self.modals[str(data.get("custom_id"))] = (data, it)
        elif kind == 8:
            _form(checks.check_autocomplete(data))
        elif kind == 4:
            self._check(data, files)
        elif kind == 7:
            origin = it.origin and (self.messages.get(it.origin) or self.made_up.get(it.origin))
            self._check(data, files, edit=True, old=origin or None)
        it.answers.append(kind)
        flags = data.get("flags") or 0
        shown = None
        if kind == 4:
            shown = self._answer_message(it, data, files, flags)
        elif kind == 5:
            it.loading, it.loading_flags = True, flags
            shown = message_payload(it.channel, flags=flags | 128)
            it.original = self._ephemeral_key(it, int(shown["id"])) if flags & EPHEMERAL else \
                (it.channel, int(shown["id"]))
            self.messages[it.original] = self._look({"flags": flags}, [], it.user, it.channel)
        elif kind == 7 and it.origin is not None:
            self.calls[-1][2]["edits"] = list(it.origin)  # the message it changes: public only in a channel
            shown = self._edit(it.origin, data, files, f"/interactions/{token}")
            it.original = it.origin
        elif kind in (6, 7):
            it.original = it.origin
        message = shown or message_payload(it.channel)
        return {"interaction": {"id": "1", "type": it.kind, "response_message_id": message["id"],
                                "response_message_loading": kind == 5,
                                "response_message_ephemeral": bool(flags & EPHEMERAL)},
                "resource": {"type": kind, "message": message}}

    @staticmethod
    def _ephemeral_key(it: Interaction, mid: int) -> tuple[int, int]:
        """Ephemeral messages live apart from the channel: only their user sees them."""
        return (EPHEMERAL_CHANNEL, mid)

    def _answer_message(self, it: Interaction, data: dict, files, flags: int) -> dict:
        if flags & EPHEMERAL:
            message = message_payload(it.channel, data.get("components"), data.get("content") or "", flags)
            it.original = self._ephemeral_key(it, int(message["id"]))
            self.messages[it.original] = self._look(data, files, it.user, it.channel)
            return message
        message = self._post(it.channel, data, files)
        it.original = (it.channel, int(message["id"]))
        return message

    def _webhook(self, method: str, token: str, which: str | None, payload, files, path):
        it = self._interaction(token, webhook=True)
        if not it.answers:  # no answer yet: Discord has no webhook message to follow
            raise Refused(404, limits.error(10015, "Unknown Webhook"))
        if which is None:  # a follow-up message
            self._check(payload, files)
            if it.loading:  # takes the place of "thinking…", with the deferral's visibility
                it.loading = False
                data = {**payload, "flags": it.loading_flags | (payload.get("flags") or 0) & V2}
                self.messages.pop(it.original, None)
                message = self._answer_message(it, data, files, data["flags"])
                return message
            flags = payload.get("flags") or 0
            if flags & EPHEMERAL:
                message = message_payload(it.channel, payload.get("components"), payload.get("content") or "", flags)
                key = self._ephemeral_key(it, int(message["id"]))
                self.messages[key] = self._look(payload, files, it.user, it.channel)
            else:
                message = self._post(it.channel, payload, files)
            it.followups.append(int(message["id"]))
            return message
        if which == "@original":
            key = it.original
            if key is None:
                raise Refused(404, limits.error(10008, "Unknown Message"))
        else:
            mid = int(which)
            key = next((k for k in ((it.channel, mid), self._ephemeral_key(it, mid), it.original) if k
                        and k[1] == mid and k in self.messages), None)
            if key is None:
                raise Refused(404, limits.error(10008, "Unknown Message"))
        if method == "DELETE":
            self.messages.pop(key, None)
            return None
        if method == "GET":
            shown = self.messages.get(key, {})
            return message_payload(key[0], shown.get("components"), shown.get("content", ""), shown.get("flags", 0),
                                   mid=key[1])
        self._check(payload, files, edit=True, old=self.messages.get(key))
        it.loading = False
        return self._edit(key, payload, files, path)

    # -- pressing what the bot showed ------------------------------------------------------------------

    def pressable(self, uid: int, channels: tuple[int, ...] = (CHANNEL,)) -> list[tuple[tuple[int, int], dict]]:
        """Every component ``uid`` can use now, newest message first: on messages of ``channels``
        (and their threads), in their DM, and on ephemeral messages shown to them."""
        mine = {DM_BASE + uid, *channels, *(t for t, parent in self.thread_parents.items() if parent in channels)}
        out = []
        for key in sorted(self.messages, key=lambda k: -k[1]):
            look = self.messages[key]
            if key[0] == EPHEMERAL_CHANNEL and look.get("user") != uid or key[0] != EPHEMERAL_CHANNEL \
                    and key[0] not in mine:
                continue
            for component in _walk(look.get("components")):
                if "custom_id" in component and not component.get("disabled"):
                    out.append((key, component))
        return out

    def press_payload(self, key: tuple[int, int], component: dict, uid: int, values: list[str] | None = None,
                      permissions: int = 0) -> dict:
        """The interaction Discord delivers when ``uid`` uses ``component`` of message ``key``."""
        look = self.messages[key]
        ephemeral = key[0] == EPHEMERAL_CHANNEL
        channel = look["channel"] if ephemeral else key[0]
        message = message_payload(channel, look["components"], look["content"],
                                  look["flags"] | (EPHEMERAL if ephemeral else 0), mid=key[1])
        data = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if component["type"] == 3:
            data["values"] = list(values or [])
        base = interaction_payload(uid, 3, permissions, channel=channel)
        if channel >= DM_BASE:  # a DM: the user, not a member; no guild
            base.pop("guild_id")
            base["user"] = base.pop("member")["user"]
            base["channel"] = {"id": str(channel), "type": 1}
            base["context"], base["authorizing_integration_owners"] = 1, {"0": "0"}  # the bot's DM
        return {**base, "data": data, "message": message}

    def form_payload(self, custom_id: str, uid: int, fields: dict[str, str | list[str]],
                     channel: int | None = None) -> dict:
        """A form (modal) submitted with ``fields`` (a text input's id -> what was typed, a select
        menu's id -> the values chosen), shaped as Discord sends it for the form the bot opened with
        that id: each Label with its field's answer, a Text Display by its id only, a field left alone
        as the form filled it in (a text input's value, a select menu's default options), and the
        message of the button that opened the form. What no person could submit (a value not among
        the options, too many or too few, a required field empty, a field the form does not have)
        fails the test. A form the bot never opened: rows of text inputs, as forms were."""
        opened = self.modals.get(custom_id)
        if opened is None:
            rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()]
            return {**interaction_payload(uid, 5, channel=channel or CHANNEL),
                    "data": {"custom_id": custom_id, "components": rows}}
        form, by = opened
        ids, left, answers = itertools.count(1), dict(fields), []
        for item in form.get("components") or []:
            if item.get("type") == checks.TEXT_DISPLAY:
                answers.append({"type": checks.TEXT_DISPLAY, "id": next(ids)})
            elif item.get("type") == limits.ACTION_ROW:
                answers.append({"type": 1, "id": next(ids), "components": [_answer(item["components"][0], left, ids)]})
            else:
                answers.append({"type": checks.LABEL, "id": next(ids),
                                "component": _answer(item["component"], left, ids)})
        assert not left, f"the form {custom_id} has no field {sorted(left)}"
        payload = {**interaction_payload(uid, 5, channel=channel or by.channel),
                   "data": {"custom_id": custom_id, "components": answers}}
        if by.message is not None:
            payload["message"] = by.message
        return payload

    def last_form(self, uid: int) -> dict | None:
        """The latest form (modal) the bot opened for ``uid``."""
        for _method, path, payload in reversed(self.calls):
            if path.endswith("/callback") and payload.get("type") == 9:
                token = path.split("/")[3]
                if self.interactions.get(token) and self.interactions[token].user == uid:
                    return payload["data"]
        return None

    # -- what the tests read -------------------------------------------------------------------------

    def custom_ids(self, calls=None, raw: bool = False) -> list[str]:
        """Every component id the bot has shown (in ``calls``, default all), newest first, signed
        data without its signature (``raw``: as sent)."""
        out: list[str] = []

        def walk(node):
            if isinstance(node, dict):
                if "custom_id" in node:
                    cid = node["custom_id"]
                    out.append(cid.rsplit(".", 1)[0] if cid[:2] in self.SIGNED and not raw else cid)
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)

        for _, _, payload in reversed(self.calls if calls is None else calls):
            walk(payload)
        return out

    def has_shown(self, custom_id: str) -> bool:
        """``custom_id in custom_ids()``, without walking every call again: the ids of the calls read
        before are kept (a whole game makes thousands of calls, and asks this after each press)."""
        ids, read, last = self._shown
        if read > len(self.calls) or (read and self.calls[read - 1] is not last):  # the calls were cleared
            ids, read = set(), 0
        if read < len(self.calls):
            ids.update(self.custom_ids(self.calls[read:]))
            read, last = len(self.calls), self.calls[-1]
        self._shown = (ids, read, last)
        return custom_id in ids

    def public(self, channel: int = CHANNEL) -> list[dict]:
        """Messages the whole channel sees: posts and edits in it, and non-ephemeral interaction replies."""
        out = [p for m, u, p in self.calls if f"/channels/{channel}/messages" in u]
        for _, url, p in self.calls:
            if "/interactions/" in url or "/webhooks/" in url:
                data = p.get("data", p) if isinstance(p.get("data"), dict) else p
                if p.get("edits") and p["edits"][0] != channel:  # a DM's or an ephemeral reply's message
                    continue
                if not (data.get("flags") or 0) & EPHEMERAL:
                    out.append(data)
        return out

    def dms(self, uid: int) -> list[dict]:
        return [p for m, u, p in self.calls if f"/channels/{DM_BASE + uid}/messages" in u]

    def last_reply(self, method: str | None = None) -> dict:
        """The latest interaction response or followup (content, flags); ``method`` "POST" leaves
        out the edits of earlier replies (an ephemeral "My hand" kept current)."""
        p = next(p for m, u, p in reversed(self.calls) if ("/interactions/" in u or "/webhooks/" in u)
                 and method in (None, m))
        return p["data"] if isinstance(p.get("data"), dict) else p

    def twice_answered(self) -> list[str]:
        """Interactions the bot tried to answer more than once (Discord refused the later ones)."""
        return [tok for m, u, s, b in self.refusals if b.get("code") == 40060
                for tok in [u.split("/")[3]]]
