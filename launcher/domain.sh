# `./siebog domain ...`: Siebog on a WildFly managed domain, the way an admin runs a cluster.
# Sourced by ./siebog, which provides ROOT, WILDFLY_HOME, EAR, log, die, require_tools and build.
#
# On this machine the domain is two processes (each a process controller with a host controller
# under it), both with a fresh copy of WildFly's domain/ directory:
#   the domain controller   $DOMAIN_DIR/primary   host-primary.xml; runs no servers
#   host controller "host1" $DOMAIN_DIR/host1     host-secondary.xml; runs server-1 .. server-N
# The servers are in server group "siebog" on profile "ha" (socket bindings "ha-sockets"): WildFly's
# ha profile with siebog-server/src/main/wildfly/cluster-profile.cli applied, the same file the
# standalone nodes and the Docker image use. Every jboss-cli call goes to the domain controller.
#
# Ports move together with the port base B (--port-base or SIEBOG_DOMAIN_PORT_BASE, default 1000),
# so a domain never meets the standalone nodes (offsets 0, 100, 200, ...) or another domain:
#   domain controller management   18990+B   (19990)
#   host controller management     18991+B   (19991)
#   server-k                       port offset B+100(k-1): HTTP 8080+offset (9080, 9180, ...),
#                                  JGroups TCP 7600+offset (8600, 8700, ...)
# SIEBOG_DOMAIN_DIR (default target/domain) lets a second domain, e.g. the tests', live elsewhere.

DOMAIN_DIR=${SIEBOG_DOMAIN_DIR:-$ROOT/target/domain}
DOMAIN_HOST=host1
DOMAIN_GROUP=siebog
DOMAIN_PROFILE=ha
DOMAIN_DEFAULT_BASE=1000
CLUSTER_PROFILE_CLI="$ROOT/siebog-server/src/main/wildfly/cluster-profile.cli"
DC_DIR="$DOMAIN_DIR/primary"
HC_DIR="$DOMAIN_DIR/$DOMAIN_HOST"
DOMAIN_KEYSTORE="$HC_DIR/cluster.p12"

domain_usage() {
    cat <<'EOF'
Usage: ./siebog domain <command> [options]

Siebog on a WildFly managed domain: a domain controller and host controller "host1" whose
servers form server group "siebog" (profile "ha"). Files and logs: target/domain.

  start [--servers N] [--port-base B] [--no-build] [--ear FILE]
        Prepare target/domain, start the domain controller and host1 with N servers (default 2),
        wait until they are up, deploy siebog.ear to the group and wait for the cluster to form,
        then deploy the examples (siebog-examples.war, at /siebog-examples) to the group.
        --port-base B   port offset of server-1 (default 1000, or SIEBOG_DOMAIN_PORT_BASE); the
                        domain controller listens on 18990+B, server-k's HTTP on 8080+B+100(k-1)
        --no-build      use the EAR and WildFly already built
        --ear FILE      deploy this EAR instead of siebog-ear/target/siebog.ear (implies --no-build;
                        the examples still come from siebog-examples/target/siebog-examples.war)
  deploy [FILE]         Deploy FILE (default siebog.ear) to the group, replacing an older one
                        (e.g. siebog-examples/target/siebog-examples.war, or your own agents).
  undeploy [NAME]       Undeploy NAME (default siebog.ear) from the group and remove it.
  add-server NAME       Add server NAME to the group on host1, start it, wait until it joins.
  status                Servers, their state, URL and cluster view; deployments; GET /api/nodes.
  stop                  Stop the host controller (and its servers) and the domain controller.
EOF
}

cmd_domain() {
    case ${1:-help} in
        start) shift; domain_start "$@" ;;
        deploy) shift; domain_load; domain_deploy "${1:-$EAR}" ;;
        undeploy) shift; domain_load; domain_undeploy "${1:-$(basename "$EAR")}" ;;
        add-server) shift; domain_load; domain_add_server "$@" ;;
        status) shift; domain_load; domain_status ;;
        stop) shift; domain_stop ;;
        help | -h | --help) domain_usage ;;
        *) domain_usage >&2; exit 2 ;;
    esac
}

