#!/usr/bin/env python3
"""How fast a cronus command stops when interrupted at the end of a phase.

usage: bench/interrupt.py [--after TEXT] [--delay S] [--no-signal] -- COMMAND [ARG...]

Runs COMMAND under a pseudo-terminal, so that cronus draws its progress
line, and waits for TEXT in its output followed by the line being cleared
(ESC [K): the phase whose progress line showed TEXT has ended. It then
waits DELAY seconds (default 0.5), sends SIGINT and prints how long the
command took to exit and its exit status (130: interrupted). With
--no-signal it sends nothing and prints how long the command ran after
that point (how long the rest takes).

The default TEXT, "cycle 1 of at most 1, stage 10 of 10", is the last
step of `cronus cascade --cycles 1` with the default 10 stages (its
progress line, "optimising cycle 1 of at most 1, stage 10 of 10 …", since
commit 54ce104; on small data the line may skip it, and the script then
says the text never ended a line): what follows is the scoring of the
cascade and the full ensemble on valid and test before anything is
written. The README's figures come from

  bench/interrupt.py --no-signal -- cronus cascade --model M ... --cycles 1 --out c.json
  bench/interrupt.py -- cronus cascade --model M ... --cycles 1 --out c.json
"""
import argparse
import os
import pty
import select
import signal
import sys
import time


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].removeprefix("usage: "),
                                 description="How fast a cronus command stops when interrupted at the end of a phase (see the top of this file).")
    ap.add_argument("--after", default="cycle 1 of at most 1, stage 10 of 10", metavar="TEXT", help="the progress text whose phase's end is awaited (default %(default)r)")
    ap.add_argument("--delay", type=float, default=0.5, metavar="S", help="seconds from the phase's end to SIGINT (default %(default)s)")
    ap.add_argument("--no-signal", action="store_true", help="send nothing: time the rest of the run")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command and its arguments, after --")
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("no command")
    after = a.after.encode()
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            print("%s: %s" % (cmd[0], e.strerror))
        os._exit(127)
    t0 = time.time()
    out = b""
    ended = sent = None
    while True:
        r, _, _ = select.select([fd], [], [], 0.05)
        if not r:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child has closed the terminal
            break
        if not chunk:
            break
        out += chunk
        i = out.rfind(after)
        if ended is None and i >= 0 and b"\r\x1b[K" in out[i:]:
            ended = time.time() - t0
            print("the phase of %r ended at %.2f s" % (a.after, ended), flush=True)
            if not a.no_signal:
                time.sleep(a.delay)
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    print("exit status %d before the signal: nothing measured" % os.waitstatus_to_exitcode(status))
                    sys.exit(1)
                os.kill(pid, signal.SIGINT)
                sent = time.time() - t0
    _, status = os.waitpid(pid, 0)
    end = time.time() - t0
    code = os.waitstatus_to_exitcode(status)
    tail = out[-300:].decode("utf-8", "replace").replace("\x1b[K", "").replace("\r", "\n").strip().splitlines()
    last = tail[-1] if tail else ""
    if ended is None:
        print("exit status %d at %.2f s; %r never ended a progress line; last line: %s" % (code, end, a.after, last))
        sys.exit(1)
    if sent is None:
        print("exit status %d at %.2f s, %.2f s after the phase ended" % (code, end, end - ended))
    else:
        print("exit status %d at %.2f s, %.2f s after SIGINT" % (code, end, end - sent))
    print("last line:", last)


if __name__ == "__main__":
    main()
