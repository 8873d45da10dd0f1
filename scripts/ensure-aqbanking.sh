#!/usr/bin/env bash
# The statement tests (apps/api/test/faces/statements/) import Sandbank's camt.053 and MT940 files
# with Debian's AqBanking (`aqbanking-cli`), a parser Sandbank did not write. Idempotent: with it
# present this does nothing. On a fresh Debian machine as root it installs Debian's
# `aqbanking-tools` package once; elsewhere it says what is missing and fails, so those tests
# never silently skip.
set -euo pipefail
source "$(dirname "$0")/apt-get-waiting.sh"
command -v aqbanking-cli >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's aqbanking-tools for the statement tests…"
  apt_get update && apt_get install -y --no-install-recommends aqbanking-tools
else
  echo "The statement tests need aqbanking-cli (Debian: apt-get install aqbanking-tools)." >&2
  exit 1
fi
