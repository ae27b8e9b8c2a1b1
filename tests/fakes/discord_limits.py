"""Discord's documented limits, checked the way Discord checks them: a payload Discord would refuse
gets Discord's own error body (``{"code": 50035, "errors": {...}, "message": "Invalid Form Body"}``,
errors nested by the path of the bad field), so discord.py raises exactly what it raises in
production (``HTTPException``, ``CommandSyncFailure``).

Written from Discord's developer documentation (application commands, message components, message
and embed limits, interaction responses), independently of the bot's code: the bot must not be able
to pass these checks by sharing a mistake with them.

Components v2 (``check_message`` with the flag ``IS_COMPONENTS_V2`` = ``1 << 15``), from
docs.discord.com/developers: components/reference ("To use these components, you need to send the
message flag 1 << 15 … Once a message has been sent with this flag, it can't be removed from that
message … The content and embeds fields will no longer work … Attachments won't show by default -
they must be exposed through components … Messages allow up to 40 total components"; its tables:
an action row holds up to 5 buttons or one select, a section 1 to 3 text displays and a thumbnail
or button accessory, a media gallery 1 to 10 items, alt text at most 1024 characters, a container's
children are action rows, text displays, sections, media galleries, separators and files, a
component ``id`` "must be unique within the message", a ``custom_id`` is 1 to 100 characters and
unique per message, an unfurled media item "supports arbitrary urls and attachment://<filename>
references", a file component only the latter); resources/message ("When the flag IS_COMPONENTS_V2
is set, the message can only contain components. Providing content, embeds, sticker_ids, poll … will
fail with a 400 BAD REQUEST"; on Edit Message: "the IS_COMPONENTS_V2 flag can only be set … any of
the used content, embeds, sticker_ids, or poll fields must have their values reset to empty. For
content … null"); the change log of 2025-04-29 ("the limit on number of components in a message to
40 … no longer a limit on top level components … nor on the number of components in a Container").
The 4000 characters across all text displays of a message are not in Discord's reference; they are
the discord.js guide's ("The amount of text across all text display components cannot exceed 4000
characters", discordjs.guide/popular-topics/display-components) and discord.py's
(``LayoutView.content_length``: "a maximum of 4000 display characters across all its items").
Content with the flag is refused with the code Discord answers
(``MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2``); the other field codes are named after
what they refuse. An ``attachment://name`` is taken to name a file uploaded with the request or
one the message keeps (an edit without ``attachments`` keeps them all): what a table message's
edit relies on to show its picture without uploading it again.
"""

from __future__ import annotations

import unicodedata
from typing import Any

# the locales Discord accepts as keys of ``name_localizations`` / ``description_localizations``
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
    "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW",
    "ko"})

COMMANDS_MAX = 100  # global CHAT_INPUT commands of an application
NAME_MAX, DESCRIPTION_MAX, OPTIONS_MAX, CHOICES_MAX = 32, 100, 25, 25
CHOICE_NAME_MAX, CHOICE_VALUE_MAX = 100, 100
COMMAND_TOTAL_MAX = 8000  # name, description and value characters of a command, its options and choices
STRING_OPTION_LENGTH_MAX = 6000

CONTENT_MAX = 2000
EMBEDS_MAX, EMBED_TOTAL_MAX = 10, 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
EMBED_FIELDS_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX, FOOTER_MAX, AUTHOR_MAX = 25, 256, 1024, 2048, 256
ROWS_MAX, BUTTONS_PER_ROW = 5, 5
CUSTOM_ID_MAX, BUTTON_LABEL_MAX = 100, 80
SELECT_OPTIONS_MAX, SELECT_PLACEHOLDER_MAX, SELECT_OPTION_TEXT_MAX = 25, 150, 100
MODAL_TITLE_MAX, TEXT_INPUT_LABEL_MAX, TEXT_INPUT_MAX, TEXT_INPUT_PLACEHOLDER_MAX = 45, 45, 4000, 100
ATTACHMENTS_MAX, FILE_BYTES_MAX = 10, 10 * 2**20
ALLOWED_MENTION_IDS_MAX = 100
THREAD_NAME_MAX, EVENT_NAME_MAX, EVENT_DESCRIPTION_MAX = 100, 100, 1000

