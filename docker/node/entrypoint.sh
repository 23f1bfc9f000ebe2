#!/usr/bin/env bash
# Starts one Siebog node in a container: WildFly standalone on siebog-ha.xml, the same node
# configuration as every local node. Arguments are passed on to standalone.sh (e.g. -Dx=y).
#
# Environment (docker/README.md has the details):
#   SIEBOG_NODE_NAME        the node's name (jboss.node.name); default: the container's hostname
#   SIEBOG_CLUSTER_HOSTS    discovery by host list: "host[port],host[port],..." (TCPPING, port 7600)
#   SIEBOG_CLUSTER_DNS      discovery by DNS when SIEBOG_CLUSTER_HOSTS is unset: every IPv4 address
#                           the name resolves to (a compose service, a headless Kubernetes service)
#   SIEBOG_CLUSTER_PORT     the JGroups port used with SIEBOG_CLUSTER_DNS; default 7600
#   SIEBOG_PRIVATE_ADDRESS  the address JGroups binds and other nodes reach this one at; default:
#                           this container's own IPv4 address (never 0.0.0.0)
#   SIEBOG_PLATFORM, SIEBOG_CASSANDRA_CONTACT_POINTS, SIEBOG_CASSANDRA_LOCAL_DC
#                           -> siebog.platform, siebog.cassandra.contact-points,
#                              siebog.cassandra.local-datacenter
#   JAVA_OPTS               JVM options; default -Xms1g -Xmx1g, as `./siebog run` gives its nodes
#   SIEBOG_ADMIN_PASSWORD_FILE, SIEBOG_ADMIN_PASSWORD
#                           the REST API's admin password (role siebog-admin): a file (a Docker or
#                           Kubernetes secret) or the value itself. Required: the image has none.
#   SIEBOG_CLUSTER_SECRET_FILE, SIEBOG_CLUSTER_SECRET
#                           the cluster secret (docs/security.md, "Between nodes"): a file or the value,
#                           the same on every node of the cluster, at least 16 characters. Required: the
#                           image has none. The TLS key and certificate of cluster traffic are derived from it.
set -euo pipefail

say() { echo "siebog-node: $*" >&2; }
die() { say "$*"; exit 1; }

JBOSS_HOME=${JBOSS_HOME:-/opt/wildfly}
cluster_port=${SIEBOG_CLUSTER_PORT:-7600}
ipv4='^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$'

# This container's own IPv4 address: what its hostname resolves to, unless that is a loopback
# address (host networking on some distributions), then the first address of its interfaces.
own_address() {
    local address
    address=$(getent ahostsv4 "$(hostname)" 2>/dev/null | awk '$1 !~ /^127\./ { print $1; exit }')
    if [[ -z $address ]]; then
        address=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E "$ipv4" | grep -v '^127\.' | head -n 1 || true)
    fi
    echo "$address"
}

# "a[port],b[port],..." for every IPv4 address of a DNS name, this node's own included. Other nodes
# may not be resolvable yet; the ones that start later find this one through their own lookup.
hosts_from_dns() {
    local name=$1 self=$2 addresses tries=0
    while :; do
        addresses=$(getent ahostsv4 "$name" 2>/dev/null | awk '{ print $1 }' | sort -u || true)
        [[ -n $addresses || $tries -ge 10 ]] && break
        tries=$((tries + 1))
        sleep 1
    done
    [[ -n $addresses ]] || say "$name resolves to no IPv4 address yet; starting with this node alone"
    printf '%s\n' "$self" "$addresses" | grep -v '^$' | sort -u | sed "s/\$/[$cluster_port]/" | paste -sd, -
}

node_name=${SIEBOG_NODE_NAME:-$(hostname)}
[[ -n $node_name ]] || die "no node name: set SIEBOG_NODE_NAME"

private_address=${SIEBOG_PRIVATE_ADDRESS:-$(own_address)}
[[ -n $private_address ]] || die "cannot tell this container's address: set SIEBOG_PRIVATE_ADDRESS"
[[ $private_address != 0.0.0.0 ]] || die "SIEBOG_PRIVATE_ADDRESS must be an address other nodes can reach, not 0.0.0.0"

if [[ -n ${SIEBOG_CLUSTER_HOSTS:-} ]]; then
    cluster_hosts=$SIEBOG_CLUSTER_HOSTS
elif [[ -n ${SIEBOG_CLUSTER_DNS:-} ]]; then
    cluster_hosts=$(hosts_from_dns "$SIEBOG_CLUSTER_DNS" "$private_address")
else
    cluster_hosts="${private_address}[$cluster_port]"
    say "neither SIEBOG_CLUSTER_HOSTS nor SIEBOG_CLUSTER_DNS is set: this node forms a cluster of its own"
