#!/usr/bin/env bash
# The Docker image, built and played: `.ci/run` runs this after the test suite.
#
#   scripts/docker-smoke.sh        (as root where dockerd is not running yet; ~2-4 min warm)
#
# 1. starts dockerd when none answers (in the background; stopped again at the end);
# 2. provides the base image: $SMOKE_BASE if set, else python:3.11-slim-bookworm (pulled),
#    else, with no registry reachable, one made from Debian packages (scripts/docker-base.sh);
# 3. builds the image with scripts/docker-build.sh (BuildKit; pip's CA and index as secrets);
# 4. runs it as `docker run --read-only -v VOLUME:/data` on a non-default RIICHI_PORT, waits
#    for the image's own health check to say healthy;
# 5. plays one all-bot game through the HTTP API, `docker restart`s the container mid-game and
#    checks the game resumes (status playing again, then finished, no decision lost) and that
#    its record replays (`python -m engine.replay check` inside the image);
# 6. `docker stop`: exit code 0, and the logs hold no seat token and no traceback;
# 7. a root-owned bind mount as /data: the server exits 73 with one clear line, no traceback;
# 8. the README's command, `scripts/docker-build.sh && docker-compose up` (`docker compose` where
#    the plugin is), serves a game; its "scale" profile's two nodes share Redis and PostgreSQL
#    (images made from Debian packages by scripts/docker-services.sh where none can be pulled).
# Every container, volume and folder it makes is removed on exit, also on failure; the image
# (riichi:smoke) and the bases stay, so a second run builds from cache. SMOKE_TIMEOUT (s, default
# 2400: from an empty Docker it makes four Debian images and compiles the engine) bounds the
# whole run; SMOKE_NO_CACHE=1 builds from scratch (a cold build time).
set -euo pipefail
if [ -z "${SMOKE_INNER:-}" ]; then  # the whole run under one time limit
    SMOKE_INNER=1 exec timeout -k 15 "${SMOKE_TIMEOUT:-2400}" "$0" "$@"
fi
cd "$(dirname "$0")/.."

DOCKER=${DOCKER:-$(command -v /usr/bin/docker || command -v docker)}  # Debian's client: BuildKit built in
IMAGE=${SMOKE_IMAGE:-riichi:smoke}
NAME=riichi-smoke
VOLUME=riichi-smoke-data
# A tonpuusen of all bots paced at 0.05 s a decision lasts ~15-30 s: long enough to restart
# it mid-game and see it playing again, short enough for CI.
PACE=${SMOKE_BOT_PACE_S:-0.05}
STARTED=$(date +%s)
WORK=$(mktemp -d /tmp/riichi-smoke.XXXXXX)
DOCKERD_PID=""
FAILURES=()

