"""Discord's checks of what came with user-installable apps, forms made of Labels and autocomplete
(issue 49), the way Discord checks them: a payload Discord would refuse gets Discord's own error
body (``discord_limits.FormErrors``: code 50035, the errors nested by the bad field's path).

- a command's ``integration_types`` (where it may be installed: 0 a server, 1 a user's account)
  and ``contexts`` (where it may be used: 0 a server, 1 the bot's DM, 2 group DMs and other DMs),
  each a list of those values, and only install types the application itself supports;
  ``autocomplete`` only on string, integer and number options, never beside fixed ``choices``;
- an autocomplete answer (interaction response type 8): at most 25 choices, each named 1-100
  characters, a string value at most 100;
- a form (response type 9): a title of 1-45 characters, a custom id of 1-100, 1-5 top-level
  components, each a Label (label 1-45, description at most 100, wrapping a text input or a
  select menu), a Text Display, or the older action row holding one text input with its label; a
  select menu in a form has 1-25 options, is never ``disabled``, and a required one asks for at
  least one value.

Written from Discord's developer documentation (application commands, receiving and responding,
the component reference), independently of the bot's code.
"""

from __future__ import annotations

from typing import Any

from tests.fakes import discord_limits as limits
from tests.fakes.discord_limits import FormErrors

INSTALL_TYPES = (0, 1)  # GUILD_INSTALL, USER_INSTALL
CONTEXT_TYPES = (0, 1, 2)  # GUILD, BOT_DM, PRIVATE_CHANNEL
AUTOCOMPLETE_TYPES = (3, 4, 10)  # STRING, INTEGER, NUMBER
LABEL, TEXT_DISPLAY = 18, 10
LABEL_MAX, LABEL_DESCRIPTION_MAX, TEXT_DISPLAY_MAX = 45, 100, 4000
LABEL_CHILDREN = {3, 4, 5, 6, 7, 8, 19, 21, 22, 23}  # text input, the selects, file upload, radio, checkboxes
AUTOCOMPLETE_CHOICES_MAX = 25


