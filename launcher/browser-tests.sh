#!/usr/bin/env bash
# The browser part of `./siebog test`, run after `mvnw verify` has built and tested the server:
#   1. Debian's Chromium (apt-get install chromium when running as root and it is missing;
#      Playwright never downloads a browser),
#   2. the library's npm devDependencies, exactly as package-lock.json pins them (npm ci),
#   3. the library's unit tests (node --test test/), and perf/devices' frames against the same
#      fixtures (perf/devices-js/test/),
#   4. a fresh Cassandra node of its own (launcher/cassandra.sh: CQL 9442, storage 7400, JMX 7499,
#      its files in target/browser-cassandra), booting while 2 and 3 run,
#   5. one Siebog node from the EAR just built, with the examples beside it (siebog-examples.war:
#      Pong, Primes, the TSP demo) and the tests' own client agents (siebog-client-js/e2e/agents-war,
#      packed here as target/siebog-e2e-agents.war: Faulty, Keeper, Questioner, Relay, Tally, Yellow and more), at HTTP 8980, its files in
#      target/browser-nodes, with that Cassandra as its state store,
#   6. the end-to-end tests in headless Chromium against it (siebog-client-js/e2e/; the metrics test
#      parses Prometheus' format with prometheus_client, pip-installed into target/e2e-python),
#   7. then two such nodes (node2 at HTTP 9080) and the console's tests against a cluster
#      (siebog-client-js/e2e-cluster/: both nodes, a device on node2, the sniffer across them), and
#      last node2 killed under a client agent's proxy (e2e-cluster/proxy-node-killed.test.js),
# and stops the nodes (by PID, through ./siebog stop) and the Cassandra (by PID, through
# launcher/cassandra.sh stop) whatever happens. Screenshots of the host page land in
# target/browser-tests/.
#
# Usage: launcher/browser-tests.sh        (from anywhere; needs the EAR and WildFly under target/)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLIENT="$ROOT/siebog-client-js"
PORT_OFFSET=900                  # HTTP 8980; the other suites use 500-700, 1500+, 2000-2200, 3000
URL="http://127.0.0.1:$((8080 + PORT_OFFSET))/siebog"
URL2="http://127.0.0.1:$((8180 + PORT_OFFSET))/siebog"   # node2, for the cluster's tests
NODES_DIR="$ROOT/target/browser-nodes"
OUT="$ROOT/target/browser-tests"
PYTHON_VENV="$ROOT/target/e2e-python"   # prometheus_client for e2e/metrics.test.js
# The Cassandra of these tests: its own ports (the development node uses 9042/7000/7199, the
# integration tests 9342/7300/7399) and files, fresh each run.
export SIEBOG_CASSANDRA_DIR="$ROOT/target/browser-cassandra"
export SIEBOG_CASSANDRA_PORT=9442 SIEBOG_CASSANDRA_STORAGE_PORT=7400 SIEBOG_CASSANDRA_JMX_PORT=7499
CASSANDRA_LOG="$ROOT/target/browser-cassandra.log"
CASSANDRA_BOOT=""   # PID of the background `cassandra.sh start`, until it has returned
CASSANDRA_STARTED=0

say() { printf '\033[1m[browser-tests]\033[0m %s\n' "$*" >&2; }
fail() { printf '\033[31m[browser-tests] %s\033[0m\n' "$*" >&2; exit 1; }

ensure_chromium() {
    local found
    found=$(command -v chromium || true)
    if [[ -z $found ]]; then
        if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
            say "no chromium on the PATH: installing Debian's (apt-get install chromium)"
            if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
                    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2; }; then
                fail "apt-get could not install chromium"
            fi
            found=$(command -v chromium || true)
        fi
        [[ -n $found ]] || fail "the browser tests need Chromium and there is no 'chromium' on the PATH.
  Install it as root: apt-get update && apt-get install -y chromium
  (or run ./siebog test as root, which does that). Playwright's own browser downloads are not used."
    fi
    CHROMIUM=$found
    say "using $("$CHROMIUM" --version 2>/dev/null | head -n 1) ($CHROMIUM)"
}

