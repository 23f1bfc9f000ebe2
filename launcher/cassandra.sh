#!/usr/bin/env bash
# One local Apache Cassandra 5.0 node for development and tests, run from the classpath the build
# resolves from Maven Central (siebog-cassandra/target/lib: cassandra-all and its dependencies).
# No tarball, no install: `./siebog cassandra start` (or `./siebog run`) uses this.
#
# Usage: launcher/cassandra.sh start [--fresh] | stop | status
#
#   start    start the node on 127.0.0.1 in the background, wait until it accepts CQL connections,
#            write its PID to $SIEBOG_CASSANDRA_DIR/pid. --fresh forgets the data of earlier runs.
#   stop     stop the node whose PID is in $SIEBOG_CASSANDRA_DIR/pid (SIGTERM, SIGKILL after 60 s).
#   status   say whether that node runs and where.
#
# Environment (the defaults are the development node; the integration tests use their own):
#   SIEBOG_CASSANDRA_DIR           its configuration, data, logs and PID (default target/cassandra)
#   SIEBOG_CASSANDRA_PORT          CQL port (default 9042)
#   SIEBOG_CASSANDRA_STORAGE_PORT  inter-node port (default 7000)
#   SIEBOG_CASSANDRA_JMX_PORT      local JMX port, for nodetool (default 7199)
#   SIEBOG_CASSANDRA_HEAP          -Xmx of the node (default 512M)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
C_DIR="${SIEBOG_CASSANDRA_DIR:-$ROOT/target/cassandra}"
C_PORT="${SIEBOG_CASSANDRA_PORT:-9042}"
C_STORAGE_PORT="${SIEBOG_CASSANDRA_STORAGE_PORT:-7000}"
C_JMX_PORT="${SIEBOG_CASSANDRA_JMX_PORT:-7199}"
C_HEAP="${SIEBOG_CASSANDRA_HEAP:-512M}"
C_ADDRESS=127.0.0.1
C_LIB="$ROOT/siebog-cassandra/target/lib"
BOOT_TIMEOUT=240

say() { printf '\033[1m[cassandra]\033[0m %s\n' "$*" >&2; }
fail() { printf '\033[31m[cassandra] %s\033[0m\n' "$*" >&2; exit 1; }

