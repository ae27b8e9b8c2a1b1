"""The chats, once for every platform: what members ask (``flows``, ``lobby_flows``), which messages
a table's change needs (``channel``, ``updates``), the screens drawn from views (``screens``,
``presenter``, ``tournament_screens``, ``option_screens``, ``trade_builder``), the messenger
interface each platform implements (``messenger``) and the strict parsing of everything a user
sends (``inputs``)."""