# --- ports and state ------------------------------------------------------------------------------

domain_set_ports() {
    PORT_BASE=$1
    DC_PORT=$((18990 + PORT_BASE))
    HC_PORT=$((18991 + PORT_BASE))
}

http_port() { echo $((8080 + $1)); }
jgroups_port() { echo $((7600 + $1)); }

pid_alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

domain_running() { pid_alive "$DC_DIR/pid" || pid_alive "$HC_DIR/pid"; }

# Every command but start works on the domain that start recorded in $DOMAIN_DIR/domain.env.
domain_load() {
    require_tools
    [[ -f $DOMAIN_DIR/domain.env ]] && pid_alive "$DC_DIR/pid" ||
        die "no domain is running in $DOMAIN_DIR; start one with ./siebog domain start"
    local base
    base=$(sed -n 's/^PORT_BASE=//p' "$DOMAIN_DIR/domain.env")
    [[ $base =~ ^[0-9]+$ ]] || die "$DOMAIN_DIR/domain.env is damaged (no PORT_BASE); stop the domain and start it again"
    domain_set_ports "$base"
    load_admin_password
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The management CLI, always against the domain controller. Local (same user) authentication.
domain_cli() {
    JAVA_OPTS="-Xms32m -Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
        "$WILDFLY_HOME/bin/jboss-cli.sh" --connect --controller="remote+http://127.0.0.1:$DC_PORT" \
        --timeout=30000 --no-color-output "$@"
}

# Runs a CLI script; on failure shows jboss-cli's output and returns 1.
domain_cli_file() {
    local script=$1 out
    if ! out=$(domain_cli --file="$script" 2>&1); then
        printf '%s\n' "$out" >&2
        log "jboss-cli failed on $script"
        return 1
    fi
    printf '%s\n' "$out"
}

# One line per server of host1: name, status, port offset, group, JGroups view ("-" when none).
domain_servers() {
    local script="$DOMAIN_DIR/query.cli"
    cat >"$script" <<EOF
for s in /host=$DOMAIN_HOST:read-children-names(child-type=server-config)
echo server \$s
read-attribute --node=/host=$DOMAIN_HOST/server-config=\$s status
read-attribute --node=/host=$DOMAIN_HOST/server-config=\$s socket-binding-port-offset
read-attribute --node=/host=$DOMAIN_HOST/server-config=\$s group
try
read-attribute --node=/host=$DOMAIN_HOST/server=\$s/subsystem=jgroups/channel=ee view
catch
echo no-view
end-try
done
EOF
    domain_cli_file "$script" | awk '
        /^server / { if (name != "") print name "\t" f[1] "\t" f[2] "\t" f[3] "\t" f[4]; name = $2; n = 0; next }
        name != "" && n < 4 { f[++n] = $0 }
        END { if (name != "") print name "\t" f[1] "\t" f[2] "\t" f[3] "\t" f[4] }'
}

# "server-1, server-2" from a JGroups view "[server-1(v=..)|1] (2) [server-1(v=..), server-2(v=..)]".
view_members() { sed -n 's/.*) \[\(.*\)\]$/\1/p' <<<"$1" | sed 's/([^)]*)//g'; }

# --- waiting --------------------------------------------------------------------------------------

# Waits for a host controller (the domain controller is one too) to report it has started.
wait_controller() {
    local what=$1 dir=$2 started=$SECONDS deadline=$((SECONDS + 180))
    local hc_log="$dir/log/host-controller.log"
    printf '[siebog] starting %s ' "$what" >&2
    until grep -q 'WFLYSRV0025' "$hc_log" 2>/dev/null; do
        if ! pid_alive "$dir/pid"; then
            printf '\n' >&2
            tail -n 30 "$dir/console.log" >&2
            log "$what exited during boot; logs: $dir/console.log, $hc_log"
            return 1
        fi
        if grep -q 'WFLYSRV0026\|Address already in use' "$hc_log" 2>/dev/null || ((SECONDS > deadline)); then
            printf '\n' >&2
            grep 'ERROR' "$hc_log" | tail -n 5 >&2 || true
            log "$what did not start (a port taken? try --port-base); log: $hc_log"
            return 1
        fi
        printf '.' >&2
        sleep 1
    done
    printf ' ready (%d s)\n' $((SECONDS - started)) >&2
}

# wait_servers SINCE NAME...: until every named server of host1 logs "started" (WFLYSRV0025);
# SINCE is the $SECONDS when they were asked to start.
wait_servers() {
    local started=$1 deadline=$((SECONDS + 300)) name server_log pending
    shift
    printf '[siebog] starting %s ' "$*" >&2
    while :; do
        pending=0
        for name in "$@"; do
            server_log="$HC_DIR/servers/$name/log/server.log"
            if grep -q 'WFLYSRV0026\|Address already in use' "$server_log" 2>/dev/null; then
                printf '\n' >&2
                grep 'ERROR' "$server_log" | tail -n 5 >&2 || true
                log "$name started with errors (a port taken? try --port-base); log: $server_log"
                return 1
            fi
            grep -q 'WFLYSRV0025' "$server_log" 2>/dev/null || pending=1
        done
        ((pending)) || break
        if ! pid_alive "$HC_DIR/pid" || ((SECONDS > deadline)); then
            printf '\n' >&2
            log "the servers did not start within 300 s; logs: $HC_DIR/servers/*/log/server.log, $HC_DIR/log/host-controller.log"
            return 1
        fi
        printf '.' >&2
        sleep 1
    done
    printf ' started (%d s)\n' $((SECONDS - started)) >&2
}

# Waits until GET /siebog/api/nodes answers on every started server of the group.
wait_rest() {
    local started=$SECONDS deadline=$((SECONDS + 180)) name status offset group view pending
    printf '[siebog] waiting for the REST API on every server ' >&2
    while :; do
        pending=0
        while IFS=$'\t' read -r name status offset group view; do
            [[ $group == "$DOMAIN_GROUP" && $status == STARTED ]] || continue
            api_get "http://127.0.0.1:$(http_port "$offset")/siebog/api/nodes" >/dev/null || pending=1
        done <<<"$SERVERS"
        ((pending)) || break
        if ((SECONDS > deadline)); then
            printf '\n' >&2
            log "a server does not answer GET /siebog/api/nodes after 180 s; see $HC_DIR/servers/*/log/server.log"
            return 1
        fi
        printf '.' >&2
        sleep 1
    done
    printf ' ready (%d s)\n' $((SECONDS - started)) >&2
}

# Waits until every started server of the group on host1 sees all of them: in its JGroups view and
# in Siebog's GET /api/nodes (servers of other hosts may be there too). Two servers that boot at the
# same moment can each form a cluster of one and merge about a minute later.
wait_cluster() {
    local started=$SECONDS deadline=$((SECONDS + 150)) name status offset group view names formed seen other nodes missing
    printf '[siebog] waiting for the cluster to form ' >&2
    while :; do
        SERVERS=$(domain_servers) || return 1
        names=$(awk -F'\t' -v g="$DOMAIN_GROUP" '$4 == g && $2 == "STARTED" { print $1 }' <<<"$SERVERS")
        formed=1 missing=""
        while IFS=$'\t' read -r name status offset group view; do
            [[ $group == "$DOMAIN_GROUP" && $status == STARTED ]] || continue
            seen=", $(view_members "$view"), "
            nodes=$(api_get "http://127.0.0.1:$(http_port "$offset")/siebog/api/nodes" || true)
            for other in $names; do
                [[ $seen == *", $other, "* ]] || { formed=0; missing+="; $name's view ${view:-(none)} lacks $other"; }
                [[ $nodes == *"\"name\":\"$other\""* ]] || { formed=0; missing+="; $name's GET /api/nodes lacks $other (${nodes:-no answer})"; }
            done
        done <<<"$SERVERS"
        ((formed)) && break
        if ((SECONDS > deadline)); then
            printf '\n' >&2
            log "the servers have not formed one cluster after 150 s${missing} (./siebog domain status shows each view)"
            return 1
        fi
        printf '.' >&2
        sleep 3
    done
    printf ' %d servers in one view (%d s)\n' "$(wc -w <<<"$names")" $((SECONDS - started)) >&2
}

# --- start ----------------------------------------------------------------------------------------

domain_start() {
    local servers=2 base=${SIEBOG_DOMAIN_PORT_BASE:-$DOMAIN_DEFAULT_BASE} build_first=1 ear=$EAR
    while (($#)); do
        case $1 in
            --servers) servers=${2:?--servers needs a number}; shift 2 ;;
            --ear) ear=${2:?--ear needs a file}; build_first=0; shift 2 ;;
            --port-base) base=${2:?--port-base needs a number}; shift 2 ;;
            --no-build) build_first=0; shift ;;
            *) die "unknown option for domain start: $1 (see ./siebog domain help)" ;;
        esac
    done
    [[ $servers =~ ^[0-9]+$ ]] && ((servers >= 1 && servers <= 50)) || die "--servers must be a number from 1 to 50, got '$servers'"
    [[ $base =~ ^[0-9]+$ ]] && ((base <= 40000)) || die "the port base must be a whole number up to 40000, got '$base'"
    require_tools
    if ((build_first)) || [[ ! -f $ear || ! -f $EXAMPLES || ! -d $WILDFLY_HOME ]]; then
        build
    fi
    [[ -f $ear ]] || die "no such EAR: $ear"
    [[ -f $EXAMPLES ]] || die "no $EXAMPLES: build it (./mvnw package -DskipTests -pl siebog-examples -am)"
    domain_running && die "a domain is already running in $DOMAIN_DIR; see ./siebog domain status, or ./siebog domain stop"
    domain_set_ports "$base"

    local names=() offsets=() hosts=() k offset port
    for ((k = 1; k <= servers; k++)); do
        offset=$((base + 100 * (k - 1)))
        names+=("server-$k")
        offsets+=("$offset")
        hosts+=("127.0.0.1[$(jgroups_port "$offset")]")
    done
    for port in "$DC_PORT" "$HC_PORT" $(for offset in "${offsets[@]}"; do http_port "$offset"; jgroups_port "$offset"; done); do
        port_taken "$port" && die "port $port is taken; pick other ports with --port-base (now $base)"
    done

    domain_prepare "$base"
    local started=$SECONDS
    domain_launch "the domain controller" "$DC_DIR" host-primary.xml "$DC_PORT"
    wait_controller "the domain controller (management port $DC_PORT)" "$DC_DIR" || domain_abort
    domain_configure || domain_abort
    # The cluster secret in the host controller's environment: its servers inherit it (cluster-profile.cli
    # reads ${env.SIEBOG_CLUSTER_SECRET}); it is on no command line and in no configuration file.
    SIEBOG_CLUSTER_SECRET="$(head -n 1 "$CLUSTER_SECRET_FILE")" \
        domain_launch "host controller $DOMAIN_HOST" "$HC_DIR" host-secondary.xml "$HC_PORT" \
        -Djboss.host.name="$DOMAIN_HOST" \
        -Djboss.domain.primary.address=127.0.0.1 -Djboss.domain.primary.port="$DC_PORT" \
        -Djboss.bind.address=127.0.0.1 -Djboss.bind.address.private=127.0.0.1
    wait_controller "host controller $DOMAIN_HOST" "$HC_DIR" || domain_abort

    local cluster_hosts script="$DOMAIN_DIR/servers.cli"
    cluster_hosts=$(IFS=,; echo "${hosts[*]}")
    {
        echo "batch"
        for ((k = 0; k < servers; k++)); do
            server_config_cli "${names[k]}" "${offsets[k]}" "$cluster_hosts"
        done
        echo "run-batch"
        echo "/server-group=$DOMAIN_GROUP:start-servers(blocking=false)"
    } >"$script"
    local asked=$SECONDS
    domain_cli_file "$script" >/dev/null || domain_abort
    wait_servers "$asked" "${names[@]}" || domain_abort

    domain_deploy "$ear" || domain_abort
    # The examples beside it, on every server of the group (they wait for siebog.ear: WEB-INF/jboss-all.xml).
    domain_deploy "$EXAMPLES" || domain_abort
    local view
    view=$(view_members "$(awk -F'\t' 'NR == 1 { print $5 }' <<<"$SERVERS")")

    {
        printf '\n  Siebog is running on a WildFly domain (%d s): server group %s, profile %s, %d servers on %s.\n\n' \
            $((SECONDS - started)) "$DOMAIN_GROUP" "$DOMAIN_PROFILE" "$servers" "$DOMAIN_HOST"
        printf '  %-20s %s\n' "domain controller" "remote+http://127.0.0.1:$DC_PORT  (jboss-cli.sh -c --controller=remote+http://127.0.0.1:$DC_PORT)"
        for ((k = 0; k < servers; k++)); do
            printf '  %-20s %s\n' "${names[k]}" "http://127.0.0.1:$(http_port "${offsets[k]}")/siebog/api"
        done
        printf '  %-20s [%s]\n' "cluster view" "$view"
        printf '  %-20s %s\n' "logs" "$HC_DIR/servers/<server>/log/server.log"
        printf '\n  ./siebog domain status | add-server NAME | deploy [FILE] | undeploy [NAME] | stop\n\n'
    } >&2
}

