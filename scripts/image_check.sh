#!/usr/bin/env bash
# Runs the container image of `sqsctl local` (built by `scripts/package.sh --image`) the way teams
# use it, with podman, and fails on the first thing that is not as documented:
#
#   1. started with a published loopback port and a named volume (SQSCTL_LOCAL_DATA_DIR=/data), it
#      answers real SDK traffic: the host's sqsctl (aws-sdk-sqs) creates a queue, sends N messages,
#      receives and deletes some; the queue URL names localhost:4566
#   2. the image's own health check (`podman healthcheck run`) passes
#   3. `podman stop` (SIGTERM to the server as PID 1) finishes within 2 s, the server exiting 143
#      after its clean stop, not killed
#   4. started again on the same volume, it holds exactly the messages that were not deleted (ids
#      compared)
#   5. scripts/testcontainers_check.py: Testcontainers for Python (through podman's Docker API
#      socket, Ryuk off) starts the image, waits for its health answer and does a send/receive
#      round trip with boto3
#
# Containers, the volume and the socket service are removed at the end, pass or fail.
#
# Environment: IMAGE (default sqsctl-local:latest); SQSCTL (the host's sqsctl, default
# target/debug/sqsctl, built if missing); PORT (host port, default 14566); CONTAINERS_CONF (podman's
# configuration; when unset, one for the runc runtime and cgroupfs, which machines without systemd
# need, is written to a temporary folder); VENV (the Testcontainers venv, default
# target/testcontainers-venv, created with PYTHON, default python3, when its pins differ).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

TESTCONTAINERS=4.15.0
BOTO3=1.44.5
PYYAML=6.0.3
MESSAGES=100
DELETED=30
STOP_LIMIT_MS=2000

image="${IMAGE:-sqsctl-local:latest}"
sqsctl="${SQSCTL:-target/debug/sqsctl}"
port="${PORT:-14566}"
venv="${VENV:-target/testcontainers-venv}"
run_id="sqsctl-image-check-$$"
volume="$run_id-data"

die() {
    echo "image_check.sh: error: $*" >&2
    exit 1
}

