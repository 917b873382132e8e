#!/usr/bin/env bash
# Starts a single-node Apache Kafka broker (KRaft, broker and controller in one JVM) on
# 127.0.0.1 for XZatoma's tests, benchmarks and local runs, and prints its bootstrap address
# `127.0.0.1:PORT` as the last line of stdout (everything else goes to stderr).
#
#   bash tools/kafka/start.sh                 # 127.0.0.1:9092
#   KAFKA_PORT=19092 bash tools/kafka/start.sh
#   bash tools/kafka/start.sh --fetch-only    # only fill the jar cache; prints its directory
#   bash tools/kafka/stop.sh                  # stops it (same KAFKA_PORT / KAFKA_WORK)
#
# Environment:
#   KAFKA_PORT             client port (default 9092)
#   KAFKA_CONTROLLER_PORT  KRaft controller port (default: a free port, picked once and kept
#                          in the work directory, so brokers on other KAFKA_PORTs never clash)
#   KAFKA_WORK             data, log, pid and config directory (default .cache/kafka/run-PORT)
#   KAFKA_VERSION          broker version (default 4.1.1; 3.9.x works too)
#   KAFKA_HEAP_OPTS        JVM heap (default -Xms64m -Xmx512m)
#   KAFKA_START_TIMEOUT    seconds to wait until it serves (default 180)
#
# The broker's jars come from Maven Central through `mvn` (Java 17+ and Maven needed) into
# .cache/kafka/<version>/libs, once; later runs use the cache and start no Maven. The broker is
# ready when it answers a Metadata request, not merely when its port opens. Idempotent: when
# the broker of KAFKA_WORK already runs, this prints its address and exits 0. Data survives a
# stop, so stop + start resumes the same topics and offsets.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
VERSION="${KAFKA_VERSION:-4.1.1}"
PORT="${KAFKA_PORT:-9092}"
WORK="${KAFKA_WORK:-$ROOT/.cache/kafka/run-$PORT}"
LIBS="$ROOT/.cache/kafka/$VERSION/libs"
TIMEOUT="${KAFKA_START_TIMEOUT:-180}"

log() { printf 'kafka: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

FETCH_ONLY=""
for arg in "$@"; do
  case "$arg" in
    --fetch-only) FETCH_ONLY=1 ;;
    *) die "unknown argument '$arg' (usage: start.sh [--fetch-only])" ;;
  esac
done

# Runs a command holding an exclusive lock on FILE (when flock exists), so two starts at
# once neither fetch twice nor start two brokers on one directory.
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
  [ -f "$LIBS/.complete" ] && return 0
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is needed once to download Kafka $VERSION's jars (for example: sudo apt-get install maven)"
  local profile=log4j2 partial="$LIBS.partial" output
  case "$VERSION" in
    [0-3].*) profile=reload4j ;;
  esac
  log "downloading Apache Kafka $VERSION's broker jars with Maven into $LIBS (once, about 45 MB)"
  rm -rf "$partial"
  # Maven's output is shown only when it fails (Debian's 3.8 prints colour codes even with -q).
  if ! output="$(mvn -B -q -f "$HERE/pom.xml" package -P "$profile" \
    -Dkafka.version="$VERSION" -Dkafka.libs="$partial" 2>&1 </dev/null)"; then
    printf '%s\n' "$output" >&2
    die "Maven could not download Apache Kafka $VERSION (see its messages above)"
  fi
  ls "$partial"/kafka_2.13-"$VERSION".jar >/dev/null 2>&1 || die "Maven did not produce kafka_2.13-$VERSION.jar"
  touch "$partial/.complete"
  rm -rf "$LIBS"
  mv "$partial" "$LIBS"
}

# Java and Maven come from apt-get when missing and this runs as root (else the checks below
# say what to install). Maven is only needed while the jar cache is empty.
if ! command -v java >/dev/null 2>&1 || { [ ! -f "$LIBS/.complete" ] && ! command -v mvn >/dev/null 2>&1; }; then
  # shellcheck source=../toolchain/system-packages.sh
  source "$ROOT/tools/toolchain/system-packages.sh" openjdk-17-jre-headless maven >&2
fi

mkdir -p "$(dirname "$LIBS")"
with_lock "$(dirname "$LIBS")/.fetch.lock" fetch
if [ -n "$FETCH_ONLY" ]; then
  printf '%s\n' "$LIBS"
  exit 0
fi