say() { printf '[smoke %3ds] %s\n' "$(($(date +%s) - STARTED))" "$*"; }
fail() { say "FAIL: $*"; FAILURES+=("$*"); }
# The image's own engine replays a record piped in (only /data is writable in there).
# shellcheck disable=SC2016  # expanded by the container's shell
REPLAY_CHECK='cat >/data/smoke.json && python3 -m engine.replay check /data/smoke.json; s=$?; rm -f /data/smoke.json; exit $s'
json() { python3 -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

cleanup() {
    "$DOCKER" rm -f "$NAME" "$NAME-root" >/dev/null 2>&1 || true
    if [ -n "${PROJECT:-}" ]; then  # the compose projects of step 8, their volumes too
        "${COMPOSE[@]}" -p riichi-smoke down -v >/dev/null 2>&1 || true
        "${COMPOSE[@]}" -p riichi-smoke-scale --profile scale down -v >/dev/null 2>&1 || true
    fi
    "$DOCKER" volume rm -f "$VOLUME" >/dev/null 2>&1 || true
    rm -rf "$WORK"
    if [ -n "$DOCKERD_PID" ]; then
        kill "$DOCKERD_PID" 2>/dev/null || true
        wait "$DOCKERD_PID" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'say "interrupted"; exit 124' TERM INT

# --- 1. dockerd ---------------------------------------------------------------------------
if ! "$DOCKER" info >/dev/null 2>&1; then
    say "starting dockerd"
    dockerd >"$WORK/dockerd.log" 2>&1 &
    DOCKERD_PID=$!
    for _ in $(seq 60); do "$DOCKER" info >/dev/null 2>&1 && break; sleep 1; done
    "$DOCKER" info >/dev/null 2>&1 || { tail -n 20 "$WORK/dockerd.log"; exit 1; }
fi
cleanup_leftovers() { "$DOCKER" rm -f "$NAME" "$NAME-root" >/dev/null 2>&1 || true; }
cleanup_leftovers
"$DOCKER" volume rm -f "$VOLUME" >/dev/null 2>&1 || true

# --- 2-3. the base image and the build (scripts/docker-build.sh) ------------------------------
say "building $IMAGE"
BASE=${SMOKE_BASE:-${BASE:-}} NO_CACHE=${SMOKE_NO_CACHE:-} DOCKER=$DOCKER \
    scripts/docker-build.sh "$IMAGE" | tee "$WORK/build.out"
built=$(tail -n 1 "$WORK/build.out")  # "docker-build: built TAG in S s, image size N MB"
build_s=$(sed -n 's/.* in \([0-9.]*\) s,.*/\1/p' <<<"$built")
size=$(sed -n 's/.*image size //p' <<<"$built")
[ "$("$DOCKER" image inspect -f '{{.Config.User}}' "$IMAGE")" = "10001:10001" ] || fail "the image does not run as uid 10001"
# The release is on the image (OCI label) and in the server it runs, from the one source.
release=$(sed -n 's/^VERSION = "\(.*\)"$/\1/p' server/version.py)
labelled=$("$DOCKER" image inspect -f '{{index .Config.Labels "org.opencontainers.image.version"}}' "$IMAGE")
[ "$labelled" = "$release" ] || fail "the image's version label is '$labelled', not $release"
served=$("$DOCKER" run --rm --read-only "$IMAGE" python3 -m server --version)
[ "$served" = "riichi-server $release" ] || fail "python -m server --version in the image: $served"
# Every installed module byte-compiled (nothing to write on a read-only root), no pip left.
uncompiled=$("$DOCKER" run --rm --read-only "$IMAGE" python3 -c '
import importlib.util, pathlib, sysconfig
site = pathlib.Path(sysconfig.get_paths()["purelib"])
print(sum(not pathlib.Path(importlib.util.cache_from_source(str(p))).exists() for p in site.rglob("*.py")),
      "pip" if (site / "pip").exists() else "")')
[ "$uncompiled" = "0 " ] || fail "modules without .pyc, or pip, in the image: $uncompiled"
# The engine's hot modules run compiled (engine/native.py), on the read-only root as served,
engine=$("$DOCKER" run --rm --read-only "$IMAGE" python3 -c 'import engine.native as n; print(n.describe())')
case "$engine" in compiled*) say "engine: $engine" ;; *) fail "the image's engine: $engine" ;; esac
# and so do the server's (server/native.py): its build stage once lacked their libraries
server=$("$DOCKER" run --rm --read-only "$IMAGE" python3 -c 'import server.native as s; print(s.SERVER.describe())')
case "$server" in compiled*) say "server: $server" ;; *) fail "the image's server: $server" ;; esac
history=$("$DOCKER" history --no-trunc "$IMAGE")
if grep -q -i -E 'BEGIN CERTIFICATE|index-url' <<<"$history"; then fail "a pip secret is in the image history"; fi

# --- 4. run: read-only root, only the volume writable ------------------------------------------
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$PORT
"$DOCKER" run -d --name "$NAME" --read-only -v "$VOLUME:/data" -p "127.0.0.1:$PORT:8080" \
    -e RIICHI_PORT=8080 -e RIICHI_BOT_PACE_S="$PACE" --health-interval 2s \
    "$IMAGE" >/dev/null
