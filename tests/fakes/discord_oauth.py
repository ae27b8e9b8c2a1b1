"""Discord's side of an Activity's sign-in, as strict as Discord: the OAuth2 code exchange, the
user an access token belongs to, and the Activity instances the bot may ask about.

- ``POST /oauth2/token`` (form-encoded, as Discord requires): ``client_id``, ``client_secret``,
  ``grant_type=authorization_code`` and a ``code`` this fake issued to that client and not used yet;
  answers ``{"access_token", "token_type": "Bearer", "expires_in", "refresh_token", "scope"}``, or
  Discord's OAuth2 errors: 401 ``invalid_client``, 400 ``unsupported_grant_type``, 400
  ``invalid_grant`` (a made-up, used or other client's code), 400 ``invalid_request`` (not a form);
- ``GET /users/@me`` with ``Authorization: Bearer <token>``: the user, with ``identify``; 401
  ``{"message": "401: Unauthorized", "code": 0}`` for an unknown token;
- ``GET /applications/<id>/activity-instances/<instance>`` with ``Authorization: Bot <token>``
  (the bot's): the instance (``application_id``, ``instance_id``, ``launch_id``, ``location`` with
  ``kind`` "gc" or "pc", ``channel_id``, ``guild_id``, and ``users`` in it), 404 ``{"message":
  "404: Not Found", "code": 0}`` for none of this application's, 401 for another token.

What the client and Discord do around it are methods: ``authorize`` (the member allows the
application: a code, as the client gets it for the SDK's ``AUTHORIZE``), ``launch`` (an Activity
opened in a channel: one instance per channel, which later members join), ``bearer`` (the user of
an access token, as the client checks it for ``AUTHENTICATE``).

Served on its own (``start``: ``api_url`` ends in ``/api/v10`` like Discord's) or in front of the
bot's fake Discord (``attach``: one address for both, as in production, where ``DISCORD_API_URL``
serves the bot and the Activity alike); ``calls`` and ``refusals`` record what was asked.
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
from urllib.parse import parse_qsl

from aiohttp import web

EXPIRES = 604800  # seconds, as Discord's access tokens last
_INSTANCE = re.compile(r"/applications/(\d+)/activity-instances/([^/]+)")
_launches = itertools.count(1276580072400224306)


def _error(status: int, message: str) -> tuple[int, dict]:
    return status, {"message": f"{status}: {message}", "code": 0}


class DiscordOAuth:
    """One application's OAuth2 client and Activity, its users, codes, tokens and instances."""

    def __init__(self, client_id: str = "42", client_secret: str = "activity-secret",
                 bot_token: str = "discord-test-token") -> None:
        self.client_id, self.client_secret, self.bot_token = client_id, client_secret, bot_token
        self.users: dict[str, dict] = {}
        self.codes: dict[str, tuple[str, str, tuple[str, ...]]] = {}  # code -> (client, user, scopes), unused
        self.tokens: dict[str, tuple[str, tuple[str, ...]]] = {}  # access token -> (user, scopes)
        self.instances: dict[str, dict] = {}
        self.calls: list[tuple[str, str]] = []
        self.refusals: list[tuple[str, int, dict]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- what Discord's client and Discord do -------------------------------------------------------

    def add_user(self, uid: int, name: str, locale: str = "en-US") -> dict:
        user = {"id": str(uid), "username": name.lower(), "discriminator": "0", "global_name": name, "avatar": None,
                "public_flags": 0, "flags": 0, "locale": locale, "mfa_enabled": False, "premium_type": 0}
        self.users[str(uid)] = user
        return user

    def authorize(self, uid: int | str, client_id: str, scopes) -> str:
        """The member allows ``client_id`` ``scopes``: the code the client hands the Activity."""
        if str(uid) not in self.users:
            raise KeyError(f"no user {uid}")
        code = secrets.token_urlsafe(22)
        self.codes[code] = (str(client_id), str(uid), tuple(scopes))
        return code

    def bearer(self, token: str) -> dict | None:
        """The user an access token was issued to (None: not one of ours)."""
        held = self.tokens.get(token)
        return self.users[held[0]] if held else None

    def launch(self, channel: int, guild: int | None, uid: int) -> str:
        """The Activity opened in a channel by ``uid``: the channel's instance (a new one, or the one
        running there, which they join)."""
        for instance in self.instances.values():
            if instance["location"]["channel_id"] == str(channel):
                if str(uid) not in instance["users"]:
                    instance["users"].append(str(uid))
                return instance["instance_id"]
        launch_id = str(next(_launches))
        kind = "gc" if guild else "pc"
        location = f"{kind}-{guild}-{channel}" if guild else f"{kind}-{channel}"
        instance_id = f"i-{launch_id}-{location}"
        self.instances[instance_id] = {
            "application_id": self.client_id, "instance_id": instance_id, "launch_id": launch_id,
            "location": {"id": location, "kind": kind, "channel_id": str(channel),
                         **({"guild_id": str(guild)} if guild else {"guild_id": None})},
            "users": [str(uid)]}
        return instance_id

    # -- the HTTP side ------------------------------------------------------------------------------

    @staticmethod
    def handles(method: str, path: str, authorization: str) -> bool:
        """Whether a request is one of these (``path`` after ``/api/v10``), not the bot's own calls
        (when in front of the bot's fake)."""
        path = path.split("?", 1)[0]
        return (path == "/oauth2/token" and method == "POST") or (
            path == "/users/@me" and authorization.startswith("Bearer ")) or bool(_INSTANCE.fullmatch(path))

    def answer(self, method: str, path: str, authorization: str, content_type: str, body: bytes) -> tuple[int, dict]:
        """Discord's answer to a request ``handles`` takes: (status, JSON body)."""
        path = path.split("?", 1)[0]
        if path == "/oauth2/token" and method == "POST":
            out = self._token(content_type, body)
        elif path == "/users/@me" and authorization.startswith("Bearer "):
            out = self._me(authorization.removeprefix("Bearer "))
        elif m := _INSTANCE.fullmatch(path):
            out = self._instance(m[1], m[2], authorization)
        else:
            out = _error(404, "Not Found")
        self.calls.append((method, path))
        if out[0] != 200:
            self.refusals.append((path, *out))
        return out

    def _token(self, content_type: str, body: bytes) -> tuple[int, dict]:
        if content_type != "application/x-www-form-urlencoded":
            return 400, {"error": "invalid_request", "error_description": "Request must be form encoded"}
        try:
            form = dict(parse_qsl(body.decode(), strict_parsing=True))
        except (ValueError, UnicodeDecodeError):
            return 400, {"error": "invalid_request"}
        if form.get("client_id") != self.client_id or form.get("client_secret") != self.client_secret:
            return 401, {"error": "invalid_client"}
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        held = self.codes.pop(form.get("code", ""), None)
        if held is None or held[0] != self.client_id:
            return 400, {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
        _client, uid, scopes = held
        token = secrets.token_urlsafe(24)
        self.tokens[token] = (uid, scopes)
        return 200, {"token_type": "Bearer", "access_token": token, "expires_in": EXPIRES,
                     "refresh_token": secrets.token_urlsafe(24), "scope": " ".join(scopes)}

    def _me(self, token: str) -> tuple[int, dict]:
        held = self.tokens.get(token)
        if held is None or "identify" not in held[1]:
            return _error(401, "Unauthorized")
        return 200, dict(self.users[held[0]])

    def _instance(self, application: str, instance: str, authorization: str) -> tuple[int, dict]:
        if authorization != f"Bot {self.bot_token}":
            return _error(401, "Unauthorized")
        found = self.instances.get(instance)
        if application != self.client_id or found is None:
            return _error(404, "Not Found")
        return 200, json.loads(json.dumps(found))

    async def _serve(self, request: web.Request) -> web.Response:
        status, body = self.answer(request.method, "/" + request.match_info["path"],
                                   request.headers.get("Authorization", ""), request.content_type,
                                   await request.read())
        return web.json_response(body, status=status)

    async def start(self) -> str:
        """Served on 127.0.0.1 on its own; its ``api_url``."""
        app = web.Application()
        app.router.add_route("*", "/api/v10/{path:.*}", self._serve)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self.api_url

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def attach(self, server) -> None:
        """In front of the bot's fake Discord (``discord_server.DiscordServer``): one address for the
        bot and the Activity, and a launch there (an interaction answered with LAUNCH_ACTIVITY, type
        12) makes the channel's instance here; the application has Activities on (``embedded``)."""
        server.oauth = self
        server.api.embedded = True
        server.api.on_launch = self.launch
