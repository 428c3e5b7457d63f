"""A UCI engine that answers the handshake properly, then writes garbage instead of a move."""
import sys

for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name Garbage\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        print("info depth one score banana\nthis is not uci\nbestmove banana", flush=True)
    elif command == "quit":
        break