wait_healthy() {  # the image's HEALTHCHECK, on the non-default port, says healthy
    local health=""
    for _ in $(seq 120); do
        health=$("$DOCKER" inspect -f '{{.State.Health.Status}}' "$NAME")
        [ "$health" = healthy ] && return 0
        sleep 1
    done
    fail "the container is not healthy after 120 s ($health)"
    "$DOCKER" logs --tail 20 "$NAME" 2>&1
    return 1
}
wait_healthy || exit 1
say "healthy on RIICHI_PORT=8080"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/")" = 200 ] || fail "/ does not serve the web page"

# A seat token (a table with one human seat) that must never reach the logs: the client's
# hello frame carries it, as the protocol says, and the state endpoint its bearer header.
grant=$(curl -sf -X POST "$URL/api/rooms" -H 'content-type: application/json' -d '{"bots": 3}')
TOKEN=$(echo "$grant" | json 'd.get("token", "")')
HUMAN_GAME=$(echo "$grant" | json 'd.get("room", d).get("game", "")')
[ -n "$TOKEN" ] || fail "creating a room with a human seat gave no token"
# The hello goes over a WebSocket spoken with the standard library alone (RFC 6455: the upgrade,
# then one masked text frame), so the check runs on a host without the websockets package.
python3 - "$PORT" "$TOKEN" <<'EOF' || fail "no WebSocket hello could be sent"
import base64, json, os, socket, sys

port, token = int(sys.argv[1]), sys.argv[2]
with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{port}\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    status = answer.split(b"\r\n", 1)[0]
    if not status.startswith(b"HTTP/1.1 101"):
        sys.exit(f"the upgrade got {status!r}")
    payload = json.dumps({"type": "hello", "token": token}).encode()
    mask = os.urandom(4)
    size = len(payload)
    length = bytes([0x80 | size]) if size < 126 else bytes([0xFE]) + size.to_bytes(2, "big")
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.sendall(bytes([0x81]) + length + mask + masked)
    try:
        sock.recv(4096)  # the server's answer: what it says does not matter here, the logs do
    except OSError:
        pass
print("hello sent over /ws/play")
EOF
curl -s -o /dev/null -H "Authorization: Bearer $TOKEN" "$URL/api/games/$HUMAN_GAME/state" || true

# --- 5. one all-bot game, restarted mid-game --------------------------------------------------
room=$(curl -sf -X POST "$URL/api/rooms" -H 'content-type: application/json' \
    -d '{"preset": "tenhou-tonpuu", "bots": 4}')
CODE=$(echo "$room" | json 'd.get("room", d)["code"]')
GAME=$(echo "$room" | json 'd.get("room", d)["game"]')
say "all-bot game $GAME in room $CODE (RIICHI_BOT_PACE_S=$PACE)"
status() {  # "STATUS DECISIONS": the record's (stored, so it outlives the room), else the room's
    local rec room
    rec=$(curl -sf "$URL/api/games/$GAME/record" 2>/dev/null \
        | json 'd.get("status", "?") + " " + str(len(d.get("decisions") or []))' 2>/dev/null) || rec=""
    if [ -n "$rec" ]; then echo "$rec"; return; fi
    room=$(curl -sf "$URL/api/rooms/$CODE" 2>/dev/null | json 'd["status"]' 2>/dev/null) || room=""
    echo "${room:-down} 0"
}
# Restart once the game is well under way: 40 decisions seen in its record, or (where the
# record of a game in play shows none) after it was seen playing 5 times (1-2 s).
before=0
polls=0
for _ in $(seq 600); do
    read -r st before < <(status)
    if [ "$st" = playing ]; then
        polls=$((polls + 1))
        if [ "$before" -ge 40 ] || [ "$polls" -ge 5 ]; then break; fi
    elif [ "$st" != waiting ]; then
        break
    fi
    sleep 0.1
done
if [ "$st" != playing ]; then
    fail "resume not tried: the game was '$st' after $before decisions, never mid-game (too fast a RIICHI_BOT_PACE_S?)"