ensure_node() {
    command -v node >/dev/null || fail "Node 20 or newer is needed for the browser library's tests (node not found)"
    command -v npm >/dev/null || fail "npm is needed for the browser tests' dependencies (npm not found)"
    local major
    major=$(node -p 'process.versions.node.split(".")[0]')
    ((major >= 20)) || fail "Node 20 or newer is needed (found $(node --version))"
}

# Stops the node this script started (./siebog stop only touches the PIDs under NODES_DIR), then
# its Cassandra (cassandra.sh stop only touches the PID in SIEBOG_CASSANDRA_DIR/pid).
stop_all() {
    if [[ -d $NODES_DIR ]]; then
        say "stopping the test node"
        SIEBOG_NODES_DIR="$NODES_DIR" "$ROOT/siebog" stop || true
    fi
    if ((CASSANDRA_STARTED)); then
        # A start still waiting for CQL: stop waiting (the node itself is stopped by its PID file).
        [[ -z $CASSANDRA_BOOT ]] || kill "$CASSANDRA_BOOT" 2>/dev/null || true
        say "stopping the test Cassandra"
        "$ROOT/launcher/cassandra.sh" stop >>"$CASSANDRA_LOG" 2>&1 || true
    fi
}

cassandra_pid() {
    [[ -f $SIEBOG_CASSANDRA_DIR/pid ]] && kill -0 "$(cat "$SIEBOG_CASSANDRA_DIR/pid")" 2>/dev/null \
        && cat "$SIEBOG_CASSANDRA_DIR/pid"
}

# Starts NODES nodes for the tests from the EAR just built, with the examples and the tests' client agents
# (AGENTS_WAR), node1 at $URL, using the tests' Cassandra; adds a viewer account to node1.
start_nodes() {
    local nodes=$1 agents_war=$2
    say "starting $nodes node(s) for the browser tests, node1 at $URL (with the examples and ${agents_war#"$ROOT"/})"
    # Contact points given, so `run` starts no Cassandra of its own and uses this one.
    SIEBOG_NODES_DIR="$NODES_DIR" \
        SIEBOG_CASSANDRA_CONTACT_POINTS="127.0.0.1:$SIEBOG_CASSANDRA_PORT" SIEBOG_CASSANDRA_LOCAL_DC=datacenter1 \
        SIEBOG_NODE_OPTS="-Dsiebog.device.placement-seed=42 -Dsiebog.device.heartbeat-ms=1000 -Dsiebog.device.trust-claimed-compute-units=true" \
        "$ROOT/siebog" run --nodes "$nodes" --no-build --detach --port-offset "$PORT_OFFSET" --deploy "$agents_war" 2>"$NODES_DIR.log" \
        || { tail -n 40 "$NODES_DIR.log" >&2; fail "the test nodes did not start (see $NODES_DIR.log)"; }

    # A viewer account too, for what the console hides from viewers and the API refuses them (console.test.js).
    local viewer_credentials="$ROOT/target/browser-tests-credentials" wildfly_home
    wildfly_home=$(ls -d "$ROOT"/target/wildfly/wildfly-*/ | head -n 1)
    "$ROOT/launcher/users.sh" "${wildfly_home%/}" "$NODES_DIR/node1/configuration" \
        "$viewer_credentials" viewer:siebog-viewer >/dev/null || fail "could not add the viewer account"
    export SIEBOG_E2E_VIEWER_PASSWORD
    SIEBOG_E2E_VIEWER_PASSWORD=$(sed -n 's/^viewer=//p' "$viewer_credentials" | tail -n 1)
}

# The end-to-end tests in DIR (under siebog-client-js) in headless Chromium against the running nodes.
run_tests() {
    local dir=$1 rc=0
    say "end-to-end tests in Chromium (siebog-client-js/$dir; screenshots in ${OUT#"$ROOT"/})"
    (cd "$CLIENT" && SIEBOG_E2E_URL="$URL" SIEBOG_E2E_URL2="$URL2" SIEBOG_E2E_NODES_DIR="$NODES_DIR" \
        SIEBOG_E2E_CHROMIUM="$CHROMIUM" SIEBOG_E2E_OUT="$OUT" \
        SIEBOG_E2E_PYTHON="$PYTHON_VENV/bin/python" PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
        node --test --test-concurrency=1 --test-reporter=spec "$dir") || rc=$?
    ((rc == 0)) || fail "the end-to-end tests in $dir failed (node logs: $NODES_DIR/node*/console.log)"
}

