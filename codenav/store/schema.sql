-- The map's schema. Its version is db.SCHEMA_VERSION, stored in PRAGMA user_version;
-- a map with another version is rebuilt (older) or refused (newer).
-- Positions follow SPEC §2: 1-based lines, 1-based UTF-16 columns. Paths are repo-relative.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Every discovered source file, including those with no symbols (status says why).
CREATE TABLE files (
    id           INTEGER PRIMARY KEY,
    path         TEXT NOT NULL UNIQUE,
    lang         TEXT NOT NULL,          -- short code: py, ts, go …
    size         INTEGER NOT NULL,
    mtime_ns     INTEGER NOT NULL,
    hash         TEXT NOT NULL,          -- blake2b-128 of the content; '' when never read
    status       TEXT NOT NULL,          -- ok | binary | too_large | unreadable | timeout
    lines        INTEGER NOT NULL DEFAULT 0,
    parse_errors INTEGER NOT NULL DEFAULT 0,
    indexed_ns   INTEGER NOT NULL        -- wall clock when the content was read
);

-- Map nodes: one per file (kind 'module') and one per definition.
CREATE TABLE nodes (
    id           INTEGER PRIMARY KEY,
    nid          TEXT NOT NULL UNIQUE,   -- <lang>:<relpath>[#key]  (SPEC §2)
    file_id      INTEGER NOT NULL,
    parent_id    INTEGER,                -- enclosing node; NULL for a file node
    kind         TEXT NOT NULL,
    name         TEXT NOT NULL,
    qname        TEXT NOT NULL,          -- '' for a file node
    line         INTEGER NOT NULL,
    col          INTEGER NOT NULL,
    end_line     INTEGER NOT NULL,
    end_col      INTEGER NOT NULL,
    name_line    INTEGER NOT NULL,
    name_col     INTEGER NOT NULL,
    name_end_col INTEGER NOT NULL,
    start_byte   INTEGER NOT NULL,
    end_byte     INTEGER NOT NULL,
    signature    TEXT NOT NULL DEFAULT '',
    doc          TEXT,
    hub          REAL NOT NULL DEFAULT 0
);
CREATE INDEX nodes_file ON nodes(file_id);
CREATE INDEX nodes_name ON nodes(name);

-- Identifier uses. scope_id is the innermost enclosing node; target_id the node it resolves to.
CREATE TABLE refs (
    id        INTEGER PRIMARY KEY,
    file_id   INTEGER NOT NULL,
    scope_id  INTEGER NOT NULL,
    name      TEXT NOT NULL,
    kind      TEXT NOT NULL,            -- name attribute call inheritance decorator import export
    line      INTEGER NOT NULL,
    col       INTEGER NOT NULL,         -- the name ends at col + its length in UTF-16 units
    qualifier TEXT,                     -- receiver of an attribute: 'self', 'os.path', '*'
    target_id INTEGER
);
CREATE INDEX refs_file ON refs(file_id, line);
CREATE INDEX refs_name ON refs(name);

-- Names bound by import statements.
CREATE TABLE imports (
    id       INTEGER PRIMARY KEY,
    file_id  INTEGER NOT NULL,
    scope_id INTEGER NOT NULL,
    module   TEXT NOT NULL,             -- as written; leading dots for relative imports
    name     TEXT,
    alias    TEXT,
    wildcard INTEGER NOT NULL DEFAULT 0,
    line     INTEGER NOT NULL,
    col      INTEGER NOT NULL
);
CREATE INDEX imports_file ON imports(file_id);

-- Resolved relations between nodes, each with the anchor of its site.
CREATE TABLE edges (
    src_id  INTEGER NOT NULL,
    dst_id  INTEGER NOT NULL,
    kind    TEXT NOT NULL,              -- calls references imports inherits contains
    file_id INTEGER NOT NULL,           -- file of the site
    line    INTEGER NOT NULL,
    col     INTEGER NOT NULL
);
CREATE INDEX edges_src ON edges(src_id, kind);
CREATE INDEX edges_dst ON edges(dst_id, kind);
CREATE INDEX edges_file ON edges(file_id);

-- Syntax errors tree-sitter recovered from (the map side of nav_diagnostics).
CREATE TABLE problems (
    file_id  INTEGER NOT NULL,
    line     INTEGER NOT NULL,
    col      INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    end_col  INTEGER NOT NULL,
    message  TEXT NOT NULL
);
CREATE INDEX problems_file ON problems(file_id);
