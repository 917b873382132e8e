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
#   KAFKA_SECURITY         `on` adds listeners that need TLS or SASL (default off: PLAINTEXT only);
#                          see "Security" below
#
# Security (KAFKA_SECURITY=on). The PLAINTEXT listener on KAFKA_PORT stays (the readiness probe,
# the inter-broker traffic and any admin work use it) and three more listeners on 127.0.0.1 open:
#   SASL_PLAINTEXT  KAFKA_SASL_PLAINTEXT_PORT  PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
#   SSL             KAFKA_SSL_PORT             TLS, no client certificate
#   SASL_SSL        KAFKA_SASL_SSL_PORT        TLS and PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
# (each a free port unless given, picked once and kept in the work directory). One user,
# KAFKA_SECURITY_USER (default xzatoma) with KAFKA_SECURITY_PASSWORD (default random), is known
# to all three mechanisms; its SCRAM credentials are written when the storage is formatted, so
# security must be on from a work directory's first start and the user stays as it was then.
# The broker's certificate (for 127.0.0.1 and localhost) is signed by a CA made with openssl in
# KAFKA_WORK/security, whose ca.pem clients trust. KAFKA_WORK/security.env lists, as KEY=VALUE
# lines, KAFKA_SASL_PLAINTEXT_BOOTSTRAP, KAFKA_SSL_BOOTSTRAP, KAFKA_SASL_SSL_BOOTSTRAP,
# KAFKA_SECURITY_USER, KAFKA_SECURITY_PASSWORD and KAFKA_SECURITY_CA_FILE. Test brokers only.
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

SECURITY="${KAFKA_SECURITY:-off}"
case "$SECURITY" in
  on | off) ;;
  *) die "KAFKA_SECURITY must be on or off, not '$SECURITY'" ;;
esac

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
  bash "$ROOT/tools/toolchain/system-packages.sh" openjdk-17-jre-headless maven >&2
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

# Backslashes and colons are special in a properties file.
property_path() {
  local value="${1//\\/\\\\}"
  printf '%s' "${value//:/\\:}"
}

# The port of one more listener: the environment's, else the one kept in WORK/NAME.port when
# still free, else a free one; kept in WORK/NAME.port.
listener_port() {
  local name="$1" given="$2" port
  if [ -n "$given" ]; then
    port="$given"
  elif [ -s "$WORK/$name.port" ] && ! port_taken "$(cat "$WORK/$name.port")"; then
    port="$(cat "$WORK/$name.port")"
  else
    port="$(probe free-port)"
  fi
  [[ "$port" =~ ^[0-9]+$ ]] || die "the $name port is not a number: '$port'"
  printf '%s\n' "$port" >"$WORK/$name.port"
  printf '%s' "$port"
}