main() {
    local started=$SECONDS
    ensure_node
    ensure_chromium
    [[ -f $ROOT/siebog-ear/target/siebog.ear ]] || fail "no siebog-ear/target/siebog.ear: run the build (./mvnw verify) first"
    [[ -f $ROOT/siebog-examples/target/siebog-examples.war ]] || fail "no siebog-examples/target/siebog-examples.war: run the build (./mvnw verify) first"
    if [[ -f $NODES_DIR/node1/pid ]] && kill -0 "$(cat "$NODES_DIR/node1/pid")" 2>/dev/null; then
        fail "a browser-test node is still running (PID $(cat "$NODES_DIR/node1/pid")): SIEBOG_NODES_DIR=$NODES_DIR ./siebog stop"
    fi
    local pid
    if pid=$(cassandra_pid); then
        fail "the browser tests' Cassandra is still running (PID $pid): SIEBOG_CASSANDRA_DIR=$SIEBOG_CASSANDRA_DIR launcher/cassandra.sh stop"
    fi
    mkdir -p "$ROOT/target"
    trap stop_all EXIT

    # Cassandra boots (10-25 s) while npm and the unit tests run.
    say "starting a fresh Cassandra for the browser tests on 127.0.0.1:$SIEBOG_CASSANDRA_PORT (log: ${CASSANDRA_LOG#"$ROOT"/})"
    "$ROOT/launcher/cassandra.sh" start --fresh >"$CASSANDRA_LOG" 2>&1 &
    CASSANDRA_BOOT=$!
    CASSANDRA_STARTED=1

    say "installing the library's devDependencies (npm ci)"
    (cd "$CLIENT" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2) \
        || fail "npm ci failed in siebog-client-js"

    # The metrics test parses the node's /api/metrics with the Prometheus project's own Python parser.
    say "the metrics test's Prometheus parser (pip install -r e2e/requirements.txt into ${PYTHON_VENV#"$ROOT"/})"
    { [[ -x $PYTHON_VENV/bin/python ]] || python3 -m venv "$PYTHON_VENV"; } >&2 \
        && "$PYTHON_VENV/bin/pip" install --quiet --disable-pip-version-check -r "$CLIENT/e2e/requirements.txt" >&2 \
        || fail "could not install the metrics test's Python packages (python3 -m venv needs Debian's python3-venv)"

    say "the library's unit tests (node --test test/)"
    (cd "$CLIENT" && node --test --test-reporter=spec test/) || fail "the library's unit tests failed"
    say "perf/devices' frames against the same fixtures (node --test perf/devices-js/test/)"
    (cd "$ROOT/perf/devices-js" && node --test --test-reporter=spec test/) || fail "perf/devices' frame tests failed"

    local booted=0
    wait "$CASSANDRA_BOOT" && booted=1
    CASSANDRA_BOOT=""
    if ((!booted)); then
        tail -n 30 "$CASSANDRA_LOG" >&2
        fail "the browser tests' Cassandra did not start (see $CASSANDRA_LOG)"
    fi
    say "Cassandra is up (PID $(cassandra_pid))"
    # The tests' own client agents: a WAR of static files, no classes (jar from the JDK packs it).
    local agents_war="$ROOT/target/siebog-e2e-agents.war"
    rm -f "$agents_war"
    jar --create --file "$agents_war" -C "$CLIENT/e2e/agents-war" . || fail "could not pack $agents_war"
    start_nodes 1 "$agents_war"
    rm -rf "$OUT"
    run_tests e2e/
    # The console against a cluster (e2e-cluster/): both nodes, a device on node2, the sniffer across them;
    # then node2 killed under a client agent's proxy (last: node2 stays down).
    say "stopping the test node; starting two for the cluster's tests"
    SIEBOG_NODES_DIR="$NODES_DIR" "$ROOT/siebog" stop >/dev/null 2>&1 || true
    start_nodes 2 "$agents_war"
    run_tests e2e-cluster/console.test.js
    run_tests e2e-cluster/proxy-node-killed.test.js
    say "browser tests passed in $((SECONDS - started)) s"
}

main "$@"
