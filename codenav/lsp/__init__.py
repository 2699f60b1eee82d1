"""Language servers as a source of truth.

``codenav.lsp.client.LspClient`` runs one server process; ``codenav.lsp.fake`` is a scripted
server for tests. Positions here stay in LSP's units (0-based line, 0-based UTF-16
character); converting to codenav's 1-based anchors is the caller's job. Nothing is imported
here, so that ``python -m codenav.lsp.fake`` starts without loading pygls.
"""
