"""The SQLite map: schema, connections, writes and typed reads."""
