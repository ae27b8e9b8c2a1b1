"""The Discord front end (discord.py): slash commands, persistent buttons whose ids parse back into
service tokens (``DynamicItem``), one public table message per game edited in place, the hand as
an ephemeral reply. Thin like the Telegram one: presses go to ``GameService.act``, screens come
from ``bot.chat.presenter``.
"""
