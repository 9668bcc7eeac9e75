"""PostgreSQL: the connection pool and embedded server, the event store, the
games read model, notifications of appends, and stream tickets' uses."""
