#!/usr/bin/env bash
# The MCP tests (apps/api/test/mcp-inspector.test.ts) list Sandbank's tools with the MCP Inspector's
# own command line (`mcp-inspector --cli … --method tools/list`), an independent client of both
# transports. This installs @modelcontextprotocol/inspector with npm into a cache folder and prints
# the folder. Idempotent: with the version there it only prints (about 25 s the first time).
#
# Not a devDependency: the Inspector brings its web UI, its TUI and its own SDK (v2), which the
# workspace does not need; the tests run only its CLI.
#
#   scripts/ensure-mcp-inspector.sh [folder, default ~/.cache/sandbank/mcp-inspector-<version>]
#
# Environment: MCP_INSPECTOR_VERSION (2.12.0).
set -euo pipefail
source "$(dirname "$0")/lib/npm-tools.sh"
version=${MCP_INSPECTOR_VERSION:-2.12.0}
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/sandbank/mcp-inspector-$version}
installed="$dir/node_modules/@modelcontextprotocol/inspector/package.json"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  echo "$dir"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "The MCP Inspector test needs npm to install @modelcontextprotocol/inspector@$version." >&2
  exit 1
fi
lock_folder "$dir"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  echo "$dir"
  exit 0
fi
echo "Installing the MCP Inspector (@modelcontextprotocol/inspector@$version) for the MCP tests…" >&2
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"sandbank-mcp-inspector","private":true}' > "$dir/package.json"
cd "$dir"
npm_retry npm install --no-audit --no-fund --ignore-scripts --prefer-offline --loglevel=error "@modelcontextprotocol/inspector@$version" >&2
echo "$dir"