else
    say "restarting the container mid-game ($before decisions in its record)"
    t0=$(date +%s.%N)
    "$DOCKER" restart -t 10 "$NAME" >/dev/null
    say "docker restart took $(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')") s"
    seen=()
    for _ in $(seq 1200); do  # at once, not after the health check: a paced game goes on
        read -r st n < <(status)
        [ "${#seen[@]}" -gt 0 ] && [ "${seen[-1]}" = "$st" ] || seen+=("$st")
        [ "$st" = finished ] || [ "$st" = aborted ] && break
        sleep 0.1
    done
    say "after the restart: ${seen[*]} ($n decisions)"
    if [[ " ${seen[*]} " != *" playing "* ]] || [ "$st" != finished ]; then
        fail "the game did not resume: statuses after the restart were '${seen[*]}', not playing then finished"
    elif [ "$n" -le "$before" ]; then
        fail "the finished game has $n decisions, no more than the $before made before the restart"
    elif ! curl -sf "$URL/api/games/$GAME/record?format=tenhou" \
        | "$DOCKER" exec -i "$NAME" sh -c "$REPLAY_CHECK" >"$WORK/check.log" 2>&1; then
        cat "$WORK/check.log"
        fail "the resumed game's record does not replay"
    else
        say "resumed and finished: $(tail -n 1 "$WORK/check.log")"
    fi
    wait_healthy || true
fi

# --- 6. a clean stop -------------------------------------------------------------------------
t0=$(date +%s.%N)
"$DOCKER" stop -t 10 "$NAME" >/dev/null
stop_s=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')")
code=$("$DOCKER" inspect -f '{{.State.ExitCode}}' "$NAME")
say "docker stop took $stop_s s, exit code $code"
[ "$code" = 0 ] || fail "docker stop: exit code $code, not 0"
"$DOCKER" logs "$NAME" >"$WORK/server.log" 2>&1
if [ -n "$TOKEN" ] && grep -q -F "$TOKEN" "$WORK/server.log"; then
    fail "a seat token is in the logs: $(grep -F "$TOKEN" "$WORK/server.log" | head -n 1 | sed "s/$TOKEN/<token>/g")"
fi
if grep -q Traceback "$WORK/server.log"; then
    fail "a traceback is in the logs"
    grep -A 12 -m 1 Traceback "$WORK/server.log"
fi

# --- 7. a /data the server cannot write -------------------------------------------------------
mkdir "$WORK/rootdata" && chmod 755 "$WORK/rootdata"
"$DOCKER" run --name "$NAME-root" --read-only -v "$WORK/rootdata:/data" "$IMAGE" >"$WORK/root.log" 2>&1 || true
code=$("$DOCKER" inspect -f '{{.State.ExitCode}}' "$NAME-root")
if [ "$code" != 73 ] || ! grep -q "cannot write the records" "$WORK/root.log" || grep -q Traceback "$WORK/root.log"; then
    cat "$WORK/root.log"
    fail "a root-owned /data: exit code $code, not 73 with one clear line"
else
    say "root-owned /data: exit 73, $(head -n 1 "$WORK/root.log")"
fi

# --- 8. the README's command: scripts/docker-build.sh && docker-compose up ------------------
# Run as the README says (detached here, on free ports), then the "scale" profile: two nodes on
# Redis and PostgreSQL, made from Debian packages where no registry answers.
if "$DOCKER" compose version >/dev/null 2>&1; then COMPOSE=("$DOCKER" compose); else COMPOSE=(docker-compose); fi
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
CPORT=$(free_port) APORT=$(free_port) BPORT=$(free_port)
compose() {
    RIICHI_PUBLISH_PORT=$CPORT NODE_A_PORT=$APORT NODE_B_PORT=$BPORT \
        "${COMPOSE[@]}" -p "$PROJECT" "$@"
}
wait_up() {  # PORT: /healthz answers within 120 s
    for _ in $(seq 240); do curl -sf "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0; sleep 0.5; done
    return 1
}
room_on() {  # PORT: an all-bot tonpuusen made there; prints "CODE GAME"
    curl -sf -X POST "http://127.0.0.1:$1/api/rooms" -H 'content-type: application/json' \
        -d '{"preset": "tenhou-tonpuu", "bots": 4}' | json 'd.get("room", d)["code"] + " " + d.get("room", d)["game"]'
}
if [ -n "${SMOKE_NO_COMPOSE:-}" ]; then
    say "compose: skipped (SMOKE_NO_COMPOSE)"
