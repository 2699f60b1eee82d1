#!/usr/bin/env bash
# The test command (README "Run the tests"; .ci/run calls exactly this).
# Sets up .venv with codenav (editable), its test tools and the language servers the tests
# start, then runs lint, types and tests.
# Package installs are the only network access; the tests themselves run offline.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# typescript-language-server (npm) for the live-answer tests, into codenav's server cache;
# basedpyright and jedi-language-server come with the test extra.
.venv/bin/codenav servers install typescript >/dev/null
# The MCP Inspector's CLI (npm), for the protocol smoke test, into .venv/npm.
if command -v npm >/dev/null; then
  npm install --prefix .venv/npm --no-audit --no-fund --silent \
    @modelcontextprotocol/inspector@2.12.0 >/dev/null 2>&1 ||
    echo "warning: the MCP Inspector did not install; its smoke test will be skipped" >&2
fi

.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
