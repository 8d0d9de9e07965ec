#!/usr/bin/env bash
# LocalStack (SQS only) run in-process on this host, without Docker: the independent server the
# conformance tests compare our local server against.
#
#   scripts/localstack.sh install    create .venv-localstack and install the pinned packages
#   scripts/localstack.sh start      start it in the background on [::1]:4566, wait until SQS is ready
#   scripts/localstack.sh stop       stop the instance started by `start`
#   scripts/localstack.sh status     say whether it is running and healthy
#   scripts/localstack.sh endpoint   print the client endpoint URL
#
# Environment: LOCALSTACK_PYTHON overrides the Python interpreter (3.12 or later);
# LOCALSTACK_START_TIMEOUT the seconds `start` waits for readiness (default 60); LOCALSTACK_PORT the
# port on [::1] (default 4566), for a second instance beside the usual one.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv-localstack"
DATA_DIR="$REPO_ROOT/.localstack-data"
LOG_FILE="$REPO_ROOT/localstack.log"
PID_FILE="$REPO_ROOT/.localstack.pid"
PORT="${LOCALSTACK_PORT:-4566}"
ENDPOINT="http://[::1]:$PORT"
HEALTH_URL="$ENDPOINT/_localstack/health"
START_TIMEOUT="${LOCALSTACK_START_TIMEOUT:-60}"

# Pinned: newer releases of these need a LocalStack account or break the in-process runtime.
PACKAGES=(
    'localstack-core[base-runtime]==2026.3.0'
    'cbor2<6'
    'pyopenssl<25'
    'cryptography<45'
    'service-identity'
)

die() {
    echo "localstack.sh: error: $*" >&2
    exit 1
}

note() {
    echo "localstack.sh: $*" >&2
}