# A fresh copy of WildFly's domain/ for each process, and the CLI scripts that configure the domain.
domain_prepare() {
    local base=$1
    rm -rf "$DOMAIN_DIR"
    mkdir -p "$DOMAIN_DIR"
    cp -r "$WILDFLY_HOME/domain" "$DC_DIR"
    cp -r "$WILDFLY_HOME/domain" "$HC_DIR"
    # host1 runs only the servers the launcher gives it, not WildFly's two examples.
    sed -i '/<servers>/,/<\/servers>/d' "$HC_DIR/configuration/host-secondary.xml"
    # The REST API's admin, in the application realm of the host that runs the servers (every host
    # that runs servers needs its users: docs/admin.md); the password as for ./siebog run.
    "$ROOT/launcher/users.sh" "$WILDFLY_HOME" "$HC_DIR/configuration" "$CREDENTIALS" admin:siebog-admin >/dev/null \
        || die "could not create the admin account on $DOMAIN_HOST (launcher/users.sh)"
    load_admin_password
    # The cluster secret, as for ./siebog run (every host that runs servers needs it: docs/admin.md), and
    # the keystore derived from it, which every server of host1 reads (-Dsiebog.cluster.keystore).
    "$ROOT/launcher/cluster-secret.sh" "$CLUSTER_SECRET_FILE" "$DOMAIN_KEYSTORE" >/dev/null \
        || die "could not prepare the cluster secret (launcher/cluster-secret.sh)"
    echo "PORT_BASE=$base" >"$DOMAIN_DIR/domain.env"

    # The shared cluster configuration, its addresses moved under /profile=ha.
    sed -e "s#^/#/profile=$DOMAIN_PROFILE/#" "$CLUSTER_PROFILE_CLI" >"$DOMAIN_DIR/cluster-profile-$DOMAIN_PROFILE.cli"
    cat >"$DOMAIN_DIR/domain-setup.cli" <<EOF
# Domain-only parts around the shared profile: FD_SOCK2's socket, no multicast mod_cluster socket,
# one server group for Siebog instead of WildFly's examples.
batch
/socket-binding-group=ha-sockets/socket-binding=jgroups-tcp-fd:add(interface=private, port=57600)
/socket-binding-group=ha-sockets/socket-binding=modcluster:remove()
/server-group=main-server-group:remove()
/server-group=other-server-group:remove()
/server-group=$DOMAIN_GROUP:add(profile=$DOMAIN_PROFILE, socket-binding-group=ha-sockets)
/server-group=$DOMAIN_GROUP/jvm=default:add(heap-size=64m, max-heap-size=512m)
run-batch
run-batch --file=$DOMAIN_DIR/cluster-profile-$DOMAIN_PROFILE.cli
EOF
}

