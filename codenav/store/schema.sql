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
    status       TEXT NOT NULL,          -- ok | binary | too_large | unreadable | timeout | crashed
    lines        INTEGER NOT NULL DEFAULT 0,
    parse_errors INTEGER NOT NULL DEFAULT 0,
    indexed_ns   INTEGER NOT NULL,       -- wall clock when the content was read
    surface      TEXT NOT NULL DEFAULT '', -- digest of what other files resolve against
    node_count   INTEGER NOT NULL DEFAULT 0,
    hub_mass     REAL NOT NULL DEFAULT 0  -- sum of its nodes' hub scores (index/rank.py)
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
    type_key     TEXT,                   -- a variable's or field's class, as a key
    hub          REAL NOT NULL DEFAULT 0
);
-- with name_line: the definition declared on a line (an alias's, `length = Length`)
CREATE INDEX nodes_file ON nodes(file_id, name_line);
-- with hub: exact-name search reads the best first, no sort
CREATE INDEX nodes_name ON nodes(name, hub);
CREATE INDEX nodes_parent ON nodes(parent_id, name);
CREATE INDEX nodes_lname ON nodes(lower(name), hub);
CREATE INDEX nodes_hub ON nodes(hub);
-- types by lower-cased name, for the linker's guess of a variable's class (`subscriber` ->
-- Subscriber): the container kinds of every language (grammars/*/language.toml)
CREATE INDEX nodes_types ON nodes(lower(name))
    WHERE kind IN ('class', 'interface', 'enum', 'record', 'struct', 'trait', 'union',
                   'namespace', 'type');

-- The words of node names (codenav/words.py), for search: parseHTTPResponse -> parse, http …
CREATE TABLE words (
    word    TEXT NOT NULL,
    node_id INTEGER NOT NULL,
    file_id INTEGER NOT NULL
);
-- covering: a word-prefix search never reads the table
CREATE INDEX words_word ON words(word, node_id);
CREATE INDEX words_file ON words(file_id);

-- Identifier uses. scope_id is the innermost enclosing node; target_id the node it resolves
-- to (set at extraction for the same file, by the linker through `symbols` for others); key
-- names a target in another file (grammar in codenav/index/binder.py). A resolved use is an
-- edge scope_id -> target_id (see the `edges` view).
CREATE TABLE refs (
    id        INTEGER PRIMARY KEY,
    file_id   INTEGER NOT NULL,
    scope_id  INTEGER NOT NULL,
    name      TEXT NOT NULL,
    kind      TEXT NOT NULL,            -- name attribute call inheritance decorator import export
    line      INTEGER NOT NULL,
    col       INTEGER NOT NULL,         -- the name ends at col + its length in UTF-16 units
    qualifier TEXT,                     -- receiver of an attribute: 'self', 'os.path', '*'
    target_id INTEGER,
    key       TEXT
);
CREATE INDEX refs_file ON refs(file_id, line);
-- covering what nav_references reads: a symbol's thousands of uses without a table read
CREATE INDEX refs_target ON refs(target_id, file_id, line, col, kind, scope_id, name)
    WHERE target_id IS NOT NULL;
CREATE INDEX refs_scope ON refs(scope_id) WHERE target_id IS NOT NULL;
CREATE INDEX refs_key ON refs(key) WHERE key IS NOT NULL;
CREATE INDEX refs_bases ON refs(scope_id) WHERE kind = 'inheritance';
CREATE INDEX refs_unresolved ON refs(name) WHERE target_id IS NULL AND key IS NOT NULL;

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
    col      INTEGER NOT NULL,
    key      TEXT                       -- what the bound name resolves to
);
CREATE INDEX imports_file ON imports(file_id);

-- Keys resolved by the linker: the node each one names.
CREATE TABLE symbols (
    key       TEXT PRIMARY KEY,
    target_id INTEGER NOT NULL,
    guessed   INTEGER NOT NULL DEFAULT 0 -- 1: resolved by a name-only guess (a V:/A: alternative)
) WITHOUT ROWID;
-- the keys resolved into one file (whose nodes moved): file_id << 20 ranges of target_id
CREATE INDEX symbols_target ON symbols(target_id);

-- Resolved relations between nodes, each with the anchor of its site: every resolved
-- reference, and the nesting of nodes.
CREATE VIEW edges AS
    SELECT scope_id AS src_id, target_id AS dst_id,
           CASE kind WHEN 'call' THEN 'calls' WHEN 'decorator' THEN 'calls'
                     WHEN 'inheritance' THEN 'inherits' WHEN 'import' THEN 'imports'
                     ELSE 'references' END AS kind,
           file_id, line, col
    FROM refs WHERE target_id IS NOT NULL
    UNION ALL
    SELECT parent_id, id, 'contains', file_id, name_line, name_col
    FROM nodes WHERE parent_id IS NOT NULL;

-- Syntax errors tree-sitter recovered from (the map side of nav_diagnostics).
-- Lines the preprocessor compiles only under a condition (C's #if/#ifdef branches): the
-- condition as a C expression ('0': compiled out); active 0 when the map decided it is
-- compiled out (extraction, or the linker with the compile database and the macros the
-- project defines), NULL while it cannot tell. Plainly compiled branches are not listed.
CREATE TABLE regions (
    file_id  INTEGER NOT NULL,
    line     INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    cond     TEXT NOT NULL,
    active   INTEGER
);
CREATE INDEX regions_file ON regions(file_id, line);

CREATE TABLE problems (
    file_id  INTEGER NOT NULL,
    line     INTEGER NOT NULL,
    col      INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    end_col  INTEGER NOT NULL,
    message  TEXT NOT NULL
);
CREATE INDEX problems_file ON problems(file_id);