command -v java >/dev/null 2>&1 || die "Java 17 or newer is needed to run the Kafka broker (for example: sudo apt-get install openjdk-17-jre-headless)"
if ! command -v node >/dev/null 2>&1; then
  # shellcheck source=../toolchain/env.sh
  source "$ROOT/tools/toolchain/env.sh" >&2
fi
probe() { node "$HERE/probe.mjs" "$@"; }

# The pid of this work directory's broker when it runs, else nothing.
running_pid() {
  local pid
  [ -f "$WORK/broker.pid" ] || return 0
  pid="$(cat "$WORK/broker.pid")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  # A pid reused by another program is not ours.
  if [ -r "/proc/$pid/cmdline" ]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'kafka\.Kafka' || return 0
  fi
  printf '%s' "$pid"
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  local pid existing cluster_id controller_port status
  existing="$(running_pid)"
  if [ -n "$existing" ]; then
    probe wait 127.0.0.1 "$PORT" "$existing" "$TIMEOUT" ||
      die "the broker of $WORK (pid $existing) runs but does not answer on 127.0.0.1:$PORT; see $WORK/broker.log"
    return 0
  fi
  port_taken "$PORT" && die "127.0.0.1:$PORT is in use by another program; pick another KAFKA_PORT"

  mkdir -p "$WORK/data"
  if [ -n "${KAFKA_CONTROLLER_PORT:-}" ]; then
    controller_port="$KAFKA_CONTROLLER_PORT"
  elif [ -s "$WORK/controller.port" ] && ! port_taken "$(cat "$WORK/controller.port")"; then
    controller_port="$(cat "$WORK/controller.port")"
  else
    controller_port="$(probe free-port)"
  fi
  [[ "$controller_port" =~ ^[0-9]+$ ]] || die "the controller port is not a number: '$controller_port'"
  [ "$controller_port" != "$PORT" ] || die "KAFKA_CONTROLLER_PORT must differ from KAFKA_PORT ($PORT)"
  printf '%s\n' "$controller_port" >"$WORK/controller.port"

  # Backslashes and colons are special in a properties file; a path with spaces is fine.
  local data="${WORK//\\/\\\\}/data"
  cat >"$WORK/server.properties" <<PROPERTIES
# Written by tools/kafka/start.sh on every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${data//:/\\:}
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.segment.bytes=16777216
# Large enough for the watcher's tests to send a 10 MB poison message.
message.max.bytes=12582912
log.retention.check.interval.ms=60000
PROPERTIES

  local java_options=(
    ${KAFKA_HEAP_OPTS:--Xms64m -Xmx512m}
    -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
    # Relative to tools/kafka, where java runs: a colon in the checkout's path would split
    # an absolute class path, and a space in it would break a file: URL.
    -Dlog4j2.configurationFile=log4j2.properties
    -Dlog4j.configuration=file:log4j.properties
    -cp "../../.cache/kafka/$VERSION/libs/*"
  )

  if [ ! -f "$WORK/data/meta.properties" ]; then
    cluster_id="$(probe cluster-id)"
    log "formatting $WORK/data (cluster $cluster_id)"
    (cd "$HERE" && java "${java_options[@]}" kafka.tools.StorageTool format --ignore-formatted \
      -t "$cluster_id" -c "$WORK/server.properties") >>"$WORK/broker.log" 2>&1 </dev/null || {
      log "formatting the broker's storage failed; the end of $WORK/broker.log:"
      tail -n 30 "$WORK/broker.log" >&2 || true
      exit 1
    }
  fi

  log "starting Apache Kafka $VERSION on 127.0.0.1:$PORT (controller 127.0.0.1:$controller_port, data in $WORK)"
  # 9>&-: the broker must not inherit (and so hold forever) the lock of with_lock.
  (cd "$HERE" && exec nohup java "${java_options[@]}" kafka.Kafka "$WORK/server.properties") \
    >>"$WORK/broker.log" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$WORK/broker.pid"

  status=0
  probe wait 127.0.0.1 "$PORT" "$pid" "$TIMEOUT" || status=$?
  if [ "$status" -ne 0 ]; then
    if [ "$status" -eq 2 ]; then
      log "the broker exited while starting; the end of $WORK/broker.log:"
    else
      log "the broker did not serve 127.0.0.1:$PORT within ${TIMEOUT}s; the end of $WORK/broker.log:"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    tail -n 40 "$WORK/broker.log" >&2 || true
    rm -f "$WORK/broker.pid"
    exit 1
  fi
  log "ready (pid $pid)"
}

mkdir -p "$WORK"
with_lock "$WORK/.lock" start
printf '127.0.0.1:%s\n' "$PORT"