domain_configure() {
    log "configuring profile $DOMAIN_PROFILE (cluster-profile.cli) and server group $DOMAIN_GROUP"
    domain_cli_file "$DOMAIN_DIR/domain-setup.cli" >/dev/null
}

# The CLI lines that add one server to the group on host1 (inside a batch).
server_config_cli() {
    local name=$1 offset=$2 cluster_hosts=$3 sc="/host=$DOMAIN_HOST/server-config=$1"
    cat <<EOF
$sc:add(group=$DOMAIN_GROUP, socket-binding-port-offset=$offset, auto-start=true)
$sc/system-property=jboss.node.name:add(value=$name)
$sc/system-property=jboss.socket.binding.port-offset:add(value=$offset)
$sc/system-property=siebog.cluster.hosts:add(value="$cluster_hosts")
$sc/system-property=siebog.cluster.keystore:add(value="$DOMAIN_KEYSTORE")
EOF
}

# domain_launch WHAT DIR HOST_CONFIG MANAGEMENT_PORT [-D...]: a process controller with its host
# controller, in the background and detached from this terminal; its PID goes to DIR/pid.
domain_launch() {
    local what=$1 dir=$2 host_config=$3 management_port=$4
    shift 4
    local common="-Djava.net.preferIPv4Stack=true -Djboss.modules.system.pkgs=org.jboss.byteman -Djava.awt.headless=true"
    local detach=()
    command -v setsid >/dev/null && detach=(setsid)
    JBOSS_PIDFILE="$dir/pid" LAUNCH_JBOSS_IN_BACKGROUND=1 \
        PROCESS_CONTROLLER_JAVA_OPTS="${PROCESS_CONTROLLER_JAVA_OPTS:--Xms16m -Xmx64m $common}" \
        HOST_CONTROLLER_JAVA_OPTS="${HOST_CONTROLLER_JAVA_OPTS:--Xms64m -Xmx256m $common}" \
        "${detach[@]}" "$WILDFLY_HOME/bin/domain.sh" --host-config="$host_config" \
        -Djboss.domain.base.dir="$dir" \
        -Djboss.management.http.port="$management_port" \
        -Djboss.bind.address.management=127.0.0.1 \
        "$@" </dev/null >"$dir/console.log" 2>&1 &
    # domain.sh writes the PID file once the process controller runs; wait for it briefly.
    for _ in $(seq 1 50); do
        [[ -s $dir/pid ]] && return 0
        sleep 0.1
    done
    log "$what: no PID file yet at $dir/pid (see $dir/console.log)"
}

