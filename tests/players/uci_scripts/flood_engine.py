"""A UCI engine that answers the handshake, then on ``go`` floods ``info`` lines without pause and
never answers ``stop`` or gives a move."""
import sys

for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name Flood\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        flood = "info depth 1 score cp 0 nodes 1 pv h2e2\n" * 200
        while True:
            sys.stdout.write(flood)
            sys.stdout.flush()
    elif command == "quit":
        break
