"""What the bots register and send fits the platforms' documented limits, in every language, and
the tests' fakes refuse what the platforms refuse (so a payload over a limit can never pass the
suite again): Discord's slash commands (names 1–32 lowercase, descriptions 1–100, ≤ 25 options and
choices, total size, in English and both Chinese translations), Telegram's command menus (1–32,
descriptions 1–256), and the message, embed, button, select-menu and form limits of both fakes."""

from __future__ import annotations

import json

import discord
import pytest
from discord import app_commands

from bot.discord_app.app import TycoonBot
from bot.telegram_app.app import COMMANDS, MENU_LANGUAGES, command_menu
from engine.service.tables import GameService
from tests.bot.discord_app.harness import fake_discord
from tests.fakes import discord_limits, telegram_limits
from words.i18n import LANGS

ZH_LOCALES = {"zh-CN", "zh-TW"}
LANGUAGE_NAMES = {"简体中文", "繁體中文", "English"}


async def _command_payload(tmp_path) -> list[dict]:
    """The commands exactly as ``tree.sync`` sends them (translated into every locale we register)."""
    service = await GameService.open(f"sqlite:///{tmp_path / 'cmd.db'}")
    try:
        async with TycoonBot(service, lang="en") as bot:
            await bot.setup_hook()
            tree = bot.tree
            return [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]
    finally:
        await service.close()


def _named(payload: list[dict]):
    """Every command, option and choice with its names and descriptions."""
    for command in payload:
        yield command
        stack = list(command.get("options") or [])
        while stack:
            option = stack.pop()
            yield option
            stack += option.get("options") or []
            yield from option.get("choices") or []


async def test_discord_commands_fit_discords_limits_in_english_and_both_chinese(tmp_path):
    payload = await _command_payload(tmp_path)
    errors = discord_limits.check_commands(payload)
    assert not errors, errors.flat
    assert len(payload) >= 14
    for item in _named(payload):
        if item["name"] in LANGUAGE_NAMES:  # each language is named in itself
            continue
        # every name and description the bot registers has both Chinese translations
        assert set(item.get("name_localizations") or {}) == ZH_LOCALES, item["name"]
        if "description" in item:
            assert set(item.get("description_localizations") or {}) == ZH_LOCALES, item["name"]
    size = max(discord_limits._total(c, locale) for c in payload for locale in (None, *ZH_LOCALES))
    assert size <= discord_limits.COMMAND_TOTAL_MAX


@pytest.mark.parametrize("lang", LANGS)
def test_telegram_command_menus_fit_telegrams_limits(lang):
    menu = command_menu(lang)
    assert [c for c, _ in menu] == list(COMMANDS)
    assert telegram_limits.check_commands({"commands": json.dumps([{"command": c, "description": d}
                                                                   for c, d in menu])}) is None
    assert set(MENU_LANGUAGES.values()) <= set(LANGS)


def _row(*components) -> dict:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str = "g:1", label: str = "x") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _select(n: int, least: int = 0, most: int = 1) -> dict:
    return {"type": 3, "custom_id": "v:1:m.0", "min_values": least, "max_values": most,
            "options": [{"label": str(i), "value": str(i)} for i in range(n)]}


