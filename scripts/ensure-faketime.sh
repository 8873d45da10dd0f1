#!/usr/bin/env bash
# The wall-clock runs (`pnpm test:instants`, scripts/test-at-instants.ts) run tests under
# libfaketime, which both Node and PostgreSQL honour through LD_PRELOAD. Idempotent: with the
# library present it prints its path and does nothing else. On a fresh Debian machine as root it
# installs Debian's `libfaketime` package once; elsewhere it says what is missing and fails, so
# the runs never silently skip.
set -euo pipefail
source "$(dirname "$0")/apt-get-waiting.sh"
find_lib() { ls /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1 2>/dev/null | head -1; }
lib=$(find_lib || true)
if [ -z "$lib" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's libfaketime for the wall-clock test runs…" >&2
    apt_get install -y libfaketime 2>/dev/null || { apt_get update && apt_get install -y libfaketime; }
    lib=$(find_lib || true)
  fi
fi
if [ -z "$lib" ]; then
  echo "The wall-clock test runs need libfaketime (Debian: apt-get install libfaketime)." >&2
  exit 1
fi
echo "$lib"
