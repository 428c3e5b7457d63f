#!/usr/bin/env python3
"""A UCI engine whose name and words are terminal escape sequences (the window title, the
clipboard, a cleared screen, a right-to-left override); it plays ``h2e2`` (legal as Red's first
move) and says why in an ``info string`` full of escapes too."""
import sys

NAME = "Evil\x1b]0;PWNED\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u202eeman"

for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "uci":
        print(f"id name {NAME}\nid author \x1b[31mnobody\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command == "go":
        print("info depth 1 score cp 10 pv h2e2\ninfo string \x1b]0;TITLE\x07", flush=True)
        print("bestmove h2e2", flush=True)
    elif command == "quit":
        break
