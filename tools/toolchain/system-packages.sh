#!/usr/bin/env bash
# Installs the system packages XZatoma's tests use, with apt-get, when they are missing:
#   bubblewrap  the sandbox terminal commands run in (tests assert it is there)
# and the extra packages named, e.g. tools/kafka/start.sh's openjdk-17-jre-headless and maven.
# Usage: bash tools/toolchain/system-packages.sh [extra-package ...]
# Without root or apt-get it says what to install and carries on.
#
# It is run, never sourced: a sourced script sees its caller's arguments when it is given
# none, so `bash tools/start.sh chat --provider ollama` once asked apt-get, as root, to
# install "chat" and "--provider". Sourcing it only defines xz_system_packages.

xz_system_packages() {
  local wanted=(bubblewrap "$@") missing=() package binary
  for package in "${wanted[@]}"; do
    case "$package" in
      bubblewrap) binary=bwrap ;;
      ripgrep) binary=rg ;;
      gnome-keyring) binary=gnome-keyring-daemon ;;
      dbus-daemon) binary=dbus-run-session ;;
      openjdk-*-jre-headless | default-jre-headless) binary=java ;;
      maven) binary=mvn ;;
      *) binary="$package" ;;
    esac
    command -v "$binary" >/dev/null 2>&1 || missing+=("$package")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    printf 'xzatoma-setup: please install %s (for example: sudo apt-get install %s)\n' "${missing[*]}" "${missing[*]}" >&2
    return 0
  fi
  printf 'xzatoma-setup: installing %s with apt-get\n' "${missing[*]}" >&2
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 ||
      printf 'xzatoma-setup: apt-get could not install %s\n' "${missing[*]}" >&2
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  xz_system_packages "$@"
fi
