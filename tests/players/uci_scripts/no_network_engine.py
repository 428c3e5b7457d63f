"""A UCI engine that behaves as Pikafish does without its network file: it answers the handshake,
then on ``go`` says on stdout that the network file was not loaded and exits with code 1."""
import sys

for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print("id name NoNet\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        print("info string ERROR: Network evaluation parameters compatible with the engine must be available.\n"
              "info string ERROR: The network file pikafish.nnue was not loaded successfully.\n"
              "info string ERROR: The engine will be terminated now.", flush=True)
        sys.exit(1)
    elif command == "quit":
        break
