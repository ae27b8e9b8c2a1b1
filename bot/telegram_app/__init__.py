"""The Telegram front end (python-telegram-bot): commands, lobby and game buttons, the one public
message per table edited in place, private hands by direct message. Thin: every press goes to
``GameService.act`` and every screen comes from ``bot.chat.presenter``.
"""
