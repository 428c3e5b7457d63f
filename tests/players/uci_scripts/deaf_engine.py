"""A UCI engine that answers the handshake, then on ``go`` says nothing, ignores ``stop`` and
never gives a move."""
import sys

for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name Deaf\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "quit":
        break