domain_abort() {
    log "the domain did not start; stopping what did"
    domain_stop
    exit 1
}

# --- deploy, undeploy, add a server ---------------------------------------------------------------

domain_deploy() {
    local file=$1 name script="$DOMAIN_DIR/deploy.cli"
    [[ -f $file ]] || die "no such file: $file"
    file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
    name=$(basename "$file")
    cat >"$script" <<EOF
if (outcome == success) of /deployment=$name:read-resource
    undeploy $name --all-relevant-server-groups
end-if
deploy $file --server-groups=$DOMAIN_GROUP
EOF
    local started=$SECONDS
    log "deploying $name to server group $DOMAIN_GROUP"
    domain_cli_file "$script" >/dev/null || return 1
    log "deployed $name ($((SECONDS - started)) s)"
    if [[ $name == "$(basename "$EAR")" ]]; then
        SERVERS=$(domain_servers) || return 1
        wait_rest && wait_cluster
    fi
}

domain_undeploy() {
    local name=$1 script="$DOMAIN_DIR/undeploy.cli"
    cat >"$script" <<EOF
if (outcome == success) of /deployment=$name:read-resource
    undeploy $name --all-relevant-server-groups
end-if
EOF
    domain_cli_file "$script" >/dev/null || die "undeploying $name failed"
    log "$name is not deployed any more"
}

