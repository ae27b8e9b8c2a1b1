"""Words for people: the message catalogues (i18n) and each game's text (labels, log lines, the
table as text). Below ``bot/`` and ``render/``, above ``engine/``: the chat adapters and the
pictures both speak through it, and it holds no game rules.
"""
