"""Everything that faces people, one folder a part: ``chat/`` (what a chat's members ask and which
messages a change needs, written once for every platform), ``telegram_app/`` and ``discord_app/``
(each platform's SDK translated, nothing more), ``web/`` (the web table and Mini App),
``console/`` (``tycoon play`` in a terminal) and ``process/`` (the command line, ``tycoon run``,
health). It holds no game rules: it turns the service's views into words, pictures and buttons
and presses back into the service's one door.
"""
