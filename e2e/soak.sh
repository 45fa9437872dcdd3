#!/usr/bin/env bash
# Memory over a long workbench session: the real binary in tmux, a λ edit
# every 5 s (each one cancels and warm-restarts the optimisation), RSS sampled
# every 30 s. Not part of CI (it takes MINUTES minutes, default 10).
#   bash e2e/soak.sh [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
# tmux, installed when missing (as root); otherwise say so and stop: the
# failed apt-get alone did not stop the script (errexit ignores an && list).
command -v tmux >/dev/null || { [ "$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq tmux >/dev/null; } || true
command -v tmux >/dev/null || { echo "e2e/soak.sh: tmux is missing; install Debian's tmux (apt-get install tmux, as root)" >&2; exit 1; }
out=$(mktemp -d)
go build -o "$out/cronus" .
session=cronus-soak-$$
# A tmux server of its own (no configuration file): not the user's, and not
# one that is exiting (e2e/workbench.sh says how that failed).
tmux() { command tmux -L "$session" -f /dev/null "$@"; }
trap 'tmux kill-server 2>/dev/null || true; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$session"; rm -rf "$out"' EXIT
tmux new-session -d -s "$session" -x 160 -y 48 "$out/cronus"
sleep 2
pid=$(pgrep -n -f "$out/cronus")
end=$((SECONDS + minutes * 60))
i=0
echo "seconds rss_mib"
while [ $SECONDS -lt $end ]; do
  if [ $((i % 6)) -eq 0 ]; then
    echo "$SECONDS $(awk '/VmRSS/ {printf "%.0f", $2/1024}' /proc/$pid/status)"
  fi
  if [ $((i % 2)) -eq 0 ]; then tmux send-keys -t "$session" Right; else tmux send-keys -t "$session" Left; fi
  i=$((i + 1))
  sleep 5
done
echo "peak $(awk '/VmHWM/ {printf "%.0f", $2/1024}' /proc/$pid/status) MiB"
tmux send-keys -t "$session" q
