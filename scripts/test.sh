#!/usr/bin/env bash
# The test command (README "Run the tests"; .ci/run calls exactly this).
# Sets up .venv with codenav (editable), its test tools and the language servers the tests
# start, then runs lint, types and tests.
# Package installs are the only network access; the tests themselves run offline.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
# What this needs besides Python 3.10+, said before anything is installed.
missing=""
command -v "$python" >/dev/null || missing="$missing python3 (3.10 or newer)"
command -v git >/dev/null || missing="$missing git"
command -v npm >/dev/null || missing="$missing npm (Node.js 18 or newer: typescript-language-server and the MCP Inspector come from it)"
if [ -n "$missing" ]; then
  echo "scripts/test.sh needs:$missing" >&2
  echo "On Debian or Ubuntu: apt-get install -y python3 python3-venv git nodejs npm" >&2
  exit 2
fi
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# typescript-language-server (npm) for the live-answer tests, into codenav's server cache;
# basedpyright and jedi-language-server come with the test extra.
.venv/bin/codenav servers install typescript >/dev/null
# The MCP Inspector's CLI (npm), for the protocol smoke test, into .venv/npm.
npm install --prefix .venv/npm --no-audit --no-fund --silent \
  @modelcontextprotocol/inspector@2.12.0 >/dev/null 2>&1 ||
  echo "warning: the MCP Inspector did not install; its smoke test will be skipped" >&2

.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
