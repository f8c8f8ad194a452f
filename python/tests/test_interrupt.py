"""Ctrl-C during solve and solve_many: KeyboardInterrupt promptly, no thread left running.
A child process solves a 20 × 20 job shop that takes far longer than the test (the constraint
model proves 15 × 15 ones in seconds); the test sends it SIGINT, as a terminal's Ctrl-C does."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

CHILD = textwrap.dedent(
    """
    import os, signal, sys, time
    # Python keeps SIGINT ignored when it starts ignored (a job started with `&` by a
    # non-interactive shell, as CI may run us): install the handler a terminal's Ctrl-C meets.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.path.insert(0, {tests!r})
    import makespan
    from conftest import job_shop

    insts = [job_shop(f"js{{seed}}", 20, 20, seed) for seed in (1, 2, 3)]
    threads = lambda: len(os.listdir("/proc/self/task"))
    before = threads()
    print("solving", flush=True)
    try:
        if {many}:
            makespan.solve_many(insts, jobs=2, time_limit=120)
        else:
            makespan.solve(insts[0], time_limit=120)
        print("finished", flush=True)
    except KeyboardInterrupt:
        stopped = time.monotonic()
        # Helper threads (a pool's workers) exit on their own right after.
        while threads() > before and time.monotonic() - stopped < 2:
            time.sleep(0.01)
        print(f"interrupted {{stopped}} threads {{threads()}} before {{before}}", flush=True)
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is a Unix test")
@pytest.mark.parametrize("many", [False, True], ids=["solve", "solve_many"])
def test_ctrl_c_raises_keyboard_interrupt_and_stops_every_thread(many):
    script = CHILD.format(tests=os.path.dirname(__file__), many=many)
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "solving", child.stderr.read()
        time.sleep(1.5)  # into the exact methods
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    words = out.split()
    assert words[:1] == ["interrupted"], out + err
    latency = float(words[1]) - sent
    threads, before = int(words[3]), int(words[5])
    print(f"KeyboardInterrupt {latency:.3f} s after SIGINT; threads {threads} (before {before})")
    # A generous bound, far below the 120 s limit: this checks that the solve stops, not how fast.
    assert latency < 10, latency
    assert threads <= before, (threads, before)
    assert child.returncode == 0, err
