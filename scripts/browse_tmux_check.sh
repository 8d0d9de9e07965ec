#!/usr/bin/env bash
# `sqsctl browse` in a real terminal emulator (tmux), as a person at 80x24 and at 60 columns sees
# it: starts `sqsctl local` with a queue and its dead-letter queue, sends 12 messages to the DLQ,
# opens browse in a detached tmux session, types keys (tmux send-keys), reads the pane
# (tmux capture-pane -p) and checks what it shows; then marks two messages and redrives them, and
# checks that exactly those two reached the source queue. Exits non-zero on the first failure,
# printing the pane.
#
#   scripts/browse_tmux_check.sh [BINARY]     default: target/debug/sqsctl
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN="$(realpath "${1:-target/debug/sqsctl}")"
[[ -x "$BIN" ]] || { echo "browse_tmux_check.sh: error: $BIN not found; run 'cargo build' first" >&2; exit 1; }
command -v tmux >/dev/null || { echo "browse_tmux_check.sh: error: tmux is not installed" >&2; exit 1; }

work="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
session="sqsctl-browse-check-$$"
socket="$work/tmux.sock"
server_pid=""
cleanup() {
    tmux -S "$socket" kill-server 2>/dev/null || true
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/queues.toml" <<TOML
[[queue]]
name = "orders"
dead_letter_queue = "orders-dlq"
max_receive_count = 5

[[queue]]
name = "orders-dlq"
TOML

"$BIN" local --bind "127.0.0.1:$port" --init "$work/queues.toml" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
    "$BIN" local --bind "127.0.0.1:$port" --health-check >/dev/null 2>&1 && break
    sleep 0.1
done

# The environment browse runs with, inside tmux too.
export HOME="$work" XDG_STATE_HOME="$work/state" AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test
export AWS_REGION=us-east-1 AWS_ENDPOINT_URL_SQS="http://127.0.0.1:$port" NO_COLOR=1
# No editor to wait for, should a stray key open one.
unset VISUAL
export EDITOR=true
for i in $(seq 1 12); do
    printf '{"order":%d,"error":"%s"}\n' "$i" "$([[ $((i % 3)) == 0 ]] && echo timeout || echo schema)"
done | "$BIN" send orders-dlq --lines --attr kind=check >/dev/null 2>&1
"$BIN" peek orders-dlq --max 50 -o jsonl >"$work/dlq.jsonl" 2>/dev/null

pane() { tmux -S "$socket" capture-pane -p -t "$session"; }
fail() {
    echo "browse_tmux_check.sh: FAIL: $*" >&2
    echo "--- the pane:" >&2
    pane >&2 || true
    exit 1
}
# Waits up to 10 s for the pane to show $1.
expect() {
    for _ in $(seq 100); do
        pane | grep -qF -- "$1" && return 0
        sleep 0.1
    done
    fail "the pane never showed: $1"
}
keys() { tmux -S "$socket" send-keys -t "$session" "$@"; }
open() {
    tmux -S "$socket" new-session -d -s "$session" -x "$1" -y "$2" \
        -e HOME -e XDG_STATE_HOME -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY -e AWS_REGION \
        -e AWS_ENDPOINT_URL_SQS -e NO_COLOR -e EDITOR \
        "$BIN browse orders-dlq; echo browse-exited=\$?; sleep 30"
}
closed() {
    expect "browse-exited=$1"
    tmux -S "$socket" kill-session -t "$session"
}

# 80x24: header, short ids (whole below 100 columns would leave the body no room), the hidden
# panel said, the filter, help, quit.
open 80 24
expect "12 shown of 12 read, 0 marked | orders-dlq (account 000000000000, us-east-1)"
expect "  id       rcv  age    size     body"
expect "side panel hidden: widen to 100 columns"
[[ "$(pane | grep -cE '^[ *] [0-9a-f]{8} ')" == 12 ]] || fail "12 rows with short ids at 80 columns"
(( $(pane | wc -L) <= 80 )) || fail "a line wider than 80"
keys / timeout Enter
expect "4 of 12 match timeout"
expect "4 shown of 12 read"
keys '?'
expect "redrive marked (or current) to the source"
# A key sent right after Escape would arrive as Alt+key: a pause between, as a person makes.
keys Escape
sleep 0.3
keys / C-u '--where "body.order >"' Enter
expect "error: filter not applied: --where"
keys q
closed 0

# 60 columns: short ids, the hidden panel named; mark two and redrive them.
open 60 20
expect "12 shown of 12 read"
expect "widen to"
pane | grep -qE '^  [0-9a-f]{8} ' || fail "short ids at 60 columns"
(( $(pane | wc -L) <= 60 )) || fail "a line wider than 60"
keys Space Space
expect "2 marked"
marked="$(pane | sed -n 's/^\* \([0-9a-f]\{8\}\) .*/\1/p' | sort)"
[[ "$(echo "$marked" | wc -l)" == 2 ]] || fail "two rows marked with *"
keys r
expect "confirm"
expect "us-east-1"
keys y
expect "redrove 2 of 2 messages to \`orders\`"
expect "10 shown of 10 read, 0 marked"
keys q
closed 0

# A redriven message has a new id in the destination: compare bodies.
bodies() { sed -n 's/.*"body":"\(.*\)","message_attributes".*/\1/p' | sort; }
marked_bodies="$(grep -F -f <(echo "$marked") "$work/dlq.jsonl" | bodies)"
arrived="$("$BIN" peek orders --max 50 -o jsonl 2>/dev/null | bodies)"
[[ -n "$arrived" && "$arrived" == "$marked_bodies" ]] || fail "the marked messages reached orders (arrived: $arrived; marked: $marked_bodies)"
left="$("$BIN" peek orders-dlq --max 50 -o jsonl 2>/dev/null | grep -c '"type":"message"')"
[[ "$left" == 10 ]] || fail "10 messages left in orders-dlq, not $left"
ls "$work"/state/sqsctl/redrive/*.jsonl >/dev/null 2>&1 || fail "no journal under the state directory"
echo "browse_tmux_check.sh: ok (80x24 and 60x20: list, filter, help, error line; mark 2 + redrive: 2 arrived, 10 left)"
