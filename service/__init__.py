"""The HTTP service around the Cassino rules engine: storage, API, operations."""
