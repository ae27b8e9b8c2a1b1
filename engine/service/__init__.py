"""The async service between the rules and the chat platforms: tables, persistence, the one door
for moves (``GameService.act``), button tokens. Unlike the rules it does I/O (a database) and uses
asyncio; it never imports a chat library, ``bot/`` or ``render/``.
"""
