#!/usr/bin/env bash
# The statement tests (apps/api/test/faces/statements/actual.test.ts) read Sandbank's OFX and
# camt.053 files with Actual Budget's own file importer: loot-core's parse-file (ofx2json,
# xmlcamt2json), which Actual's npm package @actual-app/api ships bundled and runs behind its
# `transactions-parse-file` handler. This installs that package with npm into a cache folder and
# prints the folder. Idempotent: with the version there it only prints (about 15 s the first time).
#
# `--ignore-scripts`: better-sqlite3 (a dependency of the budget engine) is not compiled. Parsing a
# file opens no budget, and better-sqlite3 loads its native binding only when a database is
# opened, so the importer runs as Actual runs it; building the binding would take minutes and
# Node headers from outside (scripts/actual-e2e.sh does that for the whole engine, by hand).
#
#   scripts/ensure-actual-importer.sh [folder, default ~/.cache/sandbank/actual-importer-<version>]
#
# The default folder is the user's cache, not the clone: a fresh clone (CI's) finds it installed.
# npm prefers its cache (`--prefer-offline`), so a warm machine installs without the registry.
#
# Environment: ACTUAL_VERSION (26.9.0, as scripts/actual-e2e.sh).
set -euo pipefail
source "$(dirname "$0")/lib/npm-tools.sh"
version=${ACTUAL_VERSION:-26.9.0}
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/sandbank/actual-importer-$version}
installed="$dir/node_modules/@actual-app/api/package.json"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  echo "$dir"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "The Actual importer test needs npm to install @actual-app/api@$version." >&2
  exit 1
fi
lock_folder "$dir"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  echo "$dir"
  exit 0
fi
echo "Installing Actual Budget's importer (@actual-app/api@$version) for the statement tests…" >&2
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"sandbank-actual-importer","private":true}' > "$dir/package.json"
cd "$dir"
npm_retry npm install --no-audit --no-fund --ignore-scripts --prefer-offline --loglevel=error "@actual-app/api@$version" >&2
echo "$dir"
