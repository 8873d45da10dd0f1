#!/usr/bin/env bash
# The payment-file tests (packages/core/test/payment-files*.test.ts) check every document Sandbank
# writes with Debian's `xmllint --schema` against the official ISO 20022 XSDs: a validator Sandbank
# did not write (the API's own validation runs libxml2 compiled to WebAssembly). Idempotent: with
# xmllint present it prints its path and does nothing else. On a fresh Debian machine as root it
# installs Debian's `libxml2-utils` once; elsewhere it says what is missing and fails, so those
# tests never silently skip.
set -euo pipefail
source "$(dirname "$0")/apt-get-waiting.sh"
if ! command -v xmllint >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's libxml2-utils (xmllint) for the payment-file tests…" >&2
    apt_get install -y --no-install-recommends libxml2-utils 2>/dev/null ||
      { apt_get update && apt_get install -y --no-install-recommends libxml2-utils; }
  fi
fi
if ! command -v xmllint >/dev/null 2>&1; then
  echo "The payment-file tests need xmllint (Debian: apt-get install libxml2-utils)." >&2
  exit 1
fi
command -v xmllint
