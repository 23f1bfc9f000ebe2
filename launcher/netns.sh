# shellcheck shell=bash
# Sourced by ./siebog: a network of its own for a local cluster (run --netns), where links between
# nodes can be cut and healed (cut, heal) as a real network splits — for fault tests and for trying
# them by hand (docs/cluster.md, "Trying a split by hand").
#
# Each node runs in a network namespace of its own, joined to the others by a veth pair to one bridge
# per cluster. The addresses come from the port offset of node1, so that two clusters never meet:
# id = (offset / 100) mod 256, subnet 198.18.<id>.0/24 (RFC 2544's benchmarking range, never a real
# network), the bridge 198.18.<id>.1 (so that the host, its tests and its browsers reach every node),
# node k 198.18.<id>.<10+k>. A cut is a blackhole route inside a namespace: the node's packets to that
# address are dropped silently, as a broken network drops them (no iptables or nftables needed, only
# iproute2). Only ever between the nodes of this cluster: every route names one of its own addresses.

NETWORK_FILE="$NODES_DIR/network"

netns_id() { echo $((($1 / 100) % 256)); }
netns_name() { echo "siebog$1n$2"; }            # namespace of node k: siebog<id>n<k>
netns_bridge() { echo "sbbr$1"; }
netns_address() { echo "198.18.$1.$((10 + $2))"; }

netns_require() {
    ((EUID == 0)) || die "--netns needs root (network namespaces, veth pairs and a bridge)"
    command -v ip >/dev/null || die "--netns needs iproute2's ip"
}

# netns_up ID NODES: the bridge and one namespace per node, after removing what a crashed run left.
netns_up() {
    local id=$1 nodes=$2 k ns bridge
    bridge=$(netns_bridge "$id")
    netns_remove "$id"
    ip link add "$bridge" type bridge || die "could not create bridge $bridge"
    ip addr add "198.18.$id.1/24" dev "$bridge"
    ip link set "$bridge" up
    for ((k = 1; k <= nodes; k++)); do
        ns=$(netns_name "$id" "$k")
        ip netns add "$ns" || die "could not create network namespace $ns"
        ip link add "sb${id}n$k" type veth peer name eth0 netns "$ns"
        ip link set "sb${id}n$k" master "$bridge" up
        ip -n "$ns" addr add "$(netns_address "$id" "$k")/24" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
    done
    printf 'id=%s\nnodes=%s\n' "$id" "$nodes" >"$NETWORK_FILE"
}

# netns_remove ID: the namespaces, veth pairs and the bridge of that id. The veth pairs go first: a
# namespace outlives its deletion while a process is still in it (a node's start script exits just
# after its JVM), and its end of the pair with it.
netns_remove() {
    local id=$1 ns link
    for link in $(ip -o link show 2>/dev/null | awk -F': ' -v p="^sb${id}n[0-9]+(@|$)" '$2 ~ p { sub(/@.*/, "", $2); print $2 }'); do
        ip link delete "$link" 2>/dev/null || true
    done
    for ns in $(ip netns list 2>/dev/null | awk -v p="^siebog${id}n[0-9]+$" '$1 ~ p { print $1 }'); do
        ip netns delete "$ns"
    done
    ip link show "$(netns_bridge "$id")" >/dev/null 2>&1 && ip link delete "$(netns_bridge "$id")"
    return 0
}

# netns_down: takes down the network of this nodes dir, if it has one.
netns_down() {
    [[ -f $NETWORK_FILE ]] || return 0
    local id
    id=$(sed -n 's/^id=//p' "$NETWORK_FILE")
    netns_remove "$id"
    rm -f "$NETWORK_FILE"
    log "removed the cluster's network (bridge $(netns_bridge "$id") and its namespaces)"
}

# netns_node NAME: the number k of node NAME (nodek) of this run's network; dies when there is none.
netns_node() {
    [[ -f $NETWORK_FILE ]] || die "this cluster has no network of its own to cut: start it with ./siebog run --netns"
    local name=$1 nodes
    nodes=$(sed -n 's/^nodes=//p' "$NETWORK_FILE")
    [[ $name =~ ^node([0-9]+)$ ]] && ((BASH_REMATCH[1] >= 1 && BASH_REMATCH[1] <= nodes)) \
        || die "unknown node '$name' (this cluster has node1 to node$nodes)"
    echo "${BASH_REMATCH[1]}"
}

# cmd_cut A B [--one-way]: A's packets to B are dropped, and B's to A unless --one-way.
cmd_cut() {
    local a=${1:?usage: ./siebog cut NODE NODE [--one-way]} b=${2:?usage: ./siebog cut NODE NODE [--one-way]} one_way=0 id ka kb
    [[ ${3:-} != --one-way ]] || one_way=1
    [[ -z ${3:-} || $one_way == 1 ]] || die "unknown option for cut: $3"
    ka=$(netns_node "$a") kb=$(netns_node "$b")
    [[ $ka != "$kb" ]] || die "a node cannot be cut from itself"
    id=$(sed -n 's/^id=//p' "$NETWORK_FILE")
    ip -n "$(netns_name "$id" "$ka")" route replace blackhole "$(netns_address "$id" "$kb")/32"
    ((one_way)) || ip -n "$(netns_name "$id" "$kb")" route replace blackhole "$(netns_address "$id" "$ka")/32"
    log "cut $a -> $b$( ((one_way)) || echo " and $b -> $a")"
}

# cmd_heal [A B]: removes the cuts between A and B, or every cut.
cmd_heal() {
    [[ -f $NETWORK_FILE ]] || die "this cluster has no network of its own to heal: start it with ./siebog run --netns"
    local id nodes k route pair=()
    id=$(sed -n 's/^id=//p' "$NETWORK_FILE") nodes=$(sed -n 's/^nodes=//p' "$NETWORK_FILE")
    if (($#)); then
        (($# == 2)) || die "usage: ./siebog heal [NODE NODE]"
        pair=("$(netns_node "$1")" "$(netns_node "$2")")
        ip -n "$(netns_name "$id" "${pair[0]}")" route del blackhole "$(netns_address "$id" "${pair[1]}")/32" 2>/dev/null || true
        ip -n "$(netns_name "$id" "${pair[1]}")" route del blackhole "$(netns_address "$id" "${pair[0]}")/32" 2>/dev/null || true
        log "healed $1 <-> $2"
        return 0
    fi
    for ((k = 1; k <= nodes; k++)); do
        for route in $(ip -n "$(netns_name "$id" "$k")" route show type blackhole 2>/dev/null | awk '{ print $2 }'); do
            ip -n "$(netns_name "$id" "$k")" route del blackhole "$route"
        done
    done
    log "healed every cut"
}
