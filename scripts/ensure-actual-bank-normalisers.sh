#!/usr/bin/env bash
# The personality tests (apps/api/test/faces/gocardless-personalities.test.ts) run Actual Budget's own
# per-bank GoCardless normalisers (packages/sync-server/src/app-gocardless/banks/ of actualbudget/actual)
# on Sandbank's data. Actual publishes them only inside its sync server, @actual-app/sync-server, whose
# build bundles every bank file into one chunk (build/chunks/app-<hash>.js) that exports nothing but the
# server's `run`; the `#app-gocardless/banks/*` imports in its package.json point at build/src/…, which
# the package does not ship. So this installs the package with npm into a cache folder and writes,
# beside that chunk, `sandbank-bank-factory.mjs`: the chunk's text unchanged plus one export line —
# `BankFactory`, Actual's own function that picks a GoCardless bank's normaliser by institution id
# (IntegrationBank for a bank without one), and the Enable Banking provider's `normalizeTransaction`
# (src/app-enablebanking/services/enablebanking-service.ts, one for every ASPSP), exported as
# `normalizeEnableBankingTransaction`. It prints the path of that module. Idempotent.
#
# `--ignore-scripts`: no native module is built; importing the chunk opens no database and starts no
# server (its `run` is never called). Pattern and cache as scripts/ensure-actual-importer.sh.
#
#   scripts/ensure-actual-bank-normalisers.sh [folder, default ~/.cache/sandbank/actual-sync-server-<version>]
#
# Environment: ACTUAL_SYNC_SERVER_VERSION (26.9.0, the version scripts/actual-e2e.sh runs).
set -euo pipefail
source "$(dirname "$0")/lib/npm-tools.sh"
version=${ACTUAL_SYNC_SERVER_VERSION:-26.9.0}
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/sandbank/actual-sync-server-$version}
package="$dir/node_modules/@actual-app/sync-server"

derive() {
  local chunk
  chunk=$(grep -l '^function BankFactory(' "$package"/build/chunks/*.js | head -n 1)
  if [ -z "$chunk" ] || ! grep -q '^function normalizeTransaction(tx)' "$chunk"; then
    echo "No chunk of @actual-app/sync-server@$version defines BankFactory and the Enable Banking normalizeTransaction: its bundle changed shape." >&2
    exit 1
  fi
  local module="$package/build/chunks/sandbank-bank-factory.mjs"
  if [ ! -f "$module" ] || [ "$chunk" -nt "$module" ] || ! grep -q normalizeEnableBankingTransaction "$module"; then
    { cat "$chunk"; printf '\nexport { BankFactory, normalizeTransaction as normalizeEnableBankingTransaction };\n'; } > "$module.tmp"
    mv "$module.tmp" "$module"
  fi
  echo "$module"
}

if [ -f "$package/package.json" ] && grep -q "\"version\": \"$version\"" "$package/package.json"; then
  derive
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "The personality tests need npm to install @actual-app/sync-server@$version." >&2
  exit 1
fi
lock_folder "$dir"
if [ -f "$package/package.json" ] && grep -q "\"version\": \"$version\"" "$package/package.json"; then
  derive
  exit 0
fi
echo "Installing Actual Budget's sync server (@actual-app/sync-server@$version) for its bank normalisers…" >&2
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"sandbank-actual-sync-server","private":true}' > "$dir/package.json"
(cd "$dir" && npm_retry npm install --no-audit --no-fund --ignore-scripts --prefer-offline --loglevel=error "@actual-app/sync-server@$version" >&2)
derive
