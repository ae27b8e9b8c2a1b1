"""Where the service keeps games: the rows and queries (``store``), the group commit of moves
(``writer``), a table's message record (``records``), small stored settings (``keyvalue``) and the
schema's migrations, run at start-up (``migrate``, ``migrations/``)."""
