# Sourced by the Docker scripts: run a long step with its output in a log, saying every 15 s
# how long it has run and what it is doing (the log's last step line), so no step is silent.
#   with_progress LABEL LOG COMMAND...    (the command's exit status is returned)
with_progress() {
    local label=$1 log=$2
    shift 2
    "$@" >"$log" 2>&1 &
    local pid=$! start=$SECONDS next=15 line
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1
        if ((SECONDS - start >= next)); then
            # a build's step lines ("#7 [build 3/8] RUN ..."), else whatever came last
            line=$(grep -E '^#[0-9]+ \[' "$log" | tail -n 1 || true)
            line=${line:-$(tail -n 1 "$log" 2>/dev/null || true)}
            printf '%s: %d s, %s\n' "$label" "$((SECONDS - start))" "${line:0:110}"
            next=$((next + 15))
        fi
    done
    wait "$pid"
}
