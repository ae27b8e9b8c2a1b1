"""The web table: a third front end (beside Telegram and Discord) on the same service, rules and
pictures, served by aiohttp from this process (``tycoon web``; ``tycoon run`` without chat tokens).

``server.py`` serves the pages and the JSON/WebSocket endpoints, ``hub.py`` turns the service's
table updates into WebSocket messages (the presenter's public and private screens), ``auth.py``
keeps who is who (signed session cookies, Telegram Mini App ``initData``). The pages are plain
HTML/JS/CSS in ``static/``: no build step.
"""
