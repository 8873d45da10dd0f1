#!/usr/bin/env bash
# The browser tests (apps/*/test/browser/, the `test:browser` task that `pnpm test` runs) drive
# headless Chromium. Idempotent: with Chromium present it does nothing. On a fresh Debian machine as
# root it installs Debian's `chromium` package once (never a downloaded browser); elsewhere it says
# what is missing and fails, so the browser tests never silently skip.
set -euo pipefail
source "$(dirname "$0")/apt-get-waiting.sh"
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests…"
  apt_get update && apt_get install -y chromium
else
  echo "The browser tests need Chromium at /usr/bin/chromium (Debian: apt-get install chromium)." >&2
  exit 1
fi