def _choices(errors: FormErrors, path: tuple, values: Any, allowed: tuple[int, ...]) -> None:
    if values is None:
        return
    if not isinstance(values, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    for i, v in enumerate(values):
        if v not in allowed:
            errors.add((*path, i), "BASE_TYPE_CHOICES",
                       f"Value must be one of {{{', '.join(str(a) for a in allowed)}}}.")


def _autocomplete(errors: FormErrors, path: tuple, options: Any) -> None:
    for i, option in enumerate(options or []):
        here = (*path, "options", i)
        if option.get("type") in (1, 2):
            _autocomplete(errors, here, option.get("options"))
            continue
        if not option.get("autocomplete"):
            continue
        if option.get("type") not in AUTOCOMPLETE_TYPES:
            errors.add((*here, "autocomplete"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                       "Autocomplete is only allowed for string, integer and number options")
        if option.get("choices"):
            errors.add((*here, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_INCOMPATIBLE_WITH_CHOICES",
                       "Autocomplete cannot be set on an option with choices")


def check_places(commands: Any, errors: FormErrors | None = None,
                 supported: tuple[int, ...] = INSTALL_TYPES) -> FormErrors:
    """Where each command may be installed and used, and its autocompleted options (a bulk
    overwrite of the global commands); ``supported``: the install types the application allows
    (set in its settings on Discord's developer portal)."""
    errors = errors if errors is not None else FormErrors()
    for i, command in enumerate(commands if isinstance(commands, list) else []):
        _choices(errors, (i, "integration_types"), command.get("integration_types"), INSTALL_TYPES)
        _choices(errors, (i, "contexts"), command.get("contexts"), CONTEXT_TYPES)
        for j, kind in enumerate(command.get("integration_types") or []):
            if kind in INSTALL_TYPES and kind not in supported:
                errors.add((i, "integration_types", j), "APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED",
                           "The application does not support this installation context")
        _autocomplete(errors, (i,), command.get("options"))
    return errors


def stored(command: dict) -> dict:
    """What Discord keeps of a command it took: where it may be installed (a server only when not
    said) and used (everywhere when not said)."""
    return {"integration_types": command.get("integration_types") or [0],
            "contexts": command.get("contexts") if command.get("contexts") is not None else list(CONTEXT_TYPES)}


def check_autocomplete(data: dict) -> FormErrors:
    """An autocomplete answer (interaction response type 8)."""
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return errors
    if len(choices) > AUTOCOMPLETE_CHOICES_MAX:
        errors.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH",
                   f"Must be {AUTOCOMPLETE_CHOICES_MAX} or fewer in length.")
    for j, choice in enumerate(choices):
        errors.length(("data", "choices", j, "name"), choice.get("name"), 1, limits.CHOICE_NAME_MAX)
        value = choice.get("value")
        if isinstance(value, str):
            errors.length(("data", "choices", j, "value"), value, 1, limits.CHOICE_VALUE_MAX)
        elif not isinstance(value, int | float) or isinstance(value, bool):
            errors.add(("data", "choices", j, "value"), "BASE_TYPE_REQUIRED", "This field is required")
    return errors


def _text_input(errors: FormErrors, path: tuple, field: dict, labelled: bool) -> None:
    errors.length((*path, "custom_id"), field.get("custom_id"), 1, limits.CUSTOM_ID_MAX)
    if not labelled or field.get("label") is not None:  # in a Label the Label's words stand above it
        errors.length((*path, "label"), field.get("label"), 1, limits.TEXT_INPUT_LABEL_MAX)
    if field.get("style", 1) not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    most = field.get("max_length", limits.TEXT_INPUT_MAX)
    if not 1 <= most <= limits.TEXT_INPUT_MAX:
        errors.add((*path, "max_length"), "NUMBER_TYPE_MAX", f"int value should be <= {limits.TEXT_INPUT_MAX}.")
    least = field.get("min_length")
    if least is not None and not 0 <= least <= min(most, limits.TEXT_INPUT_MAX):
        errors.add((*path, "min_length"), "NUMBER_TYPE_MAX", f"int value should be <= {limits.TEXT_INPUT_MAX}.")
    if field.get("value") is not None:
        errors.length((*path, "value"), field["value"], 0, min(most, limits.TEXT_INPUT_MAX))
    if field.get("placeholder") is not None:
        errors.length((*path, "placeholder"), field["placeholder"], 0, limits.TEXT_INPUT_PLACEHOLDER_MAX)


def _select(errors: FormErrors, path: tuple, select: dict) -> None:
    if select.get("type") == limits.SELECT:
        limits._check_select(errors, path, select)  # the options' limits, as in a message
    else:
        errors.length((*path, "custom_id"), select.get("custom_id"), 1, limits.CUSTOM_ID_MAX)
    if select.get("disabled"):
        errors.add((*path, "disabled"), "COMPONENT_DISABLED_IN_MODAL", "Modals can not have disabled components")
    if select.get("required", True) and select.get("min_values", 1) < 1:
        errors.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_REQUIRED",
                   "min_values must be at least 1 when the select is required")


def check_modal(data: dict) -> FormErrors:
    """An interaction answered with a form (response type 9)."""
    errors = FormErrors()
    errors.length(("data", "custom_id"), data.get("custom_id"), 1, limits.CUSTOM_ID_MAX)
    errors.length(("data", "title"), data.get("title"), 1, limits.MODAL_TITLE_MAX)
    top = data.get("components") or []
    if not 1 <= len(top) <= limits.ROWS_MAX:
        errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH",
                   f"Must be between 1 and {limits.ROWS_MAX} in length.")
    ids = []
    for i, item in enumerate(top):
        path = ("data", "components", i)
        kind = item.get("type")
        if kind == limits.ACTION_ROW:  # the older form: one text input, its label on it
            inner = item.get("components") or []
            if len(inner) != 1 or inner[0].get("type") != limits.TEXT_INPUT:
                errors.add(path, "COMPONENT_TYPE_INVALID", "A form row holds one text input")
                continue
            _text_input(errors, (*path, "components", 0), inner[0], labelled=False)
            ids.append(inner[0].get("custom_id"))
        elif kind == LABEL:
            errors.length((*path, "label"), item.get("label"), 1, LABEL_MAX)
            if item.get("description") is not None:
                errors.length((*path, "description"), item["description"], 0, LABEL_DESCRIPTION_MAX)
            child = item.get("component")
            if not isinstance(child, dict) or child.get("type") not in LABEL_CHILDREN:
                errors.add((*path, "component"), "COMPONENT_TYPE_INVALID",
                           "A label holds a text input, a select menu, a file upload, radios or checkboxes")
                continue
            if child["type"] == limits.TEXT_INPUT:
                _text_input(errors, (*path, "component"), child, labelled=True)
            elif child["type"] in (3, 5, 6, 7, 8):
                _select(errors, (*path, "component"), child)
            ids.append(child.get("custom_id"))
        elif kind == TEXT_DISPLAY:
            errors.length((*path, "content"), item.get("content"), 1, TEXT_DISPLAY_MAX)
        else:
            errors.add((*path, "type"), "COMPONENT_TYPE_INVALID",
                       "A form holds labels, text displays and rows of one text input")
    if len(set(ids)) != len(ids):
        errors.add(("data", "components"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    return errors
