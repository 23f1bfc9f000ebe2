# Sourced by the perf/ scripts whose usage is their opening comment: with --help or -h among the
# arguments, prints that comment (every line after the shebang up to the first that is not a
# comment) and exits, before anything is built or started.
help_if_asked() {
    local arg
    for arg in "$@"; do
        if [[ $arg == --help || $arg == -h ]]; then
            awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
            exit 0
        fi
    done
}
