#!/usr/bin/env bash
# The Compose files' test (apps/api/test/docker-compose.test.ts) checks docker/compose.yaml and
# docker/compose.cluster.yaml with Compose's own `config`: `docker compose` when the plugin is there,
# else Debian's `docker-compose` (no Docker engine is needed to check a file). Prints the command to
# run (`docker compose` or `docker-compose`). Idempotent; on a fresh Debian machine as root it
# installs Debian's `docker-compose` once (about 25 s), waiting for apt's locks; elsewhere it says
# what is missing and fails, so the test never silently skips.
set -euo pipefail
source "$(dirname "$0")/apt-get-waiting.sh"
if docker compose version >/dev/null 2>&1; then
  echo "docker compose"
  exit 0
fi
if ! command -v docker-compose >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's docker-compose to check the Compose files…" >&2
    apt_get install -y --no-install-recommends docker-compose 2>/dev/null ||
      { apt_get update && apt_get install -y --no-install-recommends docker-compose; }
  fi
fi
if ! command -v docker-compose >/dev/null 2>&1; then
  echo "The Compose files' test needs Docker Compose (the docker compose plugin, or Debian: apt-get install docker-compose)." >&2
  exit 1
fi
echo "docker-compose"
