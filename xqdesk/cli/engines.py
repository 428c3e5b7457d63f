"""``xqdesk engines``: the engine registry the window and the command line share.

    xqdesk engines                       list the engines (name, kind, path) and where the file is
    xqdesk engines add NAME SPEC         add an engine named NAME, e.g. 'uci:/usr/games/fairy-stockfish:Hash=16'
    xqdesk engines remove NAME           remove it

A name in the registry can be used wherever an engine SPEC is asked for (``xqdesk match --red NAME``),
and the window's engine menus list the same engines.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from xqdesk.cli import report_error
from xqdesk.terminal_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = ("SPEC for 'add': builtin[:Level=N,…], mcts[:…], zero[:…], player:PATH, egtb:DIR, uci:PATH[:OPTIONS], "
                     "ucci:PATH[:OPTIONS], engine:PATH[:OPTIONS] (UCI, then UCCI)")
    parser.add_argument("action", nargs="?", choices=("list", "add", "remove"), default="list")
    parser.add_argument("name", nargs="?", help="the engine's name (add, remove)")
    parser.add_argument("spec", nargs="?", help="how to start it (add; see below)")
    parser.add_argument("--engines", default=None, metavar="FILE",
                        help="another registry file (default: engines.json in the user's configuration folder)")


def profile_from_spec(name: str, text: str):  # noqa: ANN201 - xqdesk.engines.registry is imported lazily
    """The registry entry for engine SPEC ``text`` called ``name``; EngineStartError when the
    SPEC names nothing that can be kept (a missing file, a baseline engine)."""
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.registry import BUILTIN_LEVEL_OPTION, EngineKind, EngineProfile
    from xqdesk.engines.spec import parse_options, parse_spec
    from xqdesk.engines.transport.protocol import ProtocolName

    kind, _, rest = text.partition(":")
    if kind in ("builtin", "mcts", "zero"):
        options = parse_options(rest, text)
        level_text = options.pop(BUILTIN_LEVEL_OPTION, "3") if kind == "builtin" else "3"
        if not level_text.strip().isdigit():
            raise EngineStartError(f"{text!r}: {BUILTIN_LEVEL_OPTION} must be a whole number, got {level_text!r}")
        level = int(level_text)
        return EngineProfile(name, EngineKind(kind), level=level, options=tuple(options.items()))
    spec = parse_spec(text)  # checks that the file is there (and executable)
    if kind == "player":
        return EngineProfile(name, EngineKind.PLAYER, spec.command[-1])
    if kind == "egtb":
        return EngineProfile(name, EngineKind.TABLEBASE, spec.command[-1])
    if kind in ("uci", "ucci", "engine"):
        protocol = {"uci": ProtocolName.UCI, "ucci": ProtocolName.UCCI}.get(kind, ProtocolName.AUTO)
        if protocol is ProtocolName.AUTO:
            return EngineProfile(name, EngineKind.COMMAND, spec.command[0], options=tuple(spec.options.items()),
                                 protocol=ProtocolName.AUTO)
        return EngineProfile(name, EngineKind(kind), spec.command[0], options=tuple(spec.options.items()))
    raise EngineStartError(f"{text!r}: the registry keeps engines set up once (builtin, mcts, zero, player:PATH, "
                           "egtb:DIR, uci:PATH, ucci:PATH, engine:PATH); name the others directly")


def run(args: argparse.Namespace) -> int:
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.registry import load_registry, registry_path, save_registry

    path = Path(args.engines).expanduser() if args.engines else registry_path()
    try:
        engines = load_registry(path)
        if args.action == "list":
            if args.name or args.spec:
                report_error("'engines list' takes no NAME or SPEC")
                return 2
            print(f"Engine registry: {path}" + ("" if path.is_file() else " (no file yet)"))
            for profile in engines:
                where = profile.path or (f"level {profile.level}" if profile.kind.value == "builtin" else "")
                options = ", ".join(f"{key}={value}" for key, value in profile.options)
                line = f"  {profile.name}: {profile.kind.value} {where}".rstrip() + (f" ({options})" if options else "")
                print(printable(line))
            if not engines:
                print("  (none: add one with 'xqdesk engines add NAME SPEC' or in the window's engines dialog)")
            return 0
        if not args.name or (args.action == "add") != bool(args.spec):
            usage = "add NAME SPEC" if args.action == "add" else "remove NAME"
            report_error(f"usage: xqdesk engines {usage}")
            return 2
        if args.action == "add":
            if any(profile.name == args.name for profile in engines):
                report_error(f"the registry already has an engine named {args.name!r}")
                return 2
            engines.append(profile_from_spec(args.name, args.spec))
        else:
            kept = [profile for profile in engines if profile.name != args.name]
            if len(kept) == len(engines):
                names = ", ".join(profile.name for profile in engines) or "none"
                report_error(f"no engine named {args.name!r} in {path} (there: {names})")
                return 1
            engines = kept
        save_registry(engines, path)
    except EngineStartError as error:
        report_error(str(error))
        return 2
    except ValueError as error:  # e.g. Level=high
        report_error(str(error))
        return 2
    except OSError as error:
        report_error(f"cannot write {path}: {error.strerror or error}")
        return 3
    print(f"{'added' if args.action == 'add' else 'removed'} {args.name!r} ({path})")
    return 0
