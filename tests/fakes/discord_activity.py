"""Discord's checks of what an application with an Activity may do (issue 49), the way Discord checks
them, for the fake Discord (``discord_api.DiscordAPI``, whose ``embedded`` says whether the
application has Activities on: its ``EMBEDDED`` flag):

- the commands' bulk overwrite: a ``PRIMARY_ENTRY_POINT`` command (type 4) only for an application
  with Activities, one at most, without options; ``handler`` (1 ``APP_HANDLER``, 2
  ``DISCORD_LAUNCH_ACTIVITY``) only on that command; each refused with Discord's 50035 body, the
  error under the command's index. And an overwrite that leaves out the application's Entry Point
  command (Discord made one, "Launch", when Activities were turned on) is refused as a whole: 400,
  code 50240, "You cannot remove this app's Entry Point command in a bulk update operation…", as
  Discord refuses it (discord.py raises ``HTTPException``, not ``CommandSyncFailure``);
- an interaction answered with ``LAUNCH_ACTIVITY`` (callback type 12): only by an application with
  Activities, only for a command or a component; the answer names the instance the channel then
  runs (``DiscordAPI.on_launch``, when a fake OAuth side keeps instances: ``discord_oauth.py``).

Written from Discord's documentation (application commands: Entry Point commands and handlers;
receiving and responding: the callback types and the callback response), independently of the bot.
"""

from __future__ import annotations

from tests.fakes import discord_limits as limits

EMBEDDED = 1 << 17  # the application flag of an app with an Activity
ENTRY_POINT, HANDLERS = 4, (1, 2)
LAUNCH_ACTIVITY = 12
REMOVED = (50240, "You cannot remove this app's Entry Point command in a bulk update operation. Please include "
                  "the Entry Point command in your update request or delete it separately.")


def check_commands(commands, before: list[dict], embedded: bool) -> tuple[int, dict] | None:
    """A bulk overwrite's Entry Point rules: None, or Discord's (status, body) refusing it."""
    if not isinstance(commands, list):
        return None
    errors = limits.FormErrors()
    points = [i for i, c in enumerate(commands) if c.get("type") == ENTRY_POINT]
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        if kind == ENTRY_POINT and not embedded:
            errors.add((i, "type"), "APPLICATION_COMMAND_TYPE_INVALID",
                       "Entry Point commands are only available to applications with Activities")
        if "handler" in command and (kind != ENTRY_POINT or not embedded):
            errors.add((i, "handler"), "APPLICATION_COMMAND_HANDLER_INVALID",
                       "handler can only be set for PRIMARY_ENTRY_POINT commands of applications with Activities")
        elif "handler" in command and command["handler"] not in HANDLERS:
            errors.add((i, "handler"), "BASE_TYPE_CHOICES", f"Value must be one of {HANDLERS}.")
        if kind == ENTRY_POINT and command.get("options"):
            errors.add((i, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID",
                       "Options can only be set for CHAT_INPUT commands")
    if len(points) > 1:
        errors.add((points[1], "type"), "APPLICATION_COMMANDS_TOO_MANY_ENTRY_POINTS",
                   "An application can only have one PRIMARY_ENTRY_POINT command")
    if errors:
        return 400, errors.body()
    kept = {(c.get("name"), c.get("id")) for c in commands if c.get("type") == ENTRY_POINT}
    for old in before:
        if old.get("type") == ENTRY_POINT and not any(name == old["name"] or cid == old["id"] for name, cid in kept):
            return 400, limits.error(*REMOVED)
    return None


def launch(api, it, guild: int | None) -> dict:
    """``LAUNCH_ACTIVITY`` as the answer to interaction ``it``: the callback response Discord gives,
    or ``discord_api.Refused`` as Discord refuses it."""
    from tests.fakes.discord_api import Refused

    if not api.embedded or it.kind not in (2, 3):
        errors = limits.FormErrors()
        errors.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID",
                   "Interaction response type is invalid for this interaction")
        raise Refused(400, errors.body())
    it.answers.append(LAUNCH_ACTIVITY)
    instance = api.on_launch(it.channel, guild, it.user) if api.on_launch is not None else \
        f"i-{it.token}-gc-{guild}-{it.channel}"
    api.launched.append((it.channel, it.user, instance))
    return {"interaction": {"id": "1", "type": it.kind, "activity_instance_id": instance},
            "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": instance}}}
