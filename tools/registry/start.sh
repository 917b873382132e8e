#!/usr/bin/env bash
# Starts a local npm registry (Verdaccio) on 127.0.0.1 for XZatoma's publish checks, and
# prints its URL `http://127.0.0.1:PORT` as the last line of stdout (everything else goes to
# stderr).
#
#   bash tools/registry/start.sh                    # http://127.0.0.1:4873
#   REGISTRY_PORT=14873 bash tools/registry/start.sh
#   bash tools/registry/start.sh --fetch-only       # only fill the server cache; prints its directory
#   bash tools/registry/stop.sh                     # stops it (same REGISTRY_PORT / REGISTRY_WORK)
#
# Environment:
#   REGISTRY_PORT           port (default 4873)
#   REGISTRY_WORK           storage, log, pid directory (default .cache/registry/run-PORT)
#   REGISTRY_UPLINK         where packages outside @xzatoma come from: a registry URL, or
#                           `none` for no upstream at all (default: the registry npm is
#                           configured to use, read with `npm config get registry` at start)
#   VERDACCIO_VERSION       server version (default 6.10.4)
#   REGISTRY_START_TIMEOUT  seconds to wait until it serves (default 60)
#
# What it serves: @xzatoma/* only from what was published to it (never proxied, so a package
# of the same name elsewhere can never stand in for a local build; anyone may publish there,
# no login); every other package (zod, execa, ...) through the upstream registry, cached in
# its storage. The upstream address is handed to the server in its environment and never
# written to a file. Verdaccio is installed with npm, once, into
# .cache/registry/verdaccio-<version> (not into the workspace); later runs start no npm.
# Idempotent: when the server of REGISTRY_WORK already runs, this prints its URL and exits 0.
# Storage survives a stop; remove REGISTRY_WORK to start empty.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
VERSION="${VERDACCIO_VERSION:-6.10.4}"
PORT="${REGISTRY_PORT:-4873}"
WORK="${REGISTRY_WORK:-$ROOT/.cache/registry/run-$PORT}"
SERVER="$ROOT/.cache/registry/verdaccio-$VERSION"
TIMEOUT="${REGISTRY_START_TIMEOUT:-60}"

log() { printf 'registry: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

FETCH_ONLY=""
for arg in "$@"; do
  case "$arg" in
    --fetch-only) FETCH_ONLY=1 ;;
    *) die "unknown argument '$arg' (usage: start.sh [--fetch-only])" ;;
  esac
done
[[ "$PORT" =~ ^[0-9]+$ ]] || die "REGISTRY_PORT is not a number: '$PORT'"

if ! command -v node >/dev/null 2>&1 || ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 22 ? 0 : 1)'; then
  # shellcheck source=../toolchain/env.sh
  source "$ROOT/tools/toolchain/env.sh" >&2
fi

# Runs a command holding an exclusive lock on FILE (when flock exists), so two starts at
# once neither install twice nor start two servers on one directory.
with_lock() {
  local file="$1"
  shift
  if command -v flock >/dev/null 2>&1; then
    (
      exec 9>"$file"
      flock 9
      "$@"
    )
  else
    "$@"
  fi
}

fetch() {
  [ -f "$SERVER/.complete" ] && return 0
  local partial="$SERVER.partial" output
  log "installing Verdaccio $VERSION with npm into $SERVER (once, about 65 MB)"
  rm -rf "$partial"
  mkdir -p "$partial"
  # verdaccio-audit asks for node-fetch by the dist-tag `cjs`, which not every registry
  # mirror carries; 2.7.0 is the CommonJS line that tag names.
  cat >"$partial/package.json" <<JSON
{
  "name": "xzatoma-local-registry",
  "private": true,
  "description": "Verdaccio for tools/registry/start.sh",
  "dependencies": { "verdaccio": "$VERSION" },
  "overrides": { "node-fetch": "2.7.0" }
}
JSON
  if ! output="$(cd "$partial" && npm install --no-audit --no-fund --loglevel=error \
    --no-package-lock --ignore-scripts 2>&1 </dev/null)"; then
    printf '%s\n' "$output" >&2
    die "npm could not install Verdaccio $VERSION (see its messages above)"
  fi
  [ -f "$partial/node_modules/verdaccio/package.json" ] || die "npm did not install verdaccio"
  touch "$partial/.complete"
  rm -rf "$SERVER"
  mv "$partial" "$SERVER"
}