fi
cluster_hosts=${cluster_hosts// /}
[[ $cluster_hosts =~ ^[^],[]+\[[0-9]+\](,[^],[]+\[[0-9]+\])*$ ]] ||
    die "SIEBOG_CLUSTER_HOSTS must look like host[port],host[port],... (got '$cluster_hosts')"

# The REST API's admin, in this node's application realm (WildFly's add-user.sh; docs/security.md).
admin_password=""
if [[ -n ${SIEBOG_ADMIN_PASSWORD_FILE:-} ]]; then
    [[ -r $SIEBOG_ADMIN_PASSWORD_FILE ]] || die "SIEBOG_ADMIN_PASSWORD_FILE names $SIEBOG_ADMIN_PASSWORD_FILE, which cannot be read"
    admin_password=$(head -n 1 "$SIEBOG_ADMIN_PASSWORD_FILE")
else
    admin_password=${SIEBOG_ADMIN_PASSWORD:-}
fi
[[ -n $admin_password ]] || die "no admin password: set SIEBOG_ADMIN_PASSWORD_FILE (a secret) or SIEBOG_ADMIN_PASSWORD; the image has no default"
"$JBOSS_HOME/bin/add-user.sh" -a -s -u admin -p "$admin_password" -g siebog-admin >/dev/null ||
    die "add-user.sh could not create the admin account"
unset admin_password SIEBOG_ADMIN_PASSWORD

# The cluster secret: WildFly reads it from the environment (cluster-profile.cli), so it is on no
# command line; the keystore with the TLS key and certificate derived from it is made here, in the container only.
if [[ -n ${SIEBOG_CLUSTER_SECRET_FILE:-} ]]; then
    [[ -r $SIEBOG_CLUSTER_SECRET_FILE ]] || die "SIEBOG_CLUSTER_SECRET_FILE names $SIEBOG_CLUSTER_SECRET_FILE, which cannot be read"
    SIEBOG_CLUSTER_SECRET=$(head -n 1 "$SIEBOG_CLUSTER_SECRET_FILE")
fi
[[ -n ${SIEBOG_CLUSTER_SECRET:-} ]] ||
    die "no cluster secret: set SIEBOG_CLUSTER_SECRET_FILE (a secret) or SIEBOG_CLUSTER_SECRET, the same on every node; the image has none"
[[ ${#SIEBOG_CLUSTER_SECRET} -ge 16 && $SIEBOG_CLUSTER_SECRET != *[[:space:]]* ]] ||
    die "the cluster secret must be one line of at least 16 characters, no spaces (e.g. 32 random letters and digits)"
export SIEBOG_CLUSTER_SECRET
cluster_keystore=/opt/siebog/run/cluster.p12   # the image makes the directory, mode 700, the node's user's
(umask 077 && java -cp /opt/siebog/tools ClusterKeystore "$cluster_keystore") ||
    die "could not make the cluster keystore from the cluster secret"

args=(
    -c siebog-ha.xml
    -Djboss.node.name="$node_name"
    -Djboss.bind.address=0.0.0.0
    -Djboss.bind.address.management=0.0.0.0
    -Djboss.bind.address.private="$private_address"
    -Dsiebog.cluster.hosts="$cluster_hosts"
    -Dsiebog.cluster.keystore="$cluster_keystore"
)
[[ -z ${SIEBOG_PLATFORM:-} ]] || args+=(-Dsiebog.platform="$SIEBOG_PLATFORM")
[[ -z ${SIEBOG_CASSANDRA_CONTACT_POINTS:-} ]] ||
    args+=(-Dsiebog.cassandra.contact-points="$SIEBOG_CASSANDRA_CONTACT_POINTS")
[[ -z ${SIEBOG_CASSANDRA_LOCAL_DC:-} ]] ||
    args+=(-Dsiebog.cassandra.local-datacenter="$SIEBOG_CASSANDRA_LOCAL_DC")

# What WildFly's standalone.conf would add, were JAVA_OPTS unset; the heap is the part to override.
export JAVA_OPTS="${JAVA_OPTS:--Xms1g -Xmx1g} -Djava.net.preferIPv4Stack=true -Djava.awt.headless=true -Djboss.modules.system.pkgs=org.jboss.byteman"
# standalone.sh then runs the JVM as its child and relays TERM/INT to it: `docker stop` is a
# clean shutdown.
export LAUNCH_JBOSS_IN_BACKGROUND=1

say "node $node_name, JGroups on $private_address, cluster hosts $cluster_hosts"
exec "$JBOSS_HOME/bin/standalone.sh" "${args[@]}" "$@"
