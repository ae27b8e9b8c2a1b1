"""Pictures drawn from views (never from the raw state): the board (``board``), the Deal table and
a hand and the discard pile (``deal``), the end-of-game chart (``chart``), tournament standings
(``standings``); the colour-blind-safe player colours (``colours``); one CJK font (``fonts``);
small PNG bytes (``png``: the board and the table as 8-bit palette PNGs).

Drawing takes tens of milliseconds: adapters call these through ``asyncio.to_thread``.
"""
