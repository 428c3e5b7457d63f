#!/usr/bin/env python3
"""A UCI engine that, on its first ``go``, leaves a detached sleeper (``setsid`` and a double fork;
its pid appended to the file ``$XQDESK_TEST_PID_FILE``), then SIGKILLs its parent (the shield that
holds its tree), then plays ``h2e2``."""
import os
import signal
import sys
import time

escaped = False
for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name KillsShield\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        if not escaped:
            escaped = True
            written, told = os.pipe()
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    with open(os.environ["XQDESK_TEST_PID_FILE"], "a") as pids:
                        pids.write(f"{os.getpid()}\n")
                    os.close(told)  # the engine goes on once its pid is written
                    os.closerange(0, 3)
                    time.sleep(120)
                os._exit(0)
            os.close(told)
            os.wait()
            os.read(written, 1)  # the end of the pipe: the sleeper's pid is written
            os.kill(os.getppid(), signal.SIGKILL)
        print("bestmove h2e2", flush=True)
    elif command == "quit":
        break
