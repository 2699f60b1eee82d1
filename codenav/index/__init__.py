"""Indexing: files → facts → the map. Knows nothing about MCP or LSP."""