@pytest.mark.parametrize(("payload", "path"), [
    ({"content": "x" * 2001}, "content"),
    ({"components": [_row(_button(str(i))) for i in range(6)]}, "components"),
    ({"components": [_row(*[_button(str(i)) for i in range(6)])]}, "components.0.components"),
    ({"components": [_row(_button(label="x" * 81))]}, "components.0.components.0.label"),
    ({"components": [_row(_button("x" * 101))]}, "components.0.components.0.custom_id"),
    ({"components": [_row(_button("a"), _button("a"))]}, "components"),
    ({"components": [_row(_select(26))]}, "components.0.components.0.options"),
    ({"components": [_row(_select(3, most=4))]}, "components.0.components.0"),
    ({"components": [_row(_select(2), _button())]}, "components.0.components"),
    ({"embeds": [{"description": "x" * 4097}]}, "embeds.0.description"),
    ({"embeds": [{"title": "t", "fields": [{"name": "n", "value": "v" * 1024}] * 6}]}, "embeds"),
    ({"allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "allowed_mentions.users"),
])
def test_the_discord_fake_refuses_messages_over_discords_limits(payload, path):
    errors = discord_limits.check_message(payload)
    assert path in [p for p, _ in errors.flat], errors.flat
    assert errors.body()["code"] == 50035 and errors.body()["message"] == "Invalid Form Body"


def test_the_discord_fake_refuses_forms_and_commands_over_discords_limits():
    form = {"custom_id": "t:1:xm.0", "title": "x" * 46,
            "components": [_row({"type": 4, "custom_id": "you", "label": "y" * 46, "style": 1})]}
    assert {p for p, _ in discord_limits.check_modal(form).flat} == {"data.title",
                                                                      "data.components.0.components.0.label"}
    command = {"name": "NewGame", "description": "d" * 101, "options": [
        {"type": 3, "name": "a", "description": "ok", "required": False},
        {"type": 3, "name": "b", "description": "ok", "required": True},
        {"type": 3, "name": "c", "description": "ok",
         "choices": [{"name": str(i), "value": str(i)} for i in range(26)]},
    ], "name_localizations": {"zh-XX": "开局"}}
    paths = {p for p, _ in discord_limits.check_commands([command]).flat}
    assert {"0.name", "0.description", "0.options", "0.options.2.choices", "0.name_localizations.zh-XX"} <= paths


async def test_discord_py_reads_the_fakes_refusal_as_discord_s(tmp_path, monkeypatch):
    """The fake's error body is Discord's: discord.py turns it into ``CommandSyncFailure`` naming the
    command and the parameter, as it would for Discord."""
    service = await GameService.open(f"sqlite:///{tmp_path / 'x.db'}")
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(name="newgame", description="Open a game")
    @app_commands.describe(options=app_commands.locale_str("x" * 101))  # as the catalogue's text arrives
    async def newgame(interaction: discord.Interaction, options: str = "") -> None:
        pass

    try:
        async with fake_discord(monkeypatch) as server, client:
            await client.login(server.token)  # the application's id comes from Discord, as the sync needs
            with pytest.raises(app_commands.CommandSyncFailure) as refused:
                await tree.sync()
        text = str(refused.value)
        assert "newgame" in text and "options" in text and "between 1 and 100" in text
        fake = server.api
        assert fake.refusals[0][2] == 400 and fake.commands == []
    finally:
        await service.close()


@pytest.mark.parametrize(("method", "params", "refusal"), [
    ("sendMessage", {"chat_id": 1, "text": "x" * 4097}, "message is too long"),
    ("sendMessage", {"chat_id": 1, "text": "😀" * 2049}, "message is too long"),  # two UTF-16 units each
    ("sendMessage", {"chat_id": 1, "text": "   "}, "message text is empty"),
    ("sendPhoto", {"chat_id": 1, "caption": "x" * 1025}, "caption is too long"),
    ("sendMessage", {"chat_id": 1, "text": "a < b", "parse_mode": "HTML"}, "can't parse entities"),
    ("sendMessage", {"chat_id": 1, "text": "<b>x", "parse_mode": "HTML"}, "can't parse entities"),
    ("editMessageMedia", {"chat_id": 1, "message_id": 2, "media": json.dumps({"type": "photo", "media": "x",
                                                                             "caption": "y" * 1025})},
     "caption is too long"),
    ("sendMessage", {"chat_id": 1, "text": "x", "reply_markup": json.dumps(
        {"inline_keyboard": [[{"text": "b", "callback_data": "x" * 65}]]})}, "BUTTON_DATA_INVALID"),
    ("sendMessage", {"chat_id": 1, "text": "x", "reply_markup": json.dumps(
        {"inline_keyboard": [[{"text": "", "callback_data": "x"}]]})}, "BUTTON_TEXT_EMPTY"),
    ("answerCallbackQuery", {"callback_query_id": "1", "text": "x" * 201}, "MESSAGE_TOO_LONG"),
    ("setMyCommands", {"commands": json.dumps([{"command": "NewGame", "description": "x"}])}, "BOT_COMMAND_INVALID"),
    ("setMyCommands", {"commands": json.dumps([{"command": "newgame", "description": "x" * 257}])},
     "BOT_COMMAND_DESCRIPTION_INVALID"),
    ("setMyCommands", {"commands": json.dumps([{"command": "a", "description": "b"}]), "language_code": "zh-Hans"},
     "LANG_CODE_INVALID"),
])
def test_the_telegram_fake_refuses_what_telegram_refuses(method, params, refusal):
    answer = telegram_limits.check_call(method, params)
    assert answer is not None and answer.startswith("Bad Request: ") and refusal in answer


def test_what_telegram_accepts_passes_the_fake():
    assert telegram_limits.check_call("sendMessage", {"chat_id": 1, "text": "<b>Ann</b> &amp; Bob",
                                                      "parse_mode": "HTML"}) is None
    assert telegram_limits.check_call("sendPhoto", {"chat_id": 1, "caption": "y" * 1024}) is None
    assert telegram_limits.visible_html('<a href="tg://user?id=2">Bob</a>, go') == "Bob, go"
