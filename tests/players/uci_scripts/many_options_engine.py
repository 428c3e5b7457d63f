"""A xiangqi UCI engine that declares 30 options of every type, a protocol switch among them (as
Fairy-Stockfish does) and an opening book file; it answers every search with the central cannon
(``h3e3``: with ``UCI_Variant`` it speaks Fairy-Stockfish's squares, ranks 1-10)."""
import sys

OPTIONS = ["option name Protocol type combo default uci var uci var ucci var xboard",
           "option name UCI_Variant type combo default xiangqi var xiangqi",
           "option name BookFile type string default <empty>",
           "option name OwnBook type check default false",
           "option name SyzygyPath type string default <empty>",
           "option name Clear Hash type button"]
OPTIONS += [f"option name Spin {n} type spin default {n} min 0 max 100" for n in range(1, 13)]
OPTIONS += [f"option name Check {n} type check default true" for n in range(1, 7)]
OPTIONS += [f"option name Style {n} type combo default a var a var b" for n in range(1, 4)]
OPTIONS += [f"option name Text {n} type string default x" for n in range(1, 4)]

for line in sys.stdin:
    words = line.split()
    command = words[0] if words else ""
    if command == "uci":
        print("id name Many Options\n" + "\n".join(OPTIONS) + "\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        print("bestmove h3e3", flush=True)  # Fairy-Stockfish squares: ranks 1-10
    elif command == "quit":
        break
