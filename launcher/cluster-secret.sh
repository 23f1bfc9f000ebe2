#!/usr/bin/env bash
# The cluster secret (docs/security.md, "Between nodes"): what every node of one cluster must share to
# join it and to read its traffic. One line of 32 random letters and digits, made once (mode 600) and
# reused; it lives under target/ and is never committed. From it come the AUTH token (JGroups checks
# its digest on every join and merge) and, by ClusterKeystore, the key pair and certificate of the TLS
# that all cluster traffic travels in: nodes that have the secret make the same ones by themselves. A node gets the
# secret in its environment (SIEBOG_CLUSTER_SECRET), never on a command line that ps would show, and
# the keystore's path as -Dsiebog.cluster.keystore.
#
# Usage: launcher/cluster-secret.sh SECRET_FILE [KEYSTORE]
#   Makes SECRET_FILE when it is missing (and prints "new" on standard output); with KEYSTORE, writes
#   the keystore derived from the secret there (mode 600).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
secret_file=${1:?usage: cluster-secret.sh SECRET_FILE [KEYSTORE]}
keystore=${2:-}
umask 077
mkdir -p "$(dirname "$secret_file")"

if [[ ! -s $secret_file ]]; then
    # 32 letters and digits from the kernel's CSPRNG (about 190 bits); no pipe cut short (pipefail).
    raw=$(head -c 96 /dev/urandom | base64 -w 0 | tr -d '+/=')
    printf '%s\n' "${raw:0:32}" >"$secret_file.tmp"
    mv "$secret_file.tmp" "$secret_file"
    echo new
fi
chmod 600 "$secret_file"
secret=$(head -n 1 "$secret_file")
[[ ${#secret} -ge 16 && $secret != *[[:space:]]* ]] ||
    { echo "cluster-secret.sh: the secret in $secret_file must be one line of at least 16 characters, no spaces" >&2; exit 1; }

if [[ -n $keystore ]]; then
    # A JDK runs the source file as it is (the Docker image runs the compiled class instead).
    SIEBOG_CLUSTER_SECRET="$secret" java "$here/../siebog-server/src/main/wildfly/ClusterKeystore.java" "$keystore" ||
        { echo "cluster-secret.sh: could not write the cluster keystore $keystore" >&2; exit 1; }
fi
