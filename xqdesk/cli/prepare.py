"""``xqdesk prepare [KIND…]``: compile the engines' code for this computer now, at install time.

The built-in engine, ``mcts``, ``zero`` and the tablebase solver run code that numba compiles on
its first use after an install (15–30 s for the built-in engine). This command does it ahead, into
the same cache the window and the commands then find, so the first engine move comes at once; it
ends the README's install command. Kinds already prepared are not compiled again.
"""
from __future__ import annotations

import argparse

from xqdesk.engines.compiled_code import TYPICAL_CPU_SECONDS, engine_label, is_ready


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kinds", nargs="*", metavar="KIND", type=code_kind,
                        help=f"which code to prepare: {', '.join(TYPICAL_CPU_SECONDS)} (default: all of them; "
                             "builtin alone is the engine the window starts with)")


def code_kind(text: str) -> str:
    """argparse type: one of the kinds of compiled code (:data:`TYPICAL_CPU_SECONDS`)."""
    if text not in TYPICAL_CPU_SECONDS:
        raise argparse.ArgumentTypeError(f"no compiled code for {text!r}; the kinds are {', '.join(TYPICAL_CPU_SECONDS)}")
    return text


def run(args: argparse.Namespace) -> int:
    from xqdesk.cli.compiled_code import prepare_kinds

    kinds = list(dict.fromkeys(args.kinds or TYPICAL_CPU_SECONDS))
    ready = [kind for kind in kinds if is_ready(kind)]
    if ready:
        print(f"already prepared: {', '.join(engine_label(kind) for kind in ready)}")
    if not prepare_kinds(kinds):
        return 1
    if len(ready) < len(kinds):
        print(f"prepared: {', '.join(engine_label(kind) for kind in kinds if kind not in ready)}")
    return 0
