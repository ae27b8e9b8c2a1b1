"""Where the service keeps games: the rows (``rows``), the database itself with its secret and the
notices to other processes (``database``), what a failing database raises (``errors``), the reads
and writes besides moves (``queries``), a move stored with the group commit (``writer``), a table's
message record (``records``), small stored settings (``keyvalue``) and the schema's migrations, run
at start-up (``migrate``, ``migrations/``)."""