running_pid() {
    local pid
    [[ -f $C_DIR/pid ]] || return 1
    pid=$(cat "$C_DIR/pid")
    kill -0 "$pid" 2>/dev/null || return 1
    echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/$C_ADDRESS/$1") 2>/dev/null; }

ensure_classpath() {
    if ! compgen -G "$C_LIB/cassandra-all-*.jar" >/dev/null; then
        say "resolving cassandra-all and its dependencies from Maven Central (first time: about a minute)"
        (cd "$ROOT" && "$ROOT/mvnw" -B -q -pl siebog-cassandra package) \
            || fail "could not resolve cassandra-all (see the Maven output above)"
    fi
}

write_config() {
    mkdir -p "$C_DIR/conf" "$C_DIR/logs" "$C_DIR/data"
    cat >"$C_DIR/conf/cassandra.yaml" <<EOF
# Written by launcher/cassandra.sh on every start: one development node on $C_ADDRESS.
cluster_name: siebog-local
num_tokens: 16
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: SimpleSnitch
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "$C_ADDRESS:$C_STORAGE_PORT"
listen_address: $C_ADDRESS
rpc_address: $C_ADDRESS
storage_port: $C_STORAGE_PORT
native_transport_port: $C_PORT
start_native_transport: true
data_file_directories:
  - $C_DIR/data/data
commitlog_directory: $C_DIR/data/commitlog
saved_caches_directory: $C_DIR/data/saved_caches
hints_directory: $C_DIR/data/hints
cdc_raw_directory: $C_DIR/data/cdc_raw
commitlog_sync: periodic
commitlog_sync_period: 10000ms
# Small memtables and caches: the node shares two cores and a laptop's memory with WildFly.
memtable_heap_space: 64MiB
memtable_offheap_space: 64MiB
key_cache_size: 16MiB
concurrent_reads: 8
concurrent_writes: 8
concurrent_counter_writes: 8
# A lone development node: no authentication (an external cluster configures its own).
authenticator: AllowAllAuthenticator
authorizer: AllowAllAuthorizer
EOF
    cat >"$C_DIR/conf/logback.xml" <<EOF
<configuration scan="false">
  <!-- Written by launcher/cassandra.sh: INFO and up to logs/system.log, warnings to console.log. -->
  <appender name="FILE" class="ch.qos.logback.core.rolling.RollingFileAppender">
    <file>$C_DIR/logs/system.log</file>
    <rollingPolicy class="ch.qos.logback.core.rolling.FixedWindowRollingPolicy">
      <fileNamePattern>$C_DIR/logs/system.log.%i.zip</fileNamePattern>
      <minIndex>1</minIndex>
      <maxIndex>3</maxIndex>
    </rollingPolicy>
    <triggeringPolicy class="ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy">
      <maxFileSize>20MB</maxFileSize>
    </triggeringPolicy>
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
    <filter class="ch.qos.logback.classic.filter.ThresholdFilter"><level>WARN</level></filter>
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO">
    <appender-ref ref="FILE"/>
    <appender-ref ref="STDOUT"/>
  </root>
</configuration>
EOF
}

cmd_start() {
    local fresh=0 pid jamm start=$SECONDS
    [[ ${1:-} == --fresh ]] && fresh=1
    if pid=$(running_pid); then
        say "already running (PID $pid, CQL $C_ADDRESS:$C_PORT)"
        return 0
    fi
    if port_open "$C_PORT"; then
        fail "something else already listens on $C_ADDRESS:$C_PORT; stop it, or point Siebog at it with
  SIEBOG_CASSANDRA_CONTACT_POINTS=$C_ADDRESS:$C_PORT (see docs/persistence.md)"
    fi
    command -v java >/dev/null || fail "Java 17 is needed to run Cassandra (java not found on PATH)"
    ensure_classpath
    ((fresh)) && rm -rf "$C_DIR/data" "$C_DIR/logs"
    write_config
    jamm=$(compgen -G "$C_LIB/jamm-*.jar" | head -n 1) || fail "no jamm jar in $C_LIB"
    say "starting Cassandra on $C_ADDRESS:$C_PORT (files in $C_DIR)"
    # The flags of upstream conf/jvm17-server.options (JPMS, G1, Netty), a small heap, and a short
    # ring delay: a lone fresh node need not wait 30 s for gossip to settle.
    nohup java \
        -Xms"$C_HEAP" -Xmx"$C_HEAP" -XX:MaxDirectMemorySize=256m -Xss256k \
        -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxTenuringThreshold=1 -XX:MaxGCPauseMillis=300 \
        -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath="$C_DIR/logs" \
        -Djava.net.preferIPv4Stack=true -Djdk.attach.allowAttachSelf=true \
        -Dio.netty.tryReflectionSetAccessible=true \
        -Dio.netty.allocator.useCacheForAllThreads=true -Dio.netty.allocator.maxOrder=11 \
        --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
        --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED \
        --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED \
        --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED \
        --add-exports java.sql/java.sql=ALL-UNNAMED \
        --add-exports java.base/java.lang.ref=ALL-UNNAMED \
        --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED \
        --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED \
        --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED \
        --add-opens java.base/java.lang.module=ALL-UNNAMED \
        --add-opens java.base/jdk.internal.loader=ALL-UNNAMED \
        --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
        --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED \
        --add-opens java.base/jdk.internal.math=ALL-UNNAMED \
        --add-opens java.base/jdk.internal.module=ALL-UNNAMED \
        --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED \
        --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
        --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
        --add-opens java.base/java.io=ALL-UNNAMED \
        --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
        --add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED \
        --add-opens java.base/java.lang=ALL-UNNAMED \
        --add-opens java.base/java.util=ALL-UNNAMED \
        -javaagent:"$jamm" \
        -Dcassandra.config="file://$C_DIR/conf/cassandra.yaml" \
        -Dlogback.configurationFile="$C_DIR/conf/logback.xml" \
        -Dcassandra.storagedir="$C_DIR/data" \
        -Dcassandra.logdir="$C_DIR/logs" \
        -Dcassandra.jmx.local.port="$C_JMX_PORT" \
        -Dcassandra-foreground=yes \
        -Dcassandra.ring_delay_ms=1000 -Dcassandra.skip_wait_for_gossip_to_settle=0 \
        -cp "$C_LIB/*" org.apache.cassandra.service.CassandraDaemon \
        >"$C_DIR/console.log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$C_DIR/pid"
    until port_open "$C_PORT"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            printf '\n' >&2
            tail -n 30 "$C_DIR/console.log" >&2
            rm -f "$C_DIR/pid"
            fail "Cassandra exited during boot; its logs: $C_DIR/console.log, $C_DIR/logs/system.log"
        fi
        if ((SECONDS - start > BOOT_TIMEOUT)); then
            printf '\n' >&2
            cmd_stop
            fail "Cassandra did not accept CQL connections on $C_ADDRESS:$C_PORT within $BOOT_TIMEOUT s; log: $C_DIR/logs/system.log"
        fi
        printf '.' >&2
        sleep 1
    done
    printf '\n' >&2
    say "up in $((SECONDS - start)) s: PID $pid, CQL $C_ADDRESS:$C_PORT, datacenter datacenter1"
}

cmd_stop() {
    local pid
    if ! pid=$(running_pid); then
        rm -f "$C_DIR/pid"
        say "no Cassandra started from $C_DIR is running"
        return 0
    fi
    say "stopping Cassandra (PID $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then
        say "still running after 60 s: SIGKILL"
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$C_DIR/pid"
}

cmd_status() {
    local pid
    if pid=$(running_pid); then
        if port_open "$C_PORT"; then
            printf 'cassandra PID %-8s CQL %s:%s (datacenter1), files %s\n' "$pid" "$C_ADDRESS" "$C_PORT" "$C_DIR"
        else
            printf 'cassandra PID %-8s booting (CQL %s:%s not open yet), files %s\n' "$pid" "$C_ADDRESS" "$C_PORT" "$C_DIR"
        fi
    else
        say "no Cassandra started from $C_DIR is running"
    fi
}

case ${1:-} in
    start) shift; cmd_start "$@" ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    *) echo "usage: $0 start [--fresh] | stop | status" >&2; exit 2 ;;
esac
