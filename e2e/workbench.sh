#!/usr/bin/env bash
# End-to-end run of the real binary in a terminal (tmux): start the workbench
# on the built-in data, wait for the first cascade and keep it, change λ,
# wait for the warm restart to finish and keep that cascade too, open the
# compare view, start a λ sweep and cancel it after its first points, quit;
# then signals, and a quit on a load error. The captured screens must show
# the views and no panic.
# Screens, and the tmux server's own log, are left in $OUT (default a
# temporary directory).
#
# Each tmux session here has a server of its own (a private socket, no
# configuration file, a verbose log in $OUT). The sessions once shared the
# default server, each killed before the next was started: killing the last
# session makes the server exit, and the new-session sent right after can
# reach the exiting server, which prints "server exited unexpectedly". CI
# of 6656668 (2026-12-02) ended so: its screens stop after the SIGINT check,
# with bad.txt written and the load-error session never shown; CI of
# c690188 (2026-12-01) likewise. Here, new-session right after kill-server
# failed so 11 times in 100. A server lost is still told apart from a
# screen that is wrong: the script prints the server's log and runs the
# whole scenario once more, and fails if a server is lost again. A wrong
# screen fails at once.
set -euo pipefail
cd "$(dirname "$0")/.."
# tmux, installed when missing (as root); otherwise say so and stop: the
# failed apt-get alone did not stop the script (errexit ignores an && list).
command -v tmux >/dev/null || { [ "$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq tmux >/dev/null; } || true
command -v tmux >/dev/null || { echo "e2e/workbench.sh: tmux is missing; install Debian's tmux (apt-get install tmux, as root)" >&2; exit 1; }
out=${OUT:-$(mktemp -d)}
out=$(cd "$out" && pwd)
bin="$out/cronus"
go build -o "$bin" .
session=cronus-e2e-$$
sockets=0 # servers started so far
lost=75 # a subshell's exit status when the tmux server went away

tm() { tmux -L "cronus-e2e-$$-$sockets" -f /dev/null "$@"; }
server_lost() { # server_lost WHAT: the tmux server is gone; say so and leave the attempt
  echo "the tmux server went away ($1); its log ends:"
  local log
  log=$(ls -t "$out"/tmux-server-*.log 2>/dev/null | head -1) || true # none: ls fails, and pipefail with it
  if [ -n "$log" ]; then tail -n 20 "$log"; else echo "(no server log)"; fi
  exit "$lost"
}
# start_session COMMAND: ends the last server, then starts a new one (its
# log in $out) with one detached session running COMMAND.
start_session() {
  tm kill-server 2>/dev/null || true
  sockets=$((sockets + 1))
  if ! (cd "$out" && tmux -v -L "cronus-e2e-$$-$sockets" -f /dev/null new-session -d -s "$session" -x 160 -y 48 "$1"); then
    server_lost "new-session"
  fi
}
capture() { # capture FILE
  tm capture-pane -p -t "$session" > "$out/$1" || server_lost "capture-pane"
}
keys() { tm send-keys -t "$session" "$@" || server_lost "send-keys $*"; }
end_servers() { # every server this script started, from the outer shell too
  local socket
  for socket in "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/cronus-e2e-$$-"*; do
    if [ -S "$socket" ]; then
      tmux -S "$socket" kill-server 2>/dev/null || true
      rm -f "$socket" # tmux leaves it behind
    fi
  done
}
trap end_servers EXIT

wait_for() { # wait_for PATTERN SECONDS FILE
  for _ in $(seq "$2"); do
    capture "$3"
    if grep -q "$1" "$out/$3"; then return 0; fi
    if grep -qE 'panic|goroutine [0-9]' "$out/$3"; then echo "panic on screen:"; cat "$out/$3"; exit 1; fi
    sleep 1
  done
  echo "timed out waiting for '$1'; the screen was:"; cat "$out/$3"; exit 1
}

# scenario: the whole run, in a subshell of its own; exits $lost when the
# tmux server went away, 1 when a screen was wrong.
scenario() {
  start_session "$bin; echo EXITED \$?; sleep 30"
  wait_for 'run [0-9]* finished' 180 first.txt
  for want in 'objective (eq 8)' 'fraction of inputs reaching each stage' 'features first extracted per stage' 'versus cost per document' 'stages (K = 10)' 'params' 'NDCG@10'; do
    grep -q "$want" "$out/first.txt" || { echo "the first screen lacks '$want':"; cat "$out/first.txt"; exit 1; }
  done
  run=$(grep -o 'run [0-9]* finished' "$out/first.txt" | head -1 | awk '{print $2}')
  keys k
  wait_for 'kept #1' 10 keep1.txt
  keys Right
  wait_for 'λ 0.015' 10 edit.txt
  wait_for "run $((run + 1)) finished" 180 second.txt
  keys k
  wait_for 'kept #2' 10 keep2.txt
  keys c
  wait_for 'compare kept cascades (2 of at most 4)' 10 compare.txt
  for want in 'kept #1' 'kept #2' 'NDCG@10' 'P@5' 'p vs #1 ref' 'p vs #1 [0-9.<]' 'Δ \?b[al]'; do
    grep -q "$want" "$out/compare.txt" || { echo "the compare view lacks '$want':"; cat "$out/compare.txt"; exit 1; }
  done
  keys c
  keys w
  wait_for 'λ sweep [1-7]/8' 60 sweep.txt
  grep -Eq '[×+]+ λ sweep' "$out/sweep.txt" || { echo "the plot has no λ sweep series:"; cat "$out/sweep.txt"; exit 1; }
  keys w
  wait_for 'λ sweep cancelled at [1-8] of 8' 10 sweep-cancel.txt
  keys q
  wait_for 'EXITED 0' 10 exit.txt

  # A signal from outside ends the workbench at once with the signal's status
  # and the terminal given back: SIGTERM as the first screen shows, SIGINT
  # once a run has finished (Bubble Tea's own handler, beside the
  # command's, hung it 1 time in 4 there, and a signal exited 1 or 0).
  signal_ends() { # signal_ends SIGNAL STATUS WAIT_FOR
    start_session "$bin; echo EXITED \$?; sleep 30"
    wait_for "$3" 180 "sig-$1-before.txt"
    local shell pid
    shell=$(tm display -p -t "$session" '#{pane_pid}') || server_lost "display"
    pid=$(pgrep -P "$shell" -x cronus) || { echo "no cronus process under the pane's shell $shell after $1's screen:"; ps -ef; exit 1; }
    kill -s "$1" "$pid"
    wait_for "EXITED $2" 10 "sig-$1.txt"
    if grep -q 'objective (eq 8)\|training the base' "$out/sig-$1.txt"; then
      echo "the workbench's screen is still up after $1:"; cat "$out/sig-$1.txt"; exit 1
    fi
  }
  signal_ends TERM 143 'objective (eq 8)\|training'
  signal_ends INT 130 'run [0-9]* finished'

  # A workbench quit on a load error exits 1 and says why once its screen is
  # gone, as a subcommand given the same file would.
  printf '1 qid:1 1:0.5\n0 qid:1 1:x\n' > "$out/bad.txt"
  start_session "$bin tui --train $out/bad.txt --valid $out/bad.txt --costs builtin:mq2008/costs; echo EXITED \$?; sleep 30"
  wait_for 'error:' 60 bad-load.txt
  keys q
  wait_for 'EXITED 1' 10 bad-exit.txt
  grep -q "the workbench ended on an error: .*bad.txt:2" "$out/bad-exit.txt" || { echo "the error is not printed on leaving:"; cat "$out/bad-exit.txt"; exit 1; }
}

for attempt in 1 2; do
  # Not "(scenario) || rc=$?": errexit is off in the left side of ||.
  set +e
  (set -e; scenario)
  rc=$?
  set -e
  end_servers
  if [ "$rc" -eq 0 ]; then echo "workbench e2e ok (screens and the tmux server's log in $out)"; exit 0; fi
  if [ "$rc" -ne "$lost" ]; then exit "$rc"; fi
  echo "attempt $attempt lost its tmux server"
done
echo "the tmux server went away on both attempts"
exit 1
