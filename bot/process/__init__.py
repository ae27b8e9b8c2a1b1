"""The process: the ``tycoon`` command line (``entry``, ``cli``), ``tycoon run`` with its settings
and parts (``run``), each chat platform started and retried on its own (``platforms``), and the
health and metrics endpoints (``health``)."""
