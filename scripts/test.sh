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
# Debian packages the editor and language-server tests drive: Neovim (codenav lsp in a real
# editor), clangd, gopls and the go it runs. Installed when missing (as root, or through
# sudo when it needs no password); when that cannot be done, their tests skip, saying why.
apt_packages=""
command -v nvim >/dev/null || apt_packages="$apt_packages neovim"
command -v clangd >/dev/null || apt_packages="$apt_packages clangd"
command -v gopls >/dev/null || apt_packages="$apt_packages gopls"
command -v go >/dev/null || apt_packages="$apt_packages golang-go"
if [ -n "$apt_packages" ]; then
  as_root=""
  if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root="sudo -n"
  fi
  if ! command -v apt-get >/dev/null || { [ "$(id -u)" != 0 ] && [ -z "$as_root" ]; }; then
    echo "warning: cannot install$apt_packages (needs apt-get, as root or with sudo);" \
      "the tests that need them will be skipped" >&2
  else
    # shellcheck disable=SC2086  # the list is words
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends $apt_packages >/dev/null 2>&1 ||
      { $as_root apt-get update -qq >/dev/null 2>&1 &&
        $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
          --no-install-recommends $apt_packages >/dev/null 2>&1; } ||
      echo "warning: apt-get could not install$apt_packages;" \
        "the tests that need them will be skipped" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# A .venv made before the distribution was renamed codenav-map still holds the old one.
if .venv/bin/python -m pip show --quiet codenav >/dev/null 2>&1; then
  .venv/bin/python -m pip uninstall --quiet --yes codenav >/dev/null 2>&1 || true
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
fi
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
