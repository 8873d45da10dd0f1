#!/usr/bin/env bash
# The cluster drill (`pnpm drill:cluster`, bench/src/cluster-drill.ts) runs PostgreSQL under
# Patroni with etcd, HAProxy in front, each node in its own network namespace. Idempotent and
# fast: with every tool present it prints their paths and does nothing else. On a Debian machine
# as root it installs Debian's `patroni`, `etcd-server`, `haproxy` and `iproute2` once, waiting
# for apt's dpkg lock, with service start-up blocked so nothing is left running or holding a
# port (etcd's package would otherwise start a member on 2379). Elsewhere it says what is
# missing and fails, so the drill never silently skips.
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
have_all() {
  command -v patroni >/dev/null 2>&1 && command -v etcd >/dev/null 2>&1 &&
    command -v haproxy >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 &&
    [ -x "$PG_BIN/postgres" ]
}

if ! have_all; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "The cluster drill needs patroni, etcd, haproxy, iproute2 and PostgreSQL 15" >&2
    echo "(Debian: apt-get install patroni etcd-server haproxy iproute2 postgresql-15)." >&2
    exit 1
  fi
  echo "Installing Debian's patroni, etcd-server, haproxy and iproute2 for the cluster drill…" >&2
  # Block service start-up while the packages install; put back whatever policy was there.
  policy=/usr/sbin/policy-rc.d
  saved=""
  if [ -e "$policy" ]; then saved=$(mktemp) && cp -p "$policy" "$saved"; fi
  restore_policy() {
    if [ -n "$saved" ]; then mv -f "$saved" "$policy"; else rm -f "$policy"; fi
  }
  trap restore_policy EXIT
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy"
  pkgs=(patroni etcd-server haproxy iproute2)
  [ -x "$PG_BIN/postgres" ] || pkgs+=(postgresql-15)
  apt_opts=(-y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends)
  DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install "${pkgs[@]}" >/dev/null 2>&1 ||
    { apt-get -qq -o DPkg::Lock::Timeout=600 update &&
      DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install "${pkgs[@]}" >/dev/null; }
  restore_policy
  trap - EXIT
  # Where a service manager did start them anyway, stop them and keep them off.
  for svc in etcd patroni haproxy; do
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
      systemctl disable --now "$svc" >/dev/null 2>&1 || true
    elif [ -x "/etc/init.d/$svc" ]; then
      "/etc/init.d/$svc" stop >/dev/null 2>&1 || true
      update-rc.d "$svc" disable >/dev/null 2>&1 || true
    fi
  done
fi

if ! have_all; then
  echo "The cluster drill's tools are still missing after installing them." >&2
  exit 1
fi
printf 'patroni=%s\netcd=%s\nhaproxy=%s\nip=%s\npostgres=%s\n' "$(command -v patroni)" \
  "$(command -v etcd)" "$(command -v haproxy)" "$(command -v ip)" "$PG_BIN/postgres"
