"""The game API, errors, records and the shared conformance check."""
