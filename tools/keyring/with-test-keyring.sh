#!/usr/bin/env bash
# Runs a command against a real, throwaway Secret Service: a private D-Bus session
# (dbus-run-session) with a fresh gnome-keyring unlocked by a throwaway password. The
# keyring lives in a temporary directory deleted afterwards; the user's own keyrings and
# session bus are never touched. Exits with the command's status.
#
#   bash tools/keyring/with-test-keyring.sh CMD [ARG...]
#
# Needs dbus-run-session and gnome-keyring-daemon; on Debian/Ubuntu:
#   sudo apt-get install -y dbus-daemon gnome-keyring
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: bash tools/keyring/with-test-keyring.sh CMD [ARG...]" >&2
  exit 2
fi

missing=()
command -v dbus-run-session >/dev/null 2>&1 || missing+=(dbus-daemon)
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing+=(gnome-keyring)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "with-test-keyring: ${missing[*]} not installed. Install with: sudo apt-get install -y ${missing[*]}" >&2
  exit 3
fi

if [ -z "${XZ_TEST_KEYRING_DIR:-}" ]; then
  # Outside the session: make the scratch directory, then run this script again inside
  # a private bus. The keyring daemon ends with the bus.
  XZ_TEST_KEYRING_DIR="$(mktemp -d "${TMPDIR:-/tmp}/xzatoma-keyring.XXXXXX")"
  export XZ_TEST_KEYRING_DIR
  trap 'rm -rf "$XZ_TEST_KEYRING_DIR"' EXIT
  unset DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL
  status=0
  # dbus-daemon complains when it cannot raise its fd limit (containers); that is harmless.
  dbus-run-session -- bash "${BASH_SOURCE[0]}" "$@" 2> >(grep -v 'Failed to set fd limit' >&2) || status=$?
  exit "$status"
fi

# Inside the session. gnome-keyring keeps its keyrings in $XDG_DATA_HOME/keyrings and its
# control socket in $XDG_RUNTIME_DIR/keyring: point both into the scratch directory.
export XDG_DATA_HOME="$XZ_TEST_KEYRING_DIR/data"
export XDG_RUNTIME_DIR="$XZ_TEST_KEYRING_DIR/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

# --unlock reads the password on stdin, creates the login keyring with it if there is none,
# and prints the variables a client needs (none when D-Bus activation is enough).
daemon_env="$(printf '%s' "xzatoma-throwaway-password" |
  gnome-keyring-daemon --unlock --components=secrets)"
while IFS= read -r line; do
  case "$line" in
    [A-Za-z_]*=*) export "${line?}" ;;
  esac
done <<<"$daemon_env"

"$@"
