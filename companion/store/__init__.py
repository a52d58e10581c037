"""The store: every database write and query (the engine and session, the tables, a play's records and log, the history's lists, the schema's migrations)."""
