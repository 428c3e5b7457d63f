"""A UCI engine that crashes with a traceback when asked to think."""
import sys

for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name Crasher\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        raise RuntimeError("segment of imagination")
