"""The run report's schema version: written by the entry into every report, read by the host's RunReport (by path)."""

SCHEMA_VERSION = 2