mkdir -p "$ROOT/.cache/registry"
with_lock "$ROOT/.cache/registry/.fetch.lock" fetch
if [ -n "$FETCH_ONLY" ]; then
  printf '%s\n' "$SERVER"
  exit 0
fi

URL="http://127.0.0.1:$PORT"

# The pid of this work directory's server when it runs, else nothing.
running_pid() {
  local pid
  [ -f "$WORK/server.pid" ] || return 0
  pid="$(cat "$WORK/server.pid")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  # A pid reused by another program is not ours.
  if [ -r "/proc/$pid/cmdline" ]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'registry/server\.mjs' || return 0
  fi
  printf '%s' "$pid"
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits until the server answers /-/ping; 2 when the process exited, 1 on timeout.
wait_ready() {
  local pid="$1"
  node -e '
    const [url, pid, timeout] = process.argv.slice(1);
    const deadline = Date.now() + Number(timeout) * 1000;
    const alive = () => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
    (async () => {
      while (Date.now() < deadline) {
        if (!alive()) process.exit(2);
        try {
          const response = await fetch(`${url}/-/ping`, { signal: AbortSignal.timeout(5000) });
          if (response.ok) process.exit(0);
        } catch {}
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      process.exit(1);
    })();
  ' "$URL" "$pid" "$TIMEOUT"
}

start() {
  local pid existing uplink status
  existing="$(running_pid)"
  if [ -n "$existing" ]; then
    wait_ready "$existing" ||
      die "the server of $WORK (pid $existing) runs but does not answer on $URL; see $WORK/server.log"
    return 0
  fi
  port_taken "$PORT" && die "127.0.0.1:$PORT is in use by another program; pick another REGISTRY_PORT"

  uplink="${REGISTRY_UPLINK:-}"
  if [ -z "$uplink" ]; then
    uplink="$(cd "$WORK" && npm config get registry 2>/dev/null </dev/null || true)"
    [ -n "$uplink" ] || die "npm config get registry printed nothing; set REGISTRY_UPLINK (a URL, or none)"
  fi
  [ "$uplink" = none ] && uplink=""
  case "$uplink" in
    "" | http://* | https://*) ;;
    *) die "REGISTRY_UPLINK must be an http(s) URL or none, not '$uplink'" ;;
  esac
  case "$uplink" in
    http://127.0.0.1:"$PORT"* | http://localhost:"$PORT"*)
      die "the upstream registry is this registry itself ($uplink); set REGISTRY_UPLINK" ;;
  esac

  mkdir -p "$WORK/storage"
  log "starting Verdaccio $VERSION on $URL (storage in $WORK/storage; packages outside @xzatoma $([ -n "$uplink" ] && echo "from the upstream registry" || echo "not available: no upstream"))"
  # 9>&-: the server must not inherit (and so hold forever) the lock of with_lock.
  REGISTRY_SERVER_DIR="$SERVER" REGISTRY_WORK="$WORK" REGISTRY_PORT="$PORT" REGISTRY_UPLINK="$uplink" \
    nohup node "$HERE/server.mjs" >>"$WORK/server.log" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$WORK/server.pid"

  status=0
  wait_ready "$pid" || status=$?
  if [ "$status" -ne 0 ]; then
    if [ "$status" -eq 2 ]; then
      log "the server exited while starting; the end of $WORK/server.log:"
    else
      log "the server did not answer on $URL within ${TIMEOUT}s; the end of $WORK/server.log:"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    tail -n 40 "$WORK/server.log" >&2 || true
    rm -f "$WORK/server.pid"
    exit 1
  fi
  log "ready (pid $pid)"
}

mkdir -p "$WORK"
with_lock "$WORK/.lock" start
printf '%s\n' "$URL"
