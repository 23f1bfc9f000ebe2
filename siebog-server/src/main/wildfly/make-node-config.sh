#!/usr/bin/env bash
# Writes WildFly's standalone/configuration/siebog-ha.xml: standalone-ha.xml with
# cluster-profile.cli applied offline (embedded server, nothing listens). Every standalone node
# runs this file: ./siebog run, the integration tests and the Docker image.
# Usage: make-node-config.sh <wildfly home>
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
wildfly_home=${1:?usage: make-node-config.sh <wildfly home>}
config_dir="$wildfly_home/standalone/configuration"
target="$config_dir/siebog-ha.xml"

if [[ -f $target && $target -nt $here/cluster-profile.cli && $target -nt ${BASH_SOURCE[0]} ]]; then
    exit 0 # up to date
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/configuration"
cp "$config_dir/standalone-ha.xml" "$work/configuration/siebog-ha.xml"
cp "$config_dir"/*.properties "$work/configuration/"
cat >"$work/make.cli" <<CLI
embed-server --server-config=siebog-ha.xml --std-out=discard
# Standalone-only parts (a domain has its own socket groups and profiles) around the shared profile.
/socket-binding-group=standard-sockets/socket-binding=jgroups-tcp-fd:add(interface=private, port=57600)
run-batch --file=$here/cluster-profile.cli
/socket-binding-group=standard-sockets/socket-binding=modcluster:remove()
/extension=org.jboss.as.modcluster:remove()
stop-embedded-server
CLI
# Elytron opens the cluster's keystore even in the embedded (admin-only) server: a throwaway one here,
# never written into the configuration (which names only the expressions); each node brings its own.
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/throwaway-secret"
SIEBOG_CLUSTER_SECRET=$(cat "$work/throwaway-secret") java "$here/ClusterKeystore.java" "$work/throwaway.p12" >"$work/keystore.log" 2>&1 || {
    cat "$work/keystore.log" >&2
    echo "make-node-config: could not make a throwaway keystore" >&2
    exit 1
}
SIEBOG_CLUSTER_SECRET=$(cat "$work/throwaway-secret") \
JAVA_OPTS="-Djboss.server.base.dir=$work -Dsiebog.cluster.keystore=$work/throwaway.p12" "$wildfly_home/bin/jboss-cli.sh" --file="$work/make.cli" >"$work/cli.log" 2>&1 || {
    cat "$work/cli.log" >&2
    echo "make-node-config: applying cluster-profile.cli failed" >&2
    exit 1
}
cp "$work/configuration/siebog-ha.xml" "$target"
echo "make-node-config: wrote $target"
