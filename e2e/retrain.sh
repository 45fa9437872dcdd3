#!/usr/bin/env bash
# Memory over retrains of the base ensemble: the real binary in tmux, the
# trees edited in the parameter panel RETRAINS times (300 → 350 → 300 …),
# each once the run on the last ensemble has reached its first cycle;
# resident memory (VmRSS) and its peak so far (VmHWM) after each. Not part
# of CI.
#   bash e2e/retrain.sh [RETRAINS] [cronus tui flags]
# RETRAINS defaults to 7, the data to the built-in set. The
# 200,000-document synthetic set (made by bash bench/cascade.sh synth):
#   d=/tmp/cronus-bench/cascade-synth
#   bash e2e/retrain.sh 7 --train $d/train.txt --valid $d/valid.txt --test $d/test.txt --costs $d/mslr.costs
# BIN=path runs that binary instead of one built from this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
retrains=${1:-7}
shift || true
# tmux, installed when missing (as root); otherwise say so and stop: the
# failed apt-get alone did not stop the script (errexit ignores an && list).
command -v tmux >/dev/null || { [ "$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq tmux >/dev/null; } || true
command -v tmux >/dev/null || { echo "e2e/retrain.sh: tmux is missing; install Debian's tmux (apt-get install tmux, as root)" >&2; exit 1; }
out=$(mktemp -d)
bin=${BIN:-}
if [ -z "$bin" ]; then
  bin="$out/cronus"
  go build -o "$bin" .
fi
session=cronus-retrain-$$
# A tmux server of its own (no configuration file): not the user's, and not
# one that is exiting (e2e/workbench.sh says how that failed).
tmux() { command tmux -L "$session" -f /dev/null "$@"; }
trap 'tmux kill-server 2>/dev/null || true; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$session"; rm -rf "$out"' EXIT
tmux new-session -d -s "$session" -x 160 -y 48 "$(printf '%q ' "$bin" tui "$@"); sleep 30"
sleep 1
pid=$(tmux list-panes -t "$session" -F '#{pane_pid}')
pid=$(pgrep -n -P "$pid" || echo "$pid") # the binary: the shell's child, if a shell runs it

screen() { tmux capture-pane -p -t "$session"; }
wait_for() { # wait_for PATTERN [ABSENT]: up to 20 minutes, for large data on 2 cores
  for _ in $(seq 12000); do
    s=$(screen)
    if grep -qE 'panic|goroutine [0-9]' <<<"$s"; then echo "panic on screen:"; echo "$s"; exit 1; fi
    if grep -qE "$1" <<<"$s" && { [ -z "${2:-}" ] || ! grep -qE "$2" <<<"$s"; }; then return 0; fi
    sleep 0.1
  done
  echo "timed out waiting for '$1'; the screen was:"; screen; exit 1
}
mem() { awk '/VmHWM/ {h = $2} /VmRSS/ {r = $2} END {printf "rss %.0f MiB, peak %.0f MiB", r / 1024, h / 1024}' "/proc/$pid/status"; }

running='(^|│ )(optimising|done) · cycle [0-9]' # the status line's run figures
busy='training the base ensemble|building the cascade problem'
wait_for "$running" "$busy"
echo "$SECONDS s: started: $(mem)"
tmux send-keys -t "$session" p
for _ in $(seq 10); do tmux send-keys -t "$session" j; done # to "trees"
wait_for '\[trees [0-9]+\]'
for i in $(seq "$retrains"); do
  if [ $((i % 2)) -eq 1 ]; then tmux send-keys -t "$session" Right; else tmux send-keys -t "$session" Left; fi
  wait_for "pending retrain|$busy"
  wait_for "$running" "$busy"
  echo "$SECONDS s: retrain $i: $(mem)"
done
tmux send-keys -t "$session" q