work="$(mktemp -d)"
socket_pid=""
cleanup() {
    podman rm --force --ignore --time 0 "$run_id-1" "$run_id-2" >/dev/null 2>&1 || true
    podman volume rm --force "$volume" >/dev/null 2>&1 || true
    if [[ -n "$socket_pid" ]]; then
        kill "$socket_pid" 2>/dev/null || true
        wait "$socket_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

command -v podman >/dev/null || die "podman is needed (apt-get install podman runc)"
if [[ -z "${CONTAINERS_CONF:-}" ]]; then
    cat >"$work/containers.conf" <<'CONF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
    export CONTAINERS_CONF="$work/containers.conf"
fi
podman image exists "$image" || die "no image $image: build it with scripts/package.sh --image"
[[ -x "$sqsctl" ]] || cargo build --quiet --bin sqsctl
[[ -x "$sqsctl" ]] || die "no sqsctl binary at $sqsctl"

export AWS_ENDPOINT_URL_SQS="http://127.0.0.1:$port" AWS_REGION=us-east-1 \
    AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_EC2_METADATA_DISABLED=true

# Starts the image as container NAME on the volume, and waits until it answers through the
# published port.
start() {
    local name="$1"
    # Without systemd there are no timers for the periodic health check; it is run by hand below.
    podman run --detach --name "$name" --health-interval disable --publish "127.0.0.1:$port:4566" \
        --env SQSCTL_LOCAL_DATA_DIR=/data --volume "$volume:/data" "$image" >/dev/null
    for _ in $(seq 1 100); do
        "$sqsctl" local --health-check --bind "127.0.0.1:$port" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    podman logs "$name" >&2 || true
    die "$name did not answer on 127.0.0.1:$port within 10 s"
}

# The message ids of JSON Lines message records on stdin, sorted, one a line.
ids() {
    python3 -c 'import json, sys
records = (json.loads(line) for line in sys.stdin)
print("\n".join(sorted(r["data"]["message_id"] for r in records if r["type"] == "message")))'
}

started=$SECONDS
podman volume create "$volume" >/dev/null
start "$run_id-1"
echo "started $image on 127.0.0.1:$port with volume $volume"

"$sqsctl" queue create orders >/dev/null
url="$("$sqsctl" queue url orders)"
[[ "$url" == "http://localhost:4566/000000000000/orders" ]] || die "queue URL is $url"
seq 1 "$MESSAGES" | "$sqsctl" send orders --lines >/dev/null 2>&1
"$sqsctl" receive orders --max "$DELETED" --delete --yes -o jsonl 2>/dev/null | ids >"$work/deleted"
[[ "$(wc -l <"$work/deleted")" -eq "$DELETED" ]] || die "received and deleted $(wc -l <"$work/deleted") of $DELETED"
# What stays, read through the inspection endpoint (nothing received, nothing changed).
"$sqsctl" peek orders --max 1000 -o jsonl 2>/dev/null | ids >"$work/kept"
[[ "$(wc -l <"$work/kept")" -eq $((MESSAGES - DELETED)) ]] ||
    die "$(wc -l <"$work/kept") messages left of $MESSAGES sent, $DELETED deleted"
echo "SDK traffic: queue URL $url, sent $MESSAGES, received and deleted $DELETED, $(wc -l <"$work/kept") left"

podman healthcheck run "$run_id-1" >/dev/null || die "the image's health check failed"
echo "health check: healthy"

stop_started="$(date +%s%N)"
podman stop --time 10 "$run_id-1" >/dev/null
stop_ms=$((($(date +%s%N) - stop_started) / 1000000))
code="$(podman inspect --format '{{.State.ExitCode}}' "$run_id-1")"
podman logs "$run_id-1" 2>&1 | grep -q '^stopped after ' || {
    podman logs "$run_id-1" >&2
    die "the server did not report a clean stop"
}
[[ "$code" == 143 ]] || die "the server exited $code on podman stop, not 143 (stopped by SIGTERM)"
((stop_ms <= STOP_LIMIT_MS)) || die "podman stop took $stop_ms ms (limit $STOP_LIMIT_MS ms)"
echo "podman stop: $stop_ms ms, exit code $code"

start "$run_id-2"
"$sqsctl" receive orders --until-empty --max 1000 --delete --yes -o jsonl 2>/dev/null | ids >"$work/after"
if ! cmp -s "$work/kept" "$work/after"; then
    diff "$work/kept" "$work/after" >&2 || true
    die "after the restart the queue holds $(wc -l <"$work/after") messages, not the $(wc -l <"$work/kept") kept (< missing, > unexpected)"
fi
echo "restart on $volume: all $(wc -l <"$work/after") kept messages there, ids equal, none lost"
podman rm --force --time 0 "$run_id-2" >/dev/null

pins="testcontainers==$TESTCONTAINERS boto3==$BOTO3 pyyaml==$PYYAML"
if [[ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(" ".join(f"{p}=={m.version(p)}" for p in ("testcontainers", "boto3", "pyyaml")))' 2>/dev/null)" != "$pins" ]]; then
    rm -rf "$venv"
    "${PYTHON:-python3}" -m venv "$venv"
    # shellcheck disable=SC2086 # one argument per pin
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input $pins
fi
# The compose file and the workflow of docs/container.md must at least be valid YAML of the shape
# they claim.
"$venv/bin/python" - docs/container.md <<'PY'
import re, sys, yaml
blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", open(sys.argv[1]).read(), re.S)]
compose = next(b for b in blocks if "services" in b)
assert compose["services"]["sqs"]["healthcheck"]["test"][0] == "CMD", "the image has no shell"
workflow = next(b for b in blocks if "jobs" in b)
assert "--health-cmd" not in workflow["jobs"]["test"]["services"]["sqs"]["options"]
print(f"docs/container.md: {len(blocks)} YAML examples parse")
PY
podman system service --time=0 "unix://$work/podman.sock" &
socket_pid=$!
for _ in $(seq 1 50); do
    [[ -S "$work/podman.sock" ]] && break
    sleep 0.1
done
[[ -S "$work/podman.sock" ]] || die "podman's Docker API socket did not appear"
# Testcontainers reaches a container through the gateway when it thinks it runs in one (CI machines
# do); podman publishes ports on this machine's loopback instead.
DOCKER_HOST="unix://$work/podman.sock" TESTCONTAINERS_RYUK_DISABLED=true \
    TESTCONTAINERS_CONNECTION_MODE=docker_host TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 \
    "$venv/bin/python" scripts/testcontainers_check.py "$image"
echo "image checked in $((SECONDS - started)) s"
