"""A slow game in a chat (issue 48; the pace itself: engine/service/pace.py), the parts the table
channel and the lobby use: the lobby's pace button and line, and ``quiet``, which makes an
update's plan of messages (``bot/chat/updates.py``) that of a slow game.

**What a slow game's group sees.** The table message is posted when the game starts (the player to
act mentioned, once) and at its end (with the result, everyone mentioned), and edited in place in
between, which notifies nobody: no new table message and no ping when the turn passes, no prompt
under the table for a player asked out of turn. Each player newly asked something gets their own
private message posted anew instead (a private notification; the group hears nothing). A player
the bot cannot write to privately is still asked under the table (their only way to hear of it).
Once a day the group gets one summary, and at half a clock's time its player a reminder
(``bot/chat/slow.py``).
"""

from __future__ import annotations

from dataclasses import replace

from bot.chat.updates import UpdateScreens
from engine.service.pace import PACE_HOURS
from words.i18n import t


def hours_of(view) -> int:
    """A table's pace in whole hours (0: the chat's clocks), from its public view."""
    return int(getattr(view, "pace", 0) or 0) // 3600


def pace_length(hours: int, lang: str) -> str:
    return t(lang, "slow.pace_hours", n=hours) if hours else t(lang, "slow.pace_normal")


def pace_button(view, lang: str) -> tuple[str, str] | None:
    """The lobby's pace button: the pace now; pressed, the next one (normal, 1 h, 8 h, 24 h a move):
    (label, unsigned button data). None at a tournament's table (its organisers' clocks)."""
    if "#t" in view.chat_key:
        return None
    now = hours_of(view)
    after = PACE_HOURS[(PACE_HOURS.index(now) + 1) % len(PACE_HOURS)] if now in PACE_HOURS else PACE_HOURS[0]
    return t(lang, "ch.btn.pace", pace=pace_length(now, lang)), f"l:{view.id}:p:{after}"


def pace_line(view, lang: str) -> str:
    """The lobby's line for a slow game (empty for a table at the chat's clocks)."""
    hours = hours_of(view)
    return t(lang, "slow.lobby_line", n=hours) if hours else ""


def lobby_note(params: dict, lang: str) -> str | None:
    """What the creator is told when a choice turned the other off: a pace turns a timed match off,
    a timed match the pace."""
    if params.get("match_off"):
        return t(lang, "slow.match_off")
    if params.get("pace_off"):
        return t(lang, "slow.pace_off")
    return None


def quiet(screens: UpdateScreens) -> UpdateScreens:
    """The plan of a slow game's update: no new table message nor ping for a move or a turn (only
    the start and the end post anew), and the players newly asked told privately instead of under
    the table (see the module's docstring)."""
    view = screens.update.public
    if view is None or not view.pace or screens.ended:
        return screens
    started = screens.update.kind == "started"
    asked = {a.seat for a in screens.update.asked if not a.ai}
    reachable = {s for s in asked if view.seats[s].dm is not False}
    prompts = []
    for prompt in screens.prompts:  # only for those the bot cannot write to privately
        seats = [s for s in prompt.seats if view.seats[s].dm is False]
        if seats:
            prompts.append(replace(prompt, seats=seats))
    return replace(screens, new_message=screens.new_message and started, ping=screens.ping if started else [],
                   prompts=prompts, anew=screens.anew | (reachable - set(screens.ping)))
