"""``tycoon play``: a game of the service's in a terminal, a front end of views like the chats
(``frontend``), with its keys (``keys``), per-game kits (``games``), the turn's prompt (``turn``),
help, trade entry and where games are kept (``options``)."""
