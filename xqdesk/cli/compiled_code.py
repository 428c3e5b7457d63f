"""Before an engine command: the compiled code of the engines it names, prepared with a progress bar.

On the first run after an install, the built-in engine (and ``mcts``, ``zero``, the tablebase
solver) must be compiled for this computer, which takes 15–30 s (the solver about 5 s); without
this the first command would sit silent that long. Engines are named by SPEC or by their name in
the engine registry. See :mod:`xqdesk.engines.compiled_code`.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn

from xqdesk.cli.reporting import report_error
from xqdesk.engines.compiled_code import TYPICAL_CPU_SECONDS, engine_label, is_ready, kinds_needed, prepare_in_child
from xqdesk.engines.compiled_code import Progress as CompileProgress

ENGINE_COMMANDS = ("analyse", "match", "tournament", "play", "annotate")
"""Commands whose engine specs are looked at."""


def prepare_engines(command: str, args: argparse.Namespace) -> None:
    """Prepare the compiled code ``command`` will run, if it is not ready, showing progress on
    standard error. A failure is only reported: the engine compiles when it starts, as it would."""
    if command == "train":
        kinds = _training_kinds(args)
    elif command == "egtb":
        kinds = ["egtb"]  # build and probe both run the tablebase code
    elif command in ENGINE_COMMANDS:
        kinds = kinds_needed(vars(args).values(), _named_engines(args))
    else:
        return
    prepare_kinds(kinds)


def prepare_kinds(kinds: list[str]) -> bool:
    """Prepare those of ``kinds`` that are not ready, with a message and a progress bar on standard
    error; whether every one is ready now (a failure is reported, not raised)."""
    waiting = [kind for kind in kinds if not is_ready(kind)]
    if not waiting:
        return True
    console = Console(stderr=True, soft_wrap=True)  # a line is not broken at 80 columns in a log
    names = " and ".join(engine_label(kind) for kind in waiting)
    console.print(f"Preparing {names} for this computer (compiled once after an install, "
                  f"{_duration(waiting)}) …", highlight=False)
    seconds: dict[str, float] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                  TextColumn("about {task.fields[left]:.0f} s left"), console=console, transient=True,
                  disable=not console.is_terminal) as bar:
        tasks = {kind: bar.add_task(engine_label(kind), total=1.0, left=TYPICAL_CPU_SECONDS[kind]) for kind in waiting}

        def report(progress: CompileProgress) -> None:
            seconds[progress.kind] = progress.elapsed
            bar.update(tasks[progress.kind], completed=progress.fraction, left=progress.seconds_left())

        problem = prepare_in_child(waiting, report)
    if problem:
        report_error(f"could not prepare {names} ahead ({problem}); it compiles as it starts")
        return False
    console.print(f"Ready after {sum(seconds.values()):.0f} s.", highlight=False)
    return True


def _duration(kinds: list[str]) -> str:
    """How long compiling ``kinds`` takes, in words (from :data:`TYPICAL_CPU_SECONDS`)."""
    seconds = sum(TYPICAL_CPU_SECONDS[kind] for kind in kinds)
    return "15–30 s" if seconds >= 15 else f"about {seconds:.0f} s"


def _named_engines(args: argparse.Namespace) -> dict[str, tuple[str, ...]]:
    """The command lines of the engines in the registry (or the ``--engines`` file), by name; empty
    when it cannot be read (the command itself says why when it looks a name up)."""
    from xqdesk.engines.errors import EngineStartError
    from xqdesk.engines.registry import load_engines_file, registry_path

    engines_file = getattr(args, "engines", None)
    try:
        specs = load_engines_file(Path(engines_file).expanduser() if engines_file else registry_path())
    except (EngineStartError, OSError):
        return {}
    return {name: spec.command for name, spec in specs.items()}


def _training_kinds(args: argparse.Namespace) -> list[str]:
    """The engines a ``train`` mode runs: self-play searches with the built-in engine's board;
    ``train data`` runs its teacher (Fairy-Stockfish needs nothing compiled); the network trainers
    run none."""
    mode = getattr(args, "mode", None)
    if mode == "selfplay":
        return ["builtin"]
    if mode == "data":
        from xqdesk.engines.training.teacher import default_teacher
        return kinds_needed([args.teacher or default_teacher()])
    return []
