"""Pictures drawn from views (never from the raw state): the board (``board``), the Deal table and
a hand (``deal``), the end-of-game chart (``chart``); one CJK font (``fonts``); PNG bytes (``png``).

Drawing takes tens of milliseconds: adapters call these through ``asyncio.to_thread``.
"""