# KAFKA_SECURITY=on: the user, the CA and the broker's certificate, made once per work
# directory in WORK/security (kept across restarts).
security_material() {
  local dir="$WORK/security"
  command -v openssl >/dev/null 2>&1 || die "KAFKA_SECURITY=on needs openssl to make the broker's certificate"
  mkdir -p "$dir"
  chmod 700 "$dir"
  if [ ! -s "$dir/user" ]; then
    local user="${KAFKA_SECURITY_USER:-xzatoma}" password="${KAFKA_SECURITY_PASSWORD:-}"
    [ -n "$password" ] || password="$(openssl rand -hex 16)"
    # Both go into a JAAS line between double quotes, and into --add-scram's list.
    [[ "$user" =~ ^[A-Za-z0-9._-]+$ ]] || die "KAFKA_SECURITY_USER may hold letters, digits, '.', '_' and '-' only"
    [[ "$password" =~ ^[A-Za-z0-9._~+/-]+$ ]] || die "KAFKA_SECURITY_PASSWORD may hold letters, digits and . _ ~ + / - only"
    printf '%s\n' "$password" >"$dir/password"
    printf '%s\n' "$user" >"$dir/user"
  fi
  if [ ! -s "$dir/server.p12" ]; then
    log "making a test CA and the broker's certificate in $dir"
    (
      cd "$dir"
      openssl rand -hex 16 >keystore.password
      openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 \
        -subj "/CN=XZatoma test Kafka CA" -keyout ca.key -out ca.pem \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
      openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=127.0.0.1" \
        -keyout server.key -out server.csr
      printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature,keyEncipherment" \
        "extendedKeyUsage=serverAuth" "subjectAltName=IP:127.0.0.1,DNS:localhost" >server.ext
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 \
        -sha256 -extfile server.ext -out server.pem
      openssl pkcs12 -export -in server.pem -inkey server.key -certfile ca.pem -name broker \
        -out server.p12.partial -passout "file:keystore.password"
      mv server.p12.partial server.p12
    ) >>"$WORK/broker.log" 2>&1 </dev/null || die "openssl could not make the broker's certificate (see $WORK/broker.log)"
  fi
}

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

  local listeners="PLAINTEXT://127.0.0.1:$PORT" protocols="CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
  local security_properties="" format_options=() user="" password=""
  local sasl_plaintext_port ssl_port sasl_ssl_port
  if [ "$SECURITY" = on ]; then
    if [ -f "$WORK/data/meta.properties" ] && [ ! -f "$WORK/security/formatted" ]; then
      die "$WORK was first started without KAFKA_SECURITY=on, so its storage has no SCRAM users; use a new KAFKA_WORK"
    fi
    security_material
    user="$(cat "$WORK/security/user")"
    password="$(cat "$WORK/security/password")"
    sasl_plaintext_port="$(listener_port sasl_plaintext "${KAFKA_SASL_PLAINTEXT_PORT:-}")"
    ssl_port="$(listener_port ssl "${KAFKA_SSL_PORT:-}")"
    sasl_ssl_port="$(listener_port sasl_ssl "${KAFKA_SASL_SSL_PORT:-}")"
    local port_list=" $PORT $controller_port $sasl_plaintext_port $ssl_port $sasl_ssl_port "
    local p
    for p in $port_list; do
      [ "$(grep -o " $p " <<<"$port_list" | wc -l)" -eq 1 ] || die "two listeners would share port $p"
    done
    for p in "$sasl_plaintext_port" "$ssl_port" "$sasl_ssl_port"; do
      port_taken "$p" && die "127.0.0.1:$p is in use by another program; pick other KAFKA_*_PORTs"
    done
    listeners+=",SASL_PLAINTEXT://127.0.0.1:$sasl_plaintext_port,SSL://127.0.0.1:$ssl_port,SASL_SSL://127.0.0.1:$sasl_ssl_port"
    protocols+=",SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,SASL_SSL:SASL_SSL"
    local plain="org.apache.kafka.common.security.plain.PlainLoginModule required user_$user=\"$password\";"
    local scram="org.apache.kafka.common.security.scram.ScramLoginModule required;"
    security_properties="
# KAFKA_SECURITY=on: SASL (PLAIN, SCRAM) and TLS listeners for the user $user.
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.plain.sasl.jaas.config=$plain
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=$scram
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=$scram
listener.name.sasl_ssl.plain.sasl.jaas.config=$plain
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=$scram
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=$scram
ssl.keystore.type=PKCS12
ssl.keystore.location=$(property_path "$WORK/security/server.p12")
ssl.keystore.password=$(cat "$WORK/security/keystore.password")
ssl.key.password=$(cat "$WORK/security/keystore.password")
ssl.client.auth=none"
    format_options=(
      --add-scram "SCRAM-SHA-256=[name=$user,password=$password]"
      --add-scram "SCRAM-SHA-512=[name=$user,password=$password]"
    )
  fi

  # Backslashes and colons are special in a properties file; a path with spaces is fine.
  local data="${WORK//\\/\\\\}/data"
  cat >"$WORK/server.properties" <<PROPERTIES
# Written by tools/kafka/start.sh on every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=$listeners,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=$listeners
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=$protocols
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
  [ -z "$security_properties" ] || printf '%s\n' "$security_properties" >>"$WORK/server.properties"

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
      -t "$cluster_id" -c "$WORK/server.properties" ${format_options[@]+"${format_options[@]}"}) \
      >>"$WORK/broker.log" 2>&1 </dev/null || {
      log "formatting the broker's storage failed; the end of $WORK/broker.log:"
      tail -n 30 "$WORK/broker.log" >&2 || true
      exit 1
    }
    [ "$SECURITY" != on ] || touch "$WORK/security/formatted"
  fi
  if [ "$SECURITY" = on ]; then
    printf '%s\n' \
      "KAFKA_SASL_PLAINTEXT_BOOTSTRAP=127.0.0.1:$sasl_plaintext_port" \
      "KAFKA_SSL_BOOTSTRAP=127.0.0.1:$ssl_port" \
      "KAFKA_SASL_SSL_BOOTSTRAP=127.0.0.1:$sasl_ssl_port" \
      "KAFKA_SECURITY_USER=$user" \
      "KAFKA_SECURITY_PASSWORD=$password" \
      "KAFKA_SECURITY_CA_FILE=$WORK/security/ca.pem" >"$WORK/security.env"
    log "security on: SASL_PLAINTEXT 127.0.0.1:$sasl_plaintext_port, SSL 127.0.0.1:$ssl_port, SASL_SSL 127.0.0.1:$sasl_ssl_port (user $user; see $WORK/security.env)"
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
