"""Discord's forms (modals) as the bot builds and reads them (issue 49): each field a ``Label``
(its words above, an optional line below) wrapping a select menu or a text input, so a form can
offer choices as well as typing (a bid's sensible amounts, the deeds of a trade). Discord allows
five top-level components a form, 45 characters a title or label, 100 a description.

A submitted form is read from the interaction's raw data, not from a live ``Modal`` object: its id
is signed data (``GameService.sign``), so any process of several takes it, whether or not it
showed the form. ``fields`` reads both shapes Discord sends: Labels (``{"type": 18, "component":
{...}}``) and the older action rows of text inputs (a form opened before this version).
"""

from __future__ import annotations

import discord

TITLE_MAX = LABEL_MAX = 45
DESCRIPTION_MAX = PLACEHOLDER_MAX = 100
OPTIONS_MAX = 25


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def form(title: str, custom_id: str, timeout: float = 600) -> discord.ui.Modal:
    return discord.ui.Modal(title=_cut(title, TITLE_MAX), custom_id=custom_id, timeout=timeout)


def words(modal: discord.ui.Modal, text: str) -> None:
    """A line of text at the top of the form (what is asked, the bounds)."""
    modal.add_item(discord.ui.TextDisplay(text[:4000]))


def choice(modal: discord.ui.Modal, label: str, custom_id: str, options: list[tuple[str, str, bool]],
           description: str | None = None, many: bool = False, placeholder: str | None = None) -> bool:
    """A select menu of ``(label, value, chosen)`` options under ``label``; nothing chosen is a
    valid answer (the field may be left as it is). False, and no field, when there is nothing to
    choose from (Discord wants at least one option)."""
    if not options:
        return False
    options = options[:OPTIONS_MAX]
    select = discord.ui.Select(custom_id=custom_id, min_values=0, max_values=len(options) if many else 1,
                               required=False, placeholder=_cut(placeholder, 150) if placeholder else None,
                               options=[discord.SelectOption(label=_cut(text, 100), value=value, default=on)
                                        for text, value, on in options])
    modal.add_item(discord.ui.Label(text=_cut(label, LABEL_MAX), component=select,
                                    description=_cut(description, DESCRIPTION_MAX) if description else None))
    return True


def typing(modal: discord.ui.Modal, label: str, custom_id: str, default: str = "", description: str | None = None,
           placeholder: str | None = None, most: int = 12) -> None:
    """A one-line text input under ``label``, optional."""
    field = discord.ui.TextInput(custom_id=custom_id, required=False, max_length=most, default=default or None,
                                 placeholder=_cut(placeholder, PLACEHOLDER_MAX) if placeholder else None)
    modal.add_item(discord.ui.Label(text=_cut(label, LABEL_MAX), component=field,
                                    description=_cut(description, DESCRIPTION_MAX) if description else None))


def fields(data: dict | None) -> dict[str, str | list[str]]:
    """What a submitted form says, by field id: a text input's text, a select menu's chosen values."""
    out: dict[str, str | list[str]] = {}

    def walk(components) -> None:
        for c in components or []:
            if not isinstance(c, dict):
                continue
            if c.get("type") == 1:
                walk(c.get("components"))
            elif c.get("type") == 18:
                walk([c.get("component")])
            elif isinstance(c.get("custom_id"), str):
                values = c.get("values")  # a select menu's; a text input has a ``value``
                out[c["custom_id"]] = [str(v) for v in values] if isinstance(values, list) \
                    else str(c.get("value") or "")

    walk((data or {}).get("components"))
    return out
