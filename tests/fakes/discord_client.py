"""A stand-in for Discord's client around an Activity, for the browser tests: a page that frames the
Activity as Discord's client does and answers the Embedded App SDK's ``postMessage`` RPC as the
client does (read from the SDK's own source, ``bot/web/static/vendor``):

- the frame's address carries the launch parameters the SDK reads (``frame_id``, ``instance_id``,
  ``platform``, ``guild_id``, ``channel_id``); the SDK then sends ``[0, {v: 1, encoding: "json",
  client_id, frame_id, sdk_version}]`` (HANDSHAKE) to its parent;
- the client answers a handshake whose ``v``, ``client_id`` and ``frame_id`` are the ones it framed
  with the READY dispatch, ``[1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1, config:
  {cdn_host, api_endpoint, environment}, user}}]``, and a wrong one with ``[2, {code: 4000,
  message}]`` (CLOSE, ``INVALID_CLIENTID``);
- commands come as ``[1, {cmd, args, nonce}]`` (FRAME) and are answered ``[1, {cmd, nonce, evt: null,
  data}]``, or ``[1, {cmd, nonce, evt: "ERROR", data: {code, message}}]``:
  ``AUTHORIZE`` (``client_id`` the framed one, ``response_type`` "code", ``scope`` a list naming
  ``identify``; else ERROR 4000 INVALID_PAYLOAD): ``{code}``, from the fake Discord
  (``DiscordOAuth.authorize``) for the signed-in member, or a code the test forces (a forged one);
  ``AUTHENTICATE``: the access token must be one the fake Discord issued to that member (else
  ERROR 4009 INVALID_TOKEN): ``{access_token, user, scopes, expires, application}``; any other
  command: ERROR 4002 INVALID_COMMAND (the page uses no other).

Everything the page received is kept in ``window.rpc`` for the test to read.

The SDK only takes messages from its own origin, Discord's and a few others, so the stand-in is
served from the Activity's own address: ``add_routes`` adds ``/_discord/client`` (the page) and
``/_discord/rpc`` (its questions to the fake Discord, in the test's process) to the web table's
application, in the test only.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from aiohttp import web

from tests.fakes.discord_oauth import DiscordOAuth

FAKE = web.AppKey("fake_discord_client", DiscordOAuth)

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (test)</title>
<style>body{margin:0;overflow:hidden} iframe{display:block;border:0;width:100vw;height:100vh}</style></head>
<body>
<iframe id="activity" src="__SRC__"></iframe>
<script>
"use strict";
const SETUP = __SETUP__;  // {client_id, frame_id, user, code}: who is signed in, what was framed
const frame = document.getElementById("activity");
window.rpc = [];
const reply = (message) => frame.contentWindow.postMessage(message, location.origin);
const ask = (body) => fetch("/_discord/rpc", {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify({...body, user: SETUP.user})}).then(r => r.json());
const error = (cmd, nonce, code, message) => reply([1, {cmd, nonce, evt: "ERROR", data: {code, message}}]);
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [op, data] = event.data;
  window.rpc.push([op, data]);
  if (op === 0) {  // HANDSHAKE
    if (data.v !== 1 || data.client_id !== SETUP.client_id || data.frame_id !== SETUP.frame_id)
      return reply([2, {code: 4000, message: "Invalid Client ID"}]);
    const {user} = await ask({cmd: "READY"});
    return reply([1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1, config: {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production"},
      user: {id: user.id, username: user.username, discriminator: user.discriminator}}}]);
  }
  if (op !== 1) return;
  const {cmd, args, nonce} = data;
  if (cmd === "AUTHORIZE") {
    const ok = args && args.client_id === SETUP.client_id && args.response_type === "code"
      && Array.isArray(args.scope) && args.scope.includes("identify");
    if (!ok) return error(cmd, nonce, 4000, "Invalid payload");
    const {code} = SETUP.code ? {code: SETUP.code} : await ask({cmd, scope: args.scope});
    return reply([1, {cmd, nonce, evt: null, data: {code}}]);
  }
  if (cmd === "AUTHENTICATE") {
    const answer = await ask({cmd, access_token: args && args.access_token});
    if (!answer.user) return error(cmd, nonce, 4009, "Invalid token");
    return reply([1, {cmd, nonce, evt: null, data: answer}]);
  }
  error(cmd, nonce, 4002, "Invalid command");
});
</script>
</body></html>
"""


async def _page(request: web.Request) -> web.Response:
    """``/_discord/client?user=<id>&instance=<id>&channel=<id>&guild=<id>[&code=<forced>][&at=<path>]``."""
    fake, q = request.app[FAKE], request.query
    frame_id = "frame-" + q["instance"][-8:]
    params = {"frame_id": frame_id, "instance_id": q["instance"], "platform": "desktop", "channel_id": q["channel"],
              **({"guild_id": q["guild"]} if q.get("guild") else {}), "location_id": q["instance"].split("-", 2)[-1]}
    setup = {"client_id": fake.client_id, "frame_id": frame_id, "user": q["user"], "code": q.get("code")}
    html = PAGE.replace("__SRC__", f"{q.get('at', '/')}?{urlencode(params)}").replace("__SETUP__", json.dumps(setup))
    return web.Response(text=html, content_type="text/html")


async def _rpc(request: web.Request) -> web.Response:
    """What the client asks Discord for the signed-in member: their user, a code, a token's user."""
    fake, body = request.app[FAKE], await request.json()
    user = fake.users[str(body["user"])]
    if body["cmd"] == "READY":
        return web.json_response({"user": user})
    if body["cmd"] == "AUTHORIZE":
        return web.json_response({"code": fake.authorize(user["id"], fake.client_id, body["scope"])})
    holder = fake.bearer(body.get("access_token") or "")
    if holder is None or holder["id"] != user["id"]:
        return web.json_response({"user": None})
    scopes = list(fake.tokens[body["access_token"]][1])
    return web.json_response({
        "access_token": body["access_token"], "scopes": scopes, "expires": "2030-01-01T00:00:00.000000+00:00",
        "user": {k: holder[k] for k in ("id", "username", "discriminator", "avatar", "public_flags", "global_name")},
        "application": {"id": fake.client_id, "name": "Tycoon", "description": "", "icon": None}})


def add_routes(app: web.Application, fake: DiscordOAuth) -> None:
    """The stand-in client on the web table's own address (the test's application only)."""
    app[FAKE] = fake
    app.router.add_get("/_discord/client", _page)
    app.router.add_post("/_discord/rpc", _rpc)
