"""A UCI engine that answers the handshake, then on ``go`` writes one line that never ends, to
stdout (``stderr`` as its argument: to stderr), ``BYTES`` (its second argument, default: forever)
bytes of it, then a newline and a move."""
import sys

stream = sys.stderr if sys.argv[1:2] == ["stderr"] else sys.stdout
total = int(sys.argv[2]) if len(sys.argv) > 2 else -1
chunk = "x" * 65536
for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name Endless\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        stream.write("info string ")
        written = 0
        while total < 0 or written < total:
            stream.write(chunk)
            written += len(chunk)
        stream.write("\n")
        stream.flush()
        print("bestmove h2e2", flush=True)
    elif command == "quit":
        break
