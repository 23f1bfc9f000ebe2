#!/usr/bin/env bash
# Siebog's accounts in WildFly's application realm (ApplicationRealm: the application-users and
# application-roles properties files of a configuration directory), made with WildFly's own
# add-user.sh: Elytron checks the passwords, Siebog never does.
#
# Usage: launcher/users.sh WILDFLY_HOME CONFIG_DIR CREDENTIALS_FILE NAME:ROLE[,ROLE] ...
#   Adds (or updates) each NAME with its roles in CONFIG_DIR. Its password: $SIEBOG_<NAME>_PASSWORD
#   when set (e.g. SIEBOG_ADMIN_PASSWORD), else the one CREDENTIALS_FILE holds for NAME, else a new
#   random one, written there. CREDENTIALS_FILE is a properties file (NAME=password lines, mode 600)
#   that lives under target/ and is never committed; passwords from the environment are not written
#   to it. Prints the names whose password it generated (one per line) on standard output.
set -euo pipefail

wildfly_home=${1:?usage: users.sh WILDFLY_HOME CONFIG_DIR CREDENTIALS_FILE NAME:ROLES ...}
config_dir=${2:?no CONFIG_DIR}
credentials=${3:?no CREDENTIALS_FILE}
shift 3

stored_password() {
    [[ -f $credentials ]] || return 0
    sed -n "s/^$1=//p" "$credentials" | tail -n 1
}

random_password() {
    # 24 letters and digits from the kernel's CSPRNG (about 140 bits); no pipe cut short (pipefail).
    local raw
    raw=$(head -c 64 /dev/urandom | base64 -w 0 | tr -d '+/=')
    printf '%s' "${raw:0:24}"
}

mkdir -p "$(dirname "$credentials")"
umask 077
for spec in "$@"; do
    name=${spec%%:*} roles=${spec#*:}
    [[ $name =~ ^[a-z][a-z0-9-]*$ ]] || { echo "users.sh: bad user name '$name'" >&2; exit 2; }
    env_var="SIEBOG_$(tr 'a-z-' 'A-Z_' <<<"$name")_PASSWORD"
    password=${!env_var:-}
    if [[ -z $password ]]; then
        password=$(stored_password "$name")
        if [[ -z $password ]]; then
            password=$(random_password)
            printf '%s=%s\n' "$name" "$password" >>"$credentials"
            echo "$name"
        fi
    fi
    chmod 600 "$credentials" 2>/dev/null || true
    # -sc: this configuration directory only (a node's own copy), never the dist's standalone/.
    JBOSS_HOME="$wildfly_home" "$wildfly_home/bin/add-user.sh" -a -s -sc "$config_dir" \
        -u "$name" -p "$password" -g "$roles" >/dev/null \
        || { echo "users.sh: add-user.sh could not add $name" >&2; exit 1; }
done
