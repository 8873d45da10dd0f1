# Sourced by the ensure-*.sh scripts that install a test tool from the npm registry into a cache folder.
#
# npm_config_before: see below.
#
# npm_retry CMD…: runs CMD (an npm command) until it succeeds, 9 tries over 10 minutes (15, 30, 45, 60, 90,
# then 120 s apart). The registry, through this network's proxy, has answered SELF_SIGNED_CERT_IN_CHAIN for
# several minutes at a time (seen in CI on 2026-11-29 for 7 minutes, while the same request worked before and
# after); a suite should wait that out, not fail. Callers' timeouts allow for it (the tests' hooks: 15 min).
#
# lock_folder DIR: holds an exclusive lock (DIR.lock, fd 9) until the script exits, so test files that
# start at once install once instead of running two npm installs in one folder.
# Every tool's dependency tree is resolved as the registry stood on NPM_TOOLS_BEFORE (npm's `before`), not
# on the day of the install: the same tree on every machine, and a dependency published later cannot break
# an install. Seen on 2026-11-29: a fresh resolution of the MCP Inspector's tree asked for a package this
# network's registry does not serve (`napi-windows-process-start-time`), while the tree as of 2026-11-25
# installs in 5 s. Every tool's pinned version was published before it; move it forward with them.
export npm_config_before=${NPM_TOOLS_BEFORE:-2026-11-25T00:00:00Z}

npm_retry() {
  local waits=(15 30 45 60 90 120 120 120) try=1
  while ! "$@"; do
    if [ "$try" -gt "${#waits[@]}" ]; then
      echo "npm failed $try times over 10 minutes: $*" >&2
      return 1
    fi
    echo "npm failed (try $try of $((${#waits[@]} + 1))); trying again in ${waits[$((try - 1))]} s" >&2
    sleep "${waits[$((try - 1))]}"
    try=$((try + 1))
  done
}

lock_folder() {
  mkdir -p "$(dirname "$1")"
  exec 9> "$1.lock"
  flock 9
}