elif ! command -v "${COMPOSE[0]}" >/dev/null 2>&1; then
    fail "no docker compose plugin and no docker-compose (apt-get install docker-compose)"
else
    PROJECT=riichi-smoke
    say "the README's command: scripts/docker-build.sh && ${COMPOSE[*]} up (detached, port $CPORT)"
    BASE=${SMOKE_BASE:-${BASE:-}} DOCKER=$DOCKER scripts/docker-build.sh | tail -n 1
    compose up -d >"$WORK/compose.log" 2>&1 || { cat "$WORK/compose.log"; fail "${COMPOSE[*]} up failed"; }
    if ! wait_up "$CPORT"; then
        compose logs --tail 20 2>&1
        fail "${COMPOSE[*]} up: no server on 127.0.0.1:$CPORT"
    else
        read -r code game < <(room_on "$CPORT")
        playing=""
        for _ in $(seq 120); do
            playing=$(curl -sf "http://127.0.0.1:$CPORT/api/rooms/$code" | json 'd["status"]' 2>/dev/null || true)
            [ "$playing" = playing ] && break
            sleep 0.5
        done
        if [ "$playing" = playing ]; then say "compose: the server plays game $game"; else fail "compose: room $code is '$playing', not playing"; fi
    fi
    compose down -v >/dev/null 2>&1 || true

    PROJECT=riichi-smoke-scale
    if [ -z "${REDIS_IMAGE:-}" ] && ! { timeout 60 "$DOCKER" pull -q redis:7-bookworm && timeout 60 "$DOCKER" pull -q postgres:16-bookworm; } >/dev/null 2>&1; then
        say "redis and postgres cannot be pulled: making them from Debian packages"
        DOCKER=$DOCKER scripts/docker-services.sh
        export REDIS_IMAGE=riichi-redis:bookworm POSTGRES_IMAGE=riichi-postgres:bookworm
    fi
    say "the scale profile: ${COMPOSE[*]} --profile scale up node-a node-b (ports $APORT, $BPORT)"
    compose --profile scale up -d node-a node-b >"$WORK/scale.log" 2>&1 || { cat "$WORK/scale.log"; fail "the scale profile did not start"; }
    if ! wait_up "$APORT" || ! wait_up "$BPORT"; then
        compose --profile scale logs --tail 20 2>&1
        fail "the scale profile: node-a or node-b does not answer"
    else
        read -r code game < <(room_on "$APORT")
        listed="" status=""
        for _ in $(seq 120); do  # B lists A's room (Redis) and serves its record (PostgreSQL)
            listed=$(curl -sf "http://127.0.0.1:$BPORT/api/rooms" | json '" ".join(r["code"] for r in d["rooms"])' 2>/dev/null || true)
            status=$(curl -sf "http://127.0.0.1:$BPORT/api/games/$game/record" | json 'd["status"]' 2>/dev/null || true)
            [[ " $listed " == *" $code "* ]] && [ -n "$status" ] && break
            sleep 0.5
        done
        if [[ " $listed " == *" $code "* ]] && [ -n "$status" ]; then
            say "scale: node B lists node A's room $code and serves its record ($status)"
        else
            compose --profile scale logs --tail 20 2>&1
            fail "scale: node B does not see node A's room $code (listed: '$listed', record: '$status')"
        fi
    fi
    compose --profile scale down -v >/dev/null 2>&1 || true
fi

total=$(($(date +%s) - STARTED))
if [ "${#FAILURES[@]}" -gt 0 ]; then
    say "${#FAILURES[@]} check(s) failed in $total s:"
    printf '  - %s\n' "${FAILURES[@]}"
    exit 1
fi
say "all checks passed in $total s (build ${build_s} s, image $size)"
