#!/usr/bin/env bash
# The /docs test (apps/api/test/docs.test.ts) loads the page in headless Chromium. On a fresh
# Debian machine we install Debian's Chromium once (as root); elsewhere we say what is missing.
set -euo pipefail
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the /docs browser test…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The /docs browser test needs Chromium at /usr/bin/chromium (Debian: apt-get install chromium)." >&2
  exit 1
fi