BUTTON, SELECT, TEXT_INPUT, ACTION_ROW = 2, 3, 4, 1
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 9, 10, 11, 12, 13, 14, 17
IS_COMPONENTS_V2 = 1 << 15
V2_COMPONENTS_MAX, V2_TEXT_MAX, GALLERY_ITEMS_MAX, MEDIA_DESCRIPTION_MAX, SECTION_TEXTS_MAX = 40, 4000, 10, 1024, 3
V2_TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = frozenset({ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE})
ATTACHMENT = "attachment://"
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3


def _length(low: int, high: int) -> tuple[str, str]:
    return "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."


class FormErrors:
    """The errors of one request, kept by path: Discord's nested ``errors`` object."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.flat: list[tuple[str, str]] = []  # ("0.options.3.description", message), for assertions

    def add(self, path: tuple, code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append((".".join(str(p) for p in path), message))

    def length(self, path: tuple, value: Any, low: int, high: int) -> None:
        if not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, *_length(low, high))

    def __bool__(self) -> bool:
        return bool(self.flat)

    def body(self) -> dict:
        """What Discord answers with status 400."""
        return {"code": 50035, "errors": self.tree, "message": "Invalid Form Body"}


def error(code: int, message: str) -> dict:
    """Discord's JSON error for a request refused as a whole (``Unknown Message``, ``40060``…)."""
    return {"code": code, "message": message}


# -- application commands ----------------------------------------------------------------------------