domain_add_server() {
    local name=${1:-}
    [[ $name =~ ^[A-Za-z0-9][A-Za-z0-9_-]*$ ]] || die "usage: ./siebog domain add-server NAME (letters, digits, - and _)"
    SERVERS=$(domain_servers) || die "could not read the servers of $DOMAIN_HOST"
    awk -F'\t' -v n="$name" '$1 == n { found = 1 } END { exit !found }' <<<"$SERVERS" &&
        die "$DOMAIN_HOST already has a server named $name"

    local offset cluster_hosts
    offset=$(awk -F'\t' -v base="$PORT_BASE" 'BEGIN { max = base - 100 } $3 > max { max = $3 } END { print max + 100 }' <<<"$SERVERS")
    port_taken "$(http_port "$offset")" && die "port $(http_port "$offset") for $name is taken"
    port_taken "$(jgroups_port "$offset")" && die "port $(jgroups_port "$offset") for $name is taken"
    # It finds the cluster through every server already in the group, and lists itself.
    cluster_hosts=$(awk -F'\t' -v g="$DOMAIN_GROUP" -v own="$offset" '
        $4 == g { printf "%s127.0.0.1[%d]", sep, 7600 + $3; sep = "," }
        END { printf "%s127.0.0.1[%d]\n", sep, 7600 + own }' <<<"$SERVERS")

    local script="$DOMAIN_DIR/add-$name.cli"
    {
        echo "batch"
        server_config_cli "$name" "$offset" "$cluster_hosts"
        echo "run-batch"
        echo "/host=$DOMAIN_HOST/server=$name:start(blocking=false)"
    } >"$script"
    rm -f "$HC_DIR/servers/$name/log/server.log"
    log "adding $name to server group $DOMAIN_GROUP on $DOMAIN_HOST (port offset $offset, HTTP $(http_port "$offset"))"
    local asked=$SECONDS
    domain_cli_file "$script" >/dev/null || die "adding $name failed"
    wait_servers "$asked" "$name" || die "$name did not start; its log: $HC_DIR/servers/$name/log/server.log"

    SERVERS=$(domain_servers) || die "could not read the servers of $DOMAIN_HOST"
    if domain_cli --command="/server-group=$DOMAIN_GROUP/deployment=siebog.ear:read-resource" >/dev/null 2>&1; then
        wait_rest || exit 1
        wait_cluster || exit 1
        log "$name is up: http://127.0.0.1:$(http_port "$offset")/siebog/api, cluster view [$(view_members "$(awk -F'\t' -v n="$name" '$1 == n { print $5 }' <<<"$SERVERS")")]"
    else
        log "$name is up at http://127.0.0.1:$(http_port "$offset"); siebog.ear is not deployed, so there is no cluster yet"
    fi
}

# --- status ---------------------------------------------------------------------------------------

domain_status() {
    local name status offset group view url
    printf 'domain controller  remote+http://127.0.0.1:%s  (PID %s, %s)\n' "$DC_PORT" "$(cat "$DC_DIR/pid")" "$DC_DIR"
    if ! pid_alive "$HC_DIR/pid"; then
        printf 'host controller    %s  NOT RUNNING (./siebog domain stop, then start)\n' "$DOMAIN_HOST"
        return 1
    fi
    printf 'host controller    %s  (PID %s, %s)\n\n' "$DOMAIN_HOST" "$(cat "$HC_DIR/pid")" "$HC_DIR"
    SERVERS=$(domain_servers) || die "could not read the servers of $DOMAIN_HOST"
    printf '%-12s %-10s %-8s %-36s %s\n' SERVER STATE GROUP URL "CLUSTER VIEW"
    while IFS=$'\t' read -r name status offset group view; do
        [[ -n $name ]] || continue
        url="http://127.0.0.1:$(http_port "$offset")/siebog/api"
        [[ $view == no-view || -z $view ]] && view="-" || view="[$(view_members "$view")]"
        printf '%-12s %-10s %-8s %-36s %s\n' "$name" "$status" "$group" "$url" "$view"
    done <<<"$SERVERS"
    printf '\ndeployments of server group %s:\n' "$DOMAIN_GROUP"
    local deployments
    deployments=$(domain_cli --command="deployment-info --server-group=$DOMAIN_GROUP" 2>&1 || true)
    printf '%s\n' "${deployments:-(none)}" | sed 's/^/  /'
    printf '\nGET /siebog/api/nodes:\n'
    local body code
    while IFS=$'\t' read -r name status offset group view; do
        [[ $status == STARTED ]] || continue
        url="http://127.0.0.1:$(http_port "$offset")/siebog/api/nodes"
        body=$(printf 'user = "admin:%s"\n' "$ADMIN_PASSWORD" | curl -sS -K - --max-time 5 -w '\n%{http_code}' "$url" 2>&1 || true)
        code=${body##*$'\n'}
        [[ $code == 200 ]] && body=${body%$'\n'*} || body="HTTP $code (is siebog.ear deployed?)"
        printf '  %-10s %s\n' "$name" "$body"
    done <<<"$SERVERS"
}

# --- stop -----------------------------------------------------------------------------------------

# A process and all its descendants (the process controller's are the host controller and servers).
process_tree() {
    local pid=$1 child
    echo "$pid"
    for child in $(pgrep -P "$pid" 2>/dev/null); do
        process_tree "$child"
    done
}

# Stops the process controller in a PID file: SIGTERM (it stops its host controller and servers
# cleanly), then SIGKILL to whatever of its tree is left after 60 s.
stop_controller() {
    local what=$1 dir=$2 pid tree p alive
    pid_alive "$dir/pid" || { rm -f "$dir/pid"; return 0; }
    pid=$(cat "$dir/pid")
    # Never signal a recycled PID: it must be this domain's process controller.
    if ! ps -ww -o args= -p "$pid" 2>/dev/null | grep -qF -- "$(cd "$dir" && pwd -P)/log/process-controller.log"; then
        log "PID $pid in $dir/pid is not $what any more; leaving it alone"
        rm -f "$dir/pid"
        return 0
    fi
    tree=$(process_tree "$pid")
    log "stopping $what (PID $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
        alive=0
        for p in $tree; do kill -0 "$p" 2>/dev/null && alive=1; done
        ((alive)) || break
        sleep 1
    done
    if ((alive)); then
        log "$what did not stop within 60 s; killing it"
        for p in $tree; do kill -9 "$p" 2>/dev/null || true; done
    fi
    rm -f "$dir/pid"
}

domain_stop() {
    if ! domain_running; then
        log "no domain is running in $DOMAIN_DIR"
        return 0
    fi
    stop_controller "host controller $DOMAIN_HOST" "$HC_DIR"
    stop_controller "the domain controller" "$DC_DIR"
    log "the domain is stopped"
}