find_python() {
    local candidate
    for candidate in "${LOCALSTACK_PYTHON:-}" /root/.pyenv/versions/3.13.0/bin/python \
        "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python python3.13; do
        [[ -n "$candidate" ]] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

venv_is_complete() {
    [[ -x "$VENV/bin/python" ]] &&
        "$VENV/bin/python" -c 'import localstack.runtime.main' >/dev/null 2>&1 &&
        [[ "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("localstack-core"))' 2>/dev/null)" == "2026.3.0" ]]
}

cmd_install() {
    if venv_is_complete; then
        note "already installed in $VENV"
        return 0
    fi
    local python
    python="$(find_python)" || die "Python 3.13 not found (looked for /root/.pyenv/versions/3.13.0/bin/python, \$PYENV_ROOT/versions/3.13*, python3.13); LocalStack needs Python >= 3.12: install it with pyenv or set LOCALSTACK_PYTHON"
    if [[ ! -x "$VENV/bin/python" ]]; then
        note "creating $VENV with $python"
        "$python" -m venv "$VENV" || die "could not create the virtual environment $VENV"
    fi
    note "installing ${PACKAGES[*]}"
    local pip_log
    pip_log="$(mktemp)"
    if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
        "${PACKAGES[@]}" >"$pip_log" 2>&1; then
        cat "$pip_log" >&2
        rm -f "$pip_log"
        die "pip install failed"
    fi
    # pip's warnings (not errors) are kept out of the way but not lost.
    grep -i 'error' "$pip_log" >&2 || true
    rm -f "$pip_log"
    venv_is_complete || die "installation finished but localstack.runtime.main cannot be imported"
    note "installed"
}

running_pid() {
    [[ -f "$PID_FILE" ]] || return 1
    local pid
    pid="$(cat "$PID_FILE")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    echo "$pid"
}

healthy() {
    curl -sf --max-time 2 "$HEALTH_URL" >/dev/null 2>&1
}

sqs_state() {
    # The health document is flat enough for sed: {"services": {..., "sqs": "running", ...}, ...}
    curl -sf --max-time 2 "$HEALTH_URL" 2>/dev/null |
        sed -n 's/.*"sqs": *"\([a-z_]*\)".*/\1/p'
}

cmd_start() {
    local pid
    if pid="$(running_pid)"; then
        if healthy; then
            note "already running (pid $pid), sqs: $(sqs_state)"
            return 0
        fi
        die "a process (pid $pid from $PID_FILE) is running but $HEALTH_URL does not answer; run '$0 stop' first"
    fi
    if healthy; then
        # Another checkout's instance (or one left from an earlier run): reuse it rather than fail
        # on the busy port, but it is not ours to stop, and it may run with other settings.
        local state
        state="$(sqs_state || true)"
        if [[ "$state" == "running" || "$state" == "available" ]]; then
            note "warning: a LocalStack not started from this checkout already answers on $ENDPOINT (sqs: $state); using it, and 'stop' will leave it running"
            return 0
        fi
        die "something not started by this script answers on $ENDPOINT without a ready SQS (sqs: '${state:-unknown}'); stop it first"
    fi
    [[ -x "$VENV/bin/python" ]] || die "not installed: run '$0 install' first"
    mkdir -p "$DATA_DIR"
    note "starting, log in $LOG_FILE"
    (
        cd "$REPO_ROOT"
        # setsid: a new session, so stopping it never touches the caller's process group, and
        # the caller's Ctrl-C does not reach it. ENABLE_CONFIG_UPDATES: the URL strategy test
        # switches SQS_ENDPOINT_STRATEGY through /_localstack/config (a test instance on loopback).
        exec setsid env OVERRIDE_IN_DOCKER=0 FILESYSTEM_ROOT="$DATA_DIR" SERVICES=sqs \
            GATEWAY_LISTEN="[::1]:$PORT" LOCALSTACK_HOST="localhost:$PORT" DNS_ADDRESS=0 \
            EAGER_SERVICE_LOADING=1 SQS_ENDPOINT_STRATEGY=path SQS_DELAY_PURGE_RETRY=1 ENABLE_CONFIG_UPDATES=1 \
            "$VENV/bin/python" -m localstack.runtime.main </dev/null >"$LOG_FILE" 2>&1
    ) &
    pid=$!
    echo "$pid" >"$PID_FILE"
    local waited=0 state=""
    while ((waited < START_TIMEOUT)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            rm -f "$PID_FILE"
            tail -n 30 "$LOG_FILE" >&2 || true
            die "LocalStack exited during startup (log above, full log in $LOG_FILE)"
        fi
        state="$(sqs_state || true)"
        if [[ "$state" == "running" || "$state" == "available" ]]; then
            note "ready on $ENDPOINT (pid $pid), sqs: $state"
            return 0
        fi
        sleep 1
        waited=$((waited + 1))
    done
    tail -n 30 "$LOG_FILE" >&2 || true
    kill "$pid" 2>/dev/null || true
    rm -f "$PID_FILE"
    die "LocalStack did not report sqs ready at $HEALTH_URL within ${START_TIMEOUT}s (last sqs state: '${state:-no answer}'); log in $LOG_FILE"
}

cmd_stop() {
    local pid
    if ! pid="$(running_pid)"; then
        rm -f "$PID_FILE"
        note "not running"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    local waited=0
    while kill -0 "$pid" 2>/dev/null && ((waited < 20)); do
        sleep 0.5
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        note "pid $pid did not stop after 10 s; killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PID_FILE"
    note "stopped (pid $pid)"
}

cmd_status() {
    local pid
    if pid="$(running_pid)"; then
        echo "running (pid $pid), sqs: $(sqs_state || echo 'no answer')"
    else
        echo "not running"
        return 1
    fi
}

case "${1:-}" in
install) cmd_install ;;
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
endpoint) echo "$ENDPOINT" ;;
*)
    echo "usage: $0 install|start|stop|status|endpoint" >&2
    exit 2
    ;;
esac
