#!/usr/bin/env bash
# The test command (README "Run the tests"; .ci/run calls exactly this).
# Sets up .venv with codenav (editable) and its test tools, then runs lint, types and tests.
# Package installs are the only network access; the tests themselves run offline.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'

.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
