"""One private topic per game: where the bot has topics in private chats (Bot API 9.3: ``getMe``
says ``has_topics_enabled``; 9.4 lets a bot make them with ``createForumTopic``), a player's private
messages about a table (their hand or options, the bid asked for, the trade builder, the discard
pile) go into a topic of their chat with the bot named after that game ("Monopoly Deal #12"), so two
games at once, or a game and last week's, never mix. Without topics everything stays in the one
private chat, as before.

The topic is made once per player and table, the first time the table channel writes to them
(``bot.chat.channel.TableChannel.private`` asks ``TelegramMessenger.private_topic``), and kept in
the table's message record as the player's private place ``[chat, thread]``, so every later edit,
a restarted bot and another process all write into the same topic. A topic Telegram refuses to
make leaves the player in their plain private chat; a topic the player deleted is written around
(the message goes to the plain chat, ``TelegramMessenger.post``).
"""

from __future__ import annotations

import logging

from telegram.error import BadRequest, Forbidden

from bot.chat.messenger import Unreachable
from engine.service.storage import queries
from words.i18n import game_name, t

log = logging.getLogger(__name__)
TOPIC_NAME_MAX = 128  # createForumTopic's name: 1-128 characters


def topics_enabled(bot) -> bool:
    """Whether getMe said the bot has topics in its private chats (False before getMe ran)."""
    if bot is None:
        return False
    try:
        me = bot.bot
    except RuntimeError:  # python-telegram-bot: not initialised (getMe not called yet)
        return False
    return bool(getattr(me, "has_topics_enabled", False))


def topic_name(game: str, table: int, lang: str) -> str:
    return t(lang, "tg.topic.name", game=game_name(game, lang), table=table)[:TOPIC_NAME_MAX]


async def open_topic(bot, service, table: int, chat: int, lang: str):
    """The private place of a player for ``table``: ``(chat, thread)`` of a new topic named after
    the game, or ``chat`` alone when the bot has no topics or Telegram would not make one."""
    if not topics_enabled(bot):
        return chat
    live = await service.cache.get(table)
    if live is None:
        return chat
    try:
        topic = await bot.create_forum_topic(chat, topic_name(live.row.game, table, lang))
    except Forbidden as e:  # blocked: the same as a private chat that cannot be written to
        raise Unreachable(str(e)) from None
    except BadRequest as e:
        log.info("table %s: no private topic for %s (%s); the plain private chat instead", table, chat, e)
        return chat
    return chat, topic.message_thread_id


async def own_place(service, table: int, user: str) -> tuple[int, int | None]:
    """Where ``user``'s private messages about ``table`` go: the topic kept for them, else the plain
    private chat (``(user id, None)``)."""
    chat = int(user[3:])
    record = await queries.read_messages(service.db, table) or {}
    live = await service.cache.get(table)
    seat = live.seat_of(user) if live is not None else None
    entry = record.get("tg_dm", {}).get(str(seat)) if seat is not None else None
    if entry and len(entry) == 2 and isinstance(entry[0], list | tuple) and len(entry[0]) == 2:
        return int(entry[0][0]), (int(entry[0][1]) if entry[0][1] is not None else None)
    return chat, None


def thread_of(update) -> int | None:
    """The private topic a press or a message came from (None: the plain private chat)."""
    message = update.effective_message
    if message is None or not getattr(message, "is_topic_message", False):
        return None
    return message.message_thread_id