def _name_ok(name: Any) -> bool:
    """Discord's ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` for CHAT_INPUT names, lowercase
    wherever a letter has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return False
    for ch in name:
        category = unicodedata.category(ch)
        indic = "DEVANAGARI" in unicodedata.name(ch, "") or "THAI" in unicodedata.name(ch, "")
        if not (ch in "-_'" or category[0] in "LN" or (indic and category[0] == "M")):
            return False
        if ch.lower() != ch:
            return False
    return True


def _localizations(errors: FormErrors, path: tuple, field: str, mapping: Any, check) -> None:
    if mapping is None:
        return
    if not isinstance(mapping, dict):
        errors.add((*path, field), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for locale, value in mapping.items():
        if locale not in LOCALES:
            errors.add((*path, field, locale), "LOCALE_INVALID", f"Invalid locale: {locale}")
        else:
            check((*path, field, locale), value)


def _check_name(errors: FormErrors, path: tuple, value: Any) -> None:
    if not isinstance(value, str) or not 1 <= len(value) <= NAME_MAX:
        errors.add(path, *_length(1, NAME_MAX))
    elif not _name_ok(value):
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_description(errors: FormErrors, path: tuple, value: Any) -> None:
    errors.length(path, value, 1, DESCRIPTION_MAX)


def _named(errors: FormErrors, path: tuple, item: dict) -> None:
    """A command's or an option's name and description, and their translations."""
    _check_name(errors, (*path, "name"), item.get("name"))
    _localizations(errors, path, "name_localizations", item.get("name_localizations"),
                   lambda p, v: _check_name(errors, p, v))
    _check_description(errors, (*path, "description"), item.get("description"))
    _localizations(errors, path, "description_localizations", item.get("description_localizations"),
                   lambda p, v: _check_description(errors, p, v))


def _check_options(errors: FormErrors, path: tuple, options: Any, depth: int) -> None:
    if options is None:
        return
    if not isinstance(options, list) or len(options) > OPTIONS_MAX:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", f"Must be {OPTIONS_MAX} or fewer in length.")
        return
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        errors.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                   "Option names must be unique")
    seen_optional = False
    for i, option in enumerate(options):
        here = (*path, "options", i)
        _named(errors, here, option)
        kind = option.get("type")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if depth > (0 if kind == SUB_COMMAND_GROUP else 1):  # a group at the top, a sub-command in one
                errors.add((*here, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Invalid nesting")
            _check_options(errors, here, option.get("options"), depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                errors.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                           "Required options must be placed before non-required options")
        else:
            seen_optional = True
        choices = option.get("choices")
        if choices is not None:
            if len(choices) > CHOICES_MAX:
                errors.add((*here, "choices"), "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
            for j, choice in enumerate(choices[:CHOICES_MAX]):
                where = (*here, "choices", j)
                errors.length((*where, "name"), choice.get("name"), 1, CHOICE_NAME_MAX)
                _localizations(errors, where, "name_localizations", choice.get("name_localizations"),
                               lambda p, v: errors.length(p, v, 1, CHOICE_NAME_MAX))
                value = choice.get("value")
                if kind == STRING:
                    errors.length((*where, "value"), value, 1, CHOICE_VALUE_MAX)
        for bound in ("min_length", "max_length"):
            if bound in option and option[bound] is not None and not 0 <= option[bound] <= STRING_OPTION_LENGTH_MAX:
                errors.add((*here, bound), "NUMBER_TYPE_MAX", f"int value should be <= {STRING_OPTION_LENGTH_MAX}.")


def _total(command: dict, locale: str | None) -> int:
    """The characters a command counts against Discord's total, in one locale (its translations
    where it has them, else the default)."""
    def text(item: dict, field: str) -> str:
        local = (item.get(f"{field}_localizations") or {}).get(locale) if locale else None
        return str(local or item.get(field) or "")

    def walk(item: dict) -> int:
        n = len(text(item, "name")) + len(text(item, "description"))
        for choice in item.get("choices") or ():
            n += len(text(choice, "name")) + len(str(choice.get("value", "")))
        return n + sum(walk(o) for o in item.get("options") or ())

    return walk(command)


def check_commands(commands: Any) -> FormErrors:
    """A bulk overwrite of the global commands (``PUT /applications/{id}/commands``)."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return errors
    if sum(1 for c in commands if c.get("type", 1) == 1) > COMMANDS_MAX:
        errors.add((), "APPLICATION_COMMANDS_TOO_MANY",
                   f"Maximum number of application commands reached ({COMMANDS_MAX})")
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    for i, command in enumerate(commands):
        if names.count(names[i]) > 1:
            errors.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        _named(errors, (i,), command)
        _check_options(errors, (i,), command.get("options"), 0)
        locales = {None} | set(command.get("name_localizations") or {}) | set(
            command.get("description_localizations") or {})
        if any(_total(command, locale) > COMMAND_TOTAL_MAX for locale in locales):
            errors.add((i,), "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    return errors


# -- messages, embeds and components ---------------------------------------------------------------


def _check_embeds(errors: FormErrors, embeds: Any) -> None:
    if not embeds:
        return
    if len(embeds) > EMBEDS_MAX:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        for field, most in EMBED_LIMITS.items():
            if embed.get(field) is not None:
                errors.length(("embeds", i, field), embed[field], 0, most)
                total += len(str(embed[field]))
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.add(("embeds", i, "fields"), "BASE_TYPE_MAX_LENGTH",
                       f"Must be {EMBED_FIELDS_MAX} or fewer in length.")
        for j, f in enumerate(fields):
            errors.length(("embeds", i, "fields", j, "name"), f.get("name"), 1, FIELD_NAME_MAX)
            errors.length(("embeds", i, "fields", j, "value"), f.get("value"), 1, FIELD_VALUE_MAX)
            total += len(str(f.get("name", ""))) + len(str(f.get("value", "")))
        for part, key, most in (("footer", "text", FOOTER_MAX), ("author", "name", AUTHOR_MAX)):
            if embed.get(part):
                errors.length(("embeds", i, part, key), embed[part].get(key), 1, most)
                total += len(str(embed[part].get(key, "")))
    if total > EMBED_TOTAL_MAX:
        errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _check_button(errors: FormErrors, path: tuple, button: dict) -> str | None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
    if button.get("label") is not None:
        errors.length((*path, "label"), button["label"], 0, BUTTON_LABEL_MAX)
    if not button.get("label") and not button.get("emoji") and style != 6:
        errors.add((*path, "label"), "BUTTON_COMPONENT_LABEL_REQUIRED", "A button needs a label or an emoji")
    if style == 5:
        if not button.get("url") or "custom_id" in button:
            errors.add((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A link button needs a url and no custom_id")
        return None
    custom_id = button.get("custom_id")
    errors.length((*path, "custom_id"), custom_id, 1, CUSTOM_ID_MAX)
    return custom_id


def _check_select(errors: FormErrors, path: tuple, select: dict) -> str | None:
    custom_id = select.get("custom_id")
    errors.length((*path, "custom_id"), custom_id, 1, CUSTOM_ID_MAX)
    if select.get("placeholder") is not None:
        errors.length((*path, "placeholder"), select["placeholder"], 0, SELECT_PLACEHOLDER_MAX)
    options = select.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        errors.add((*path, "options"), *_length(1, SELECT_OPTIONS_MAX))
        options = []
    least, most = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= least <= 25:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
    if not 1 <= most <= 25:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 1.")
    if options and (least > most or most > len(options)):
        errors.add((*path,), "SELECT_COMPONENT_MAX_VALUES_INVALID",
                   "max_values must be at least min_values and at most the number of options")
    values = []
    for j, option in enumerate(options):
        errors.length((*path, "options", j, "label"), option.get("label"), 1, SELECT_OPTION_TEXT_MAX)
        errors.length((*path, "options", j, "value"), option.get("value"), 1, SELECT_OPTION_TEXT_MAX)
        if option.get("description") is not None:
            errors.length((*path, "options", j, "description"), option["description"], 0, SELECT_OPTION_TEXT_MAX)
        values.append(option.get("value"))
    if len(set(values)) != len(values):
        errors.add((*path, "options"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique")
    if sum(1 for o in options if o.get("default")) > most:
        errors.add((*path, "options"), "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                   "More default values than max_values")
    return custom_id


def _check_components(errors: FormErrors, rows: Any) -> None:
    if not rows:
        return
    if len(rows) > ROWS_MAX:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {ROWS_MAX} or fewer in length.")
    ids: list[str] = []
    for i, row in enumerate(rows):
        path = ("components", i)
        inner = row.get("components") or []
        if row.get("type") != ACTION_ROW or not inner:
            errors.add(path, "COMPONENT_TYPE_INVALID", "An action row with at least one component is expected")
            continue
        kinds = {c.get("type") for c in inner}
        if kinds == {BUTTON}:
            if len(inner) > BUTTONS_PER_ROW:
                errors.add((*path, "components"), "BASE_TYPE_MAX_LENGTH",
                           f"Must be {BUTTONS_PER_ROW} or fewer in length.")
            ids += [c for j, b in enumerate(inner) if (c := _check_button(errors, (*path, "components", j), b))]
        elif kinds <= {SELECT, 5, 6, 7, 8} and len(inner) == 1:
            if inner[0].get("type") == SELECT and (c := _check_select(errors, (*path, "components", 0), inner[0])):
                ids.append(c)
        else:
            errors.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                       "An action row holds up to 5 buttons or one select menu")
    if len(set(ids)) != len(ids):
        errors.add(("components",), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")


class _V2:
    """What one walk over a Components v2 message found: its count, its text, its ids."""

    def __init__(self, errors: FormErrors, files: frozenset[str]) -> None:
        self.errors, self.files = errors, files
        self.count = self.text = 0
        self.ids: list[int] = []
        self.custom_ids: list[str] = []

    def media(self, path: tuple, media, attachment_only: bool = False) -> None:
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            self.errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        elif url.startswith(ATTACHMENT):
            if url[len(ATTACHMENT):] not in self.files:
                self.errors.add((*path, "url"), "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                f"No attachment named {url[len(ATTACHMENT):]!r} in this message")
        elif attachment_only or not url.startswith(("https://", "http://")):
            self.errors.add((*path, "url"), "UNFURLED_MEDIA_ITEM_URL_INVALID", "Invalid media url")

    def row(self, path: tuple, row: dict) -> None:
        inner = row.get("components") or []
        kinds = {c.get("type") for c in inner}
        if not inner:
            self.errors.add((*path, "components"), *_length(1, BUTTONS_PER_ROW))
        elif kinds == {BUTTON}:
            if len(inner) > BUTTONS_PER_ROW:
                self.errors.add((*path, "components"), "BASE_TYPE_MAX_LENGTH",
                                f"Must be {BUTTONS_PER_ROW} or fewer in length.")
            for j, b in enumerate(inner):
                self.count += 1
                self.id(b)
                if custom_id := _check_button(self.errors, (*path, "components", j), b):
                    self.custom_ids.append(custom_id)
        elif kinds <= {SELECT, 5, 6, 7, 8} and len(inner) == 1:
            self.count += 1
            self.id(inner[0])
            if inner[0].get("type") == SELECT and (c := _check_select(self.errors, (*path, "components", 0), inner[0])):
                self.custom_ids.append(c)
        else:
            self.errors.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                            "An action row holds up to 5 buttons or one select menu")

    def id(self, component: dict) -> None:
        if component.get("id"):  # 0 is "empty", replaced by Discord
            self.ids.append(component["id"])

    def walk(self, path: tuple, component, allowed: frozenset[int]) -> None:  # noqa: C901 (one branch a type)
        if not isinstance(component, dict):
            self.errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            return
        kind = component.get("type")
        self.count += 1
        self.id(component)
        if kind not in allowed:
            self.errors.add((*path, "type"), "UNION_TYPE_CHOICES", f"Value must be one of {set(sorted(allowed))}.")
            return
        if kind == ACTION_ROW:
            self.row(path, component)
        elif kind == TEXT_DISPLAY:
            content = component.get("content")
            self.errors.length((*path, "content"), content, 1, V2_TEXT_MAX)
            self.text += len(content) if isinstance(content, str) else 0
        elif kind == MEDIA_GALLERY:
            items = component.get("items")
            if not isinstance(items, list) or not 1 <= len(items) <= GALLERY_ITEMS_MAX:
                self.errors.add((*path, "items"), *_length(1, GALLERY_ITEMS_MAX))
                items = []
            for j, item in enumerate(items):
                self.media((*path, "items", j, "media"), (item or {}).get("media"))
                if (item or {}).get("description") is not None:
                    self.errors.length((*path, "items", j, "description"), item["description"], 0,
                                       MEDIA_DESCRIPTION_MAX)
        elif kind == FILE:
            self.media((*path, "file"), component.get("file"), attachment_only=True)
        elif kind == SECTION:
            texts = component.get("components")
            if not isinstance(texts, list) or not 1 <= len(texts) <= SECTION_TEXTS_MAX:
                self.errors.add((*path, "components"), *_length(1, SECTION_TEXTS_MAX))
                texts = []
            for j, text in enumerate(texts):
                self.walk((*path, "components", j), text, frozenset({TEXT_DISPLAY}))
            accessory = component.get("accessory")
            if not isinstance(accessory, dict) or accessory.get("type") not in (BUTTON, THUMBNAIL):
                self.errors.add((*path, "accessory"), "UNION_TYPE_CHOICES", "Value must be one of {2, 11}.")
            elif accessory["type"] == BUTTON:
                self.count += 1
                self.id(accessory)
                if custom_id := _check_button(self.errors, (*path, "accessory"), accessory):
                    self.custom_ids.append(custom_id)
            else:
                self.count += 1
                self.id(accessory)
                self.media((*path, "accessory", "media"), accessory.get("media"))
                if accessory.get("description") is not None:
                    self.errors.length((*path, "accessory", "description"), accessory["description"], 0,
                                       MEDIA_DESCRIPTION_MAX)
        elif kind == SEPARATOR:
            if component.get("spacing", 1) not in (1, 2):
                self.errors.add((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        elif kind == CONTAINER:
            children = component.get("components")
            if not isinstance(children, list) or not children:
                self.errors.add((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
                children = []
            colour = component.get("accent_color")
            if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
                self.errors.add((*path, "accent_color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215.")
            for j, child in enumerate(children):
                self.walk((*path, "components", j), child, IN_CONTAINER)


def _check_v2(errors: FormErrors, payload: dict, files: frozenset[str]) -> None:
    """A message with the flag ``IS_COMPONENTS_V2`` (see the module's docstring)."""
    for field in ("content", "embeds", "sticker_ids", "poll"):  # present only as emptied: null, or []
        value = payload.get(field)
        if value is not None and not (value == [] and field in ("embeds", "sticker_ids")):
            errors.add((field,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                       f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    components = payload.get("components")
    if components is None:
        return
    if not isinstance(components, list):
        errors.add(("components",), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    seen = _V2(errors, files)
    for i, component in enumerate(components):
        seen.walk(("components", i), component, V2_TOP_LEVEL)
    if seen.count > V2_COMPONENTS_MAX:
        errors.add(("components",), "MESSAGE_COMPONENTS_TOO_MANY",
                   f"A message holds at most {V2_COMPONENTS_MAX} components, nested ones counted ({seen.count})")
    if seen.text > V2_TEXT_MAX:
        errors.add(("components",), "MESSAGE_TEXT_DISPLAY_TOO_LONG",
                   f"The text displays of a message hold at most {V2_TEXT_MAX} characters together ({seen.text})")
    if len(set(seen.ids)) != len(seen.ids):
        errors.add(("components",), "COMPONENT_ID_DUPLICATED", "Component id must be unique within the message")
    if len(set(seen.custom_ids)) != len(seen.custom_ids):
        errors.add(("components",), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")


def check_message(payload: dict, files: int = 0, sizes: tuple[int, ...] = (), edit: bool = False,
                  flags_before: int = 0, names: tuple[str, ...] = ()) -> FormErrors:
    """A message posted, edited or sent as an interaction's answer. ``flags_before``: an edited
    message's flags (``IS_COMPONENTS_V2`` stays once set); ``names``: the files the message will
    carry (uploaded now, or kept), which ``attachment://`` may name."""
    errors = FormErrors()
    content = payload.get("content")
    if (int(payload.get("flags") or 0) | flags_before) & IS_COMPONENTS_V2:
        _check_v2(errors, payload, frozenset(names))
    else:
        if content is not None:
            errors.length(("content",), content, 0, CONTENT_MAX)
        _check_embeds(errors, payload.get("embeds"))
        _check_components(errors, payload.get("components"))
    if files > ATTACHMENTS_MAX:
        errors.add(("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {ATTACHMENTS_MAX} or fewer in length.")
    if any(size > FILE_BYTES_MAX for size in sizes):
        errors.add(("files",), "FILE_UPLOAD_TOO_LARGE", "Request entity too large")
    mentions = payload.get("allowed_mentions")
    if mentions:
        parse = mentions.get("parse") or []
        for kind in ("users", "roles"):
            listed = mentions.get(kind) or []
            if kind in parse and listed:
                errors.add(("allowed_mentions", kind), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                           f"parse:[\"{kind}\"] and {kind}: [ids...] are mutually exclusive.")
            if len(listed) > ALLOWED_MENTION_IDS_MAX:
                errors.add(("allowed_mentions", kind), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    return errors


def is_empty(payload: dict, files: int) -> bool:
    """A new message with nothing to show: Discord answers 50006 "Cannot send an empty message"."""
    return not (payload.get("content") or payload.get("embeds") or files or payload.get("components")
                or payload.get("sticker_ids") or payload.get("poll") or payload.get("attachments"))


def check_modal(data: dict) -> FormErrors:
    """An interaction answered with a form (response type 9)."""
    errors = FormErrors()
    errors.length(("data", "custom_id"), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    errors.length(("data", "title"), data.get("title"), 1, MODAL_TITLE_MAX)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= ROWS_MAX:
        errors.add(("data", "components"), *_length(1, ROWS_MAX))
    ids = []
    for i, row in enumerate(rows):
        inner = row.get("components") or []
        path = ("data", "components", i, "components", 0)
        if row.get("type") != ACTION_ROW or len(inner) != 1 or inner[0].get("type") != TEXT_INPUT:
            errors.add(("data", "components", i), "COMPONENT_TYPE_INVALID", "A form row holds one text input")
            continue
        field = inner[0]
        errors.length((*path, "custom_id"), field.get("custom_id"), 1, CUSTOM_ID_MAX)
        ids.append(field.get("custom_id"))
        errors.length((*path, "label"), field.get("label"), 1, TEXT_INPUT_LABEL_MAX)
        most = field.get("max_length", TEXT_INPUT_MAX)
        if not 1 <= most <= TEXT_INPUT_MAX:
            errors.add((*path, "max_length"), "NUMBER_TYPE_MAX", f"int value should be <= {TEXT_INPUT_MAX}.")
        if field.get("value") is not None:
            errors.length((*path, "value"), field["value"], 0, min(most, TEXT_INPUT_MAX))
        if field.get("placeholder") is not None:
            errors.length((*path, "placeholder"), field["placeholder"], 0, TEXT_INPUT_PLACEHOLDER_MAX)
    if len(set(ids)) != len(ids):
        errors.add(("data", "components"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    return errors
