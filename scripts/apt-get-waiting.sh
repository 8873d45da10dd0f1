# Sourced by scripts/ensure-*.sh. `apt_get ARGS…` runs `apt-get -qq ARGS…` and waits (up to 10
# minutes) while another program holds apt's or dpkg's locks, instead of failing with "Could not
# get lock" / "Unable to acquire the dpkg frontend lock". `DPkg::Lock::Timeout` makes apt-get wait
# for dpkg's frontend lock, but apt 2.6 does not apply it to the package lists' lock (`update`) or
# the download cache's lock, so those are retried here.
apt_get() {
  local deadline=$((SECONDS + 600)) output status
  while :; do
    status=0
    output=$(DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -qq "$@" 2>&1) || status=$?
    [ "$status" = 0 ] && return 0
    if [ "$SECONDS" -lt "$deadline" ] && grep -qE 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock' <<<"$output"; then
      sleep 3
      continue
    fi
    printf '%s\n' "$output" >&2
    return "$status"
  done
}
