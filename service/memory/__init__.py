"""The service's adapters in this process's memory: the event store, the
read model and stream tickets' uses over one set of ``Tables``, as the
PostgreSQL adapters are over one database. For tests, ``make test-fast``
and anything else that runs in one process; ``service.memory.wiring``
hands them to ``service.bootstrap``."""
