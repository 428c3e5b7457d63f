"""``xqdesk train data|nnue|zero|selfplay``: make labelled positions, train the built-in engine's
evaluation network and the ``zero`` engine's network (training needs torch: ``pip install
xqdesk[train]``).

- ``data --out DIR [--records FILE…] [--teacher-games N]``: labelled positions for both learning
  engines (:mod:`xqdesk.engines.training`): every position of the records' games and of games the
  teacher plays against itself, labelled by the teacher's fixed-depth MultiPV search
  (Fairy-Stockfish when installed, else the built-in engine) and the game's result; resumable;
  needs no torch.
- ``nnue --data DIR… --out NET.npz``: the built-in engine's evaluation network
  (:mod:`xqdesk.engines.training.nnue_training`) from those positions; prints the fitted scale, the
  hand-written evaluation's held-out loss, the network's per epoch and how far the quantised
  network is from the float one.
- ``zero --data DIR… --out NET.npz``: train the ``zero`` network on those positions (soft policy
  targets from the teacher's lines, value from its score and the result); prints the held-out
  agreement with the masters' moves per epoch.
- ``selfplay --net NET.npz --iterations K --out-dir DIR``: self-play games with the current network
  in parallel processes, training on a replay window, an arena of new vs old with a gate, a
  checkpoint per iteration, ``log.csv`` and ``log.png``.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from xqdesk.cli import report_error
from xqdesk.terminal_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    modes = parser.add_subparsers(dest="mode", metavar="MODE", required=True)
    data = modes.add_parser("data", help="labelled positions for both learning engines (no torch needed)")
    data.add_argument("--out", required=True, metavar="DIR", help="the data folder (made, or resumed)")
    data.add_argument("--records", nargs="+", default=[], metavar="FILE",
                      help="record files or folders whose games' positions are labelled (PGN, XQF, CBL, …)")
    data.add_argument("--teacher-games", type=int, default=0, metavar="N",
                      help="games the teacher plays against itself, every position labelled")
    data.add_argument("--teacher", default=None, metavar="SPEC",
                      help="the labelling engine (default: Fairy-Stockfish if installed, else builtin); 'none': "
                           "no search, the records' played moves and results only (free; every occurrence kept)")
    data.add_argument("--depth", type=int, default=7, help="the teacher's fixed search depth (default 7)")
    data.add_argument("--multipv", type=int, default=4, help="lines labelled per position (default 4)")
    data.add_argument("--holdout", type=int, default=10, help="hold out one master game in N (0: none)")
    data.add_argument("--jobs", type=int, default=None, help="parallel teacher processes (default: one per core)")
    data.add_argument("--cluster", default=None, metavar="ADDRESS", help="run the tasks on Ray (see 'match --cluster')")
    data.add_argument("--seed", type=int, default=0)
    data.add_argument("--shard-size", type=int, default=50_000, help="positions per shard file")

    nn = modes.add_parser("nnue", help="the built-in engine's evaluation network, from labelled positions")
    nn.add_argument("--data", nargs="+", required=True, metavar="DIR", help="data folders made by 'train data'")
    nn.add_argument("--out", required=True, metavar="FILE",
                    help="the network file to write (.npz; the float checkpoint FILE.pt goes beside it)")
    nn.add_argument("--epochs", type=int, default=10)
    nn.add_argument("--accumulator", type=int, default=256, help="accumulator values per side (default 256)")
    nn.add_argument("--hidden", type=int, default=0, help="hidden layer width (default 0: none)")
    nn.add_argument("--batch", type=int, default=4096, help="positions per step (default 4096)")
    nn.add_argument("--lr", type=float, default=1e-3, help="first learning rate (default 0.001) ...")
    nn.add_argument("--final-lr", type=float, default=1e-4, help="... falling to this by the last epoch (cosine)")
    nn.add_argument("--lambda", dest="score_weight", type=float, default=0.9,
                    help="weight of the teacher's score in the target, the rest the game's result (default 0.9)")
    nn.add_argument("--scale", default="1000", metavar="K",
                    help="centipawns per unit of the network's output, or 'fit': the K for which "
                         "sigmoid(score / K) best predicts the results (default 1000)")
    nn.add_argument("--device", default="cpu", help="torch device: cpu (default) or cuda")
    nn.add_argument("--threads", type=int, default=1, help="torch threads on the CPU (default 1)")
    nn.add_argument("--seed", type=int, default=0)
    nn.add_argument("--init", default=None, metavar="FILE.pt", help="start from this checkpoint's float weights")

    zero = modes.add_parser("zero", help="train the zero network on labelled positions ('train data')")
    zero.add_argument("--data", nargs="+", required=True, metavar="DIR", help="data folders made by 'train data'")
    zero.add_argument("--out", required=True, help="the network file to write (.npz; a .pt checkpoint goes beside it)")
    zero.add_argument("--epochs", type=int, default=4)
    zero.add_argument("--channels", type=int, default=32)
    zero.add_argument("--blocks", type=int, default=4)
    zero.add_argument("--hidden", type=int, default=64)
    zero.add_argument("--policy-head", choices=("pair", "fc"), default="pair",
                      help="pair: from-square x to-square vectors (default); fc: the first networks' conv + linear")
    zero.add_argument("--policy-channels", type=int, default=32,
                      help="the policy head's vectors per square (pair) or channels (fc) (default 32)")
    zero.add_argument("--value-channels", type=int, default=2, help="the value head's channels (default 2)")
    zero.add_argument("--buffer-shards", type=int, default=4,
                      help="shards read together and shuffled as one (default 4; more mixes better, costs memory)")
    zero.add_argument("--batch", type=int, default=512)
    zero.add_argument("--lr", type=float, default=2e-3, help="peak learning rate (one-cycle schedule)")
    zero.add_argument("--policy-temperature", type=float, default=60.0,
                      help="centipawns: the teacher's lines become softmax(score / T) (default 60)")
    zero.add_argument("--master-weight", type=float, default=0.5,
                      help="share of a master position's policy target given to the master's move (default 0.5)")
    zero.add_argument("--score-weight", type=float, default=0.7,
                      help="value = w * tanh(teacher score / 400) + (1 - w) * result (default 0.7)")
    zero.add_argument("--max-positions", type=int, default=None, help="positions read per epoch (default: all)")
    zero.add_argument("--heldout-positions", type=int, default=None, metavar="N",
                      help="measure after each epoch on held-out games holding about N positions (default: all)")
    zero.add_argument("--device", default="cpu", help="cpu, cuda or auto (default cpu)")
    zero.add_argument("--threads", type=int, default=1, help="torch threads on the CPU (default 1)")
    zero.add_argument("--seed", type=int, default=0)
    zero.add_argument("--init", default=None, metavar="FILE",
                      help="start from this network (.pt checkpoint, or a .npz such as the shipped one) "
                           "instead of a new one; its sizes and heads replace --channels … --value-channels")
    zero.add_argument("--grow-blocks", type=int, default=0, metavar="N",
                      help="with --init: add N residual blocks that start as the identity, so training "
                           "deepens the network from what it already plays (default 0)")
    zero.add_argument("--average", type=float, default=None, metavar="DECAY",
                      help="write and measure the moving average of the weights after every step with this "
                           "decay (such as 0.999) instead of the last weights; the .pt keeps the trained ones")

    sp = modes.add_parser("selfplay", help="reinforcement learning by self-play with an arena gate")
    sp.add_argument("--net", required=True, help="the starting network (.npz; its .pt checkpoint beside it is trained on where there is one)")
    sp.add_argument("--out-dir", required=True, help="folder for checkpoints, best.npz, log.csv and log.png")
    sp.add_argument("--iterations", type=int, default=1)
    sp.add_argument("--games", type=int, default=8, help="self-play games per iteration")
    sp.add_argument("--simulations", type=int, default=64, help="PUCT simulations per self-play move")
    sp.add_argument("--max-plies", type=int, default=160, help="a self-play game longer than this is a draw")
    sp.add_argument("--workers", type=int, default=2, help="self-play processes")
    sp.add_argument("--window", type=int, default=4, help="train on the positions of the last N iterations")
    sp.add_argument("--epochs", type=int, default=1, help="passes over the window per iteration")
    sp.add_argument("--arena-games", type=int, default=6, help="new vs old games per iteration (0: always accept)")
    sp.add_argument("--gate", type=float, default=0.55, help="the new network replaces the old at this score share")
    sp.add_argument("--ladder-games", type=int, default=0,
                    help="games against each ladder rung per iteration for the log's Elo column (0: none)")
    sp.add_argument("--lr", type=float, default=5e-4)
    sp.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    sp.add_argument("--seed", type=int, default=0)


def run(args: argparse.Namespace) -> int:
    if args.mode == "data":
        return _data(args)
    try:
        import torch
    except ImportError:
        report_error("torch is not installed (pip install 'xqdesk[train]')", "train")
        return 2
    torch.set_num_threads(max(1, args.threads))
    if args.mode == "nnue":
        return _nnue(args)
    if args.mode == "zero":
        return _zero(args)
    from xqdesk.engines.zero.selfplay import SelfPlayConfig, run_selfplay
    from xqdesk.errors import XqdeskError
    config = SelfPlayConfig(games=args.games, simulations=args.simulations, max_plies=args.max_plies,
                            workers=args.workers, window=args.window, epochs=args.epochs,
                            arena_games=args.arena_games, gate=args.gate, ladder_games=args.ladder_games,
                            learning_rate=args.lr, seed=args.seed)
    try:
        run_selfplay(Path(args.net), Path(args.out_dir), args.iterations, config, report=print)
    except (XqdeskError, ValueError, OSError) as error:
        report_error(str(error), "train selfplay")
        return 1
    return 0


def _nnue(args: argparse.Namespace) -> int:
    import torch

    from xqdesk.engines.training.nnue_training import TrainingConfig, train_network
    from xqdesk.errors import XqdeskError

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        report_error(f"--device {args.device}, but torch sees no GPU here", "train nnue")
        return 2
    try:
        scale = None if args.scale == "fit" else float(args.scale)
    except ValueError:
        report_error(f"--scale takes a number of centipawns or 'fit', got {args.scale!r}", "train nnue")
        return 2
    try:
        config = TrainingConfig(accumulator=args.accumulator, hidden=args.hidden, epochs=args.epochs,
                                batch_size=args.batch, learning_rate=args.lr, final_learning_rate=args.final_lr,
                                score_weight=args.score_weight, scale=scale, seed=args.seed, device=args.device)
        train_network(args.data, args.out, config, init=args.init, report=lambda line: print(line, flush=True))
    except XqdeskError as error:
        report_error(str(error), "train nnue")
        return 1
    print(f"wrote {args.out}")
    return 0


CALIBRATION_POSITIONS = 4096
"""Training positions on which a network read from a ``.npz`` gets the statistics of its
normalisations before training (:func:`xqdesk.engines.zero.model.calibrate_normalisation`)."""


def _zero(args: argparse.Namespace) -> int:
    from xqdesk.engines.zero.model import ZeroNet, deepened, from_network, load_checkpoint
    from xqdesk.engines.zero.network import Head, Network
    from xqdesk.engines.zero.supervised import Targets, train_from_shards
    from xqdesk.errors import XqdeskError

    if min(args.epochs, args.channels, args.blocks, args.hidden, args.batch, args.policy_channels,
           args.value_channels, args.buffer_shards) < 1 or args.policy_temperature <= 0 \
            or not 0 <= args.master_weight <= 1 or not 0 <= args.score_weight <= 1 or args.grow_blocks < 0 \
            or (args.average is not None and not 0 < args.average < 1):
        report_error("sizes must be positive (--grow-blocks 0 or more), the temperature above 0, the weights "
                     "within [0, 1], the average's decay within (0, 1)", "train zero")
        return 2
    if args.grow_blocks and args.init is None:
        report_error("--grow-blocks deepens the network of --init: give one", "train zero")
        return 2
    try:
        if args.init is None:
            model = ZeroNet(args.channels, args.blocks, args.hidden,
                            Head(args.policy_head, args.policy_channels, args.value_channels))
        elif args.init.endswith(".npz"):
            model = from_network(Network.load(args.init))
        else:
            model = load_checkpoint(args.init)
        model = deepened(model, args.grow_blocks) if args.grow_blocks else model
        from_file = args.init is not None and args.init.endswith(".npz")  # its normalisations hold no statistics
        targets = Targets(args.policy_temperature, args.master_weight, args.score_weight)
        train_from_shards(args.data, args.out, args.epochs, model, targets, args.batch, args.lr, device=args.device,
                          seed=args.seed, max_positions=args.max_positions, buffer_shards=args.buffer_shards,
                          heldout_positions=args.heldout_positions,
                          report=lambda entry: print(entry.line(), flush=True),
                          calibrate_positions=CALIBRATION_POSITIONS if from_file else 0, average=args.average)
    except (XqdeskError, OSError, ValueError) as error:
        report_error(str(error), "train zero")
        return 1
    print(f"wrote {args.out}")
    return 0


NO_TEACHER_GAMES_PER_TASK = 200
"""Games a task of a set without a teacher: such a task takes about a second, so fewer, bigger
tasks (each ends in a manifest write and a shard top-up)."""


def _data(args: argparse.Namespace) -> int:
    import time

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from xqdesk.engines.errors import EngineError
    from xqdesk.engines.training.pipeline import DataPlan, default_jobs, make_data
    from xqdesk.engines.training.tasks import LabelSettings
    from xqdesk.engines.training.teacher import NO_TEACHER, default_teacher
    from xqdesk.errors import XqdeskError

    if args.depth < 1 or args.multipv < 1 or args.teacher_games < 0 or args.holdout < 0 or args.shard_size < 1:
        report_error("--depth, --multipv and --shard-size must be positive, --teacher-games and --holdout not "
                     "negative", "train data")
        return 2
    if not args.records and not args.teacher_games:
        report_error("nothing to label: give --records FILE… and/or --teacher-games N", "train data")
        return 2
    if args.teacher == NO_TEACHER:
        if args.teacher_games:
            report_error("--teacher-games needs a teacher that searches, not --teacher none", "train data")
            return 2
        settings = LabelSettings(NO_TEACHER, depth=0, multipv=1)
        plan = DataPlan(settings, tuple(args.records), holdout=args.holdout, seed=args.seed,
                        shard_size=args.shard_size, games_per_task=NO_TEACHER_GAMES_PER_TASK)
    else:
        settings = LabelSettings(args.teacher or default_teacher(), args.depth, args.multipv)
        plan = DataPlan(settings, tuple(args.records), args.teacher_games, holdout=args.holdout, seed=args.seed,
                        shard_size=args.shard_size)
    jobs = args.jobs or default_jobs()
    if args.teacher == NO_TEACHER:
        print("no teacher: the records' moves and results, read on this process", flush=True)
    else:
        where = (f"on Ray ({args.cluster})" if args.cluster
                 else f"{jobs} teacher process{'es' if jobs != 1 else ''} at a time")
        print(f"teacher {settings.teacher}, depth {settings.depth}, MultiPV {settings.multipv}, {where}", flush=True)
    started = time.perf_counter()
    console = Console(stderr=True)
    try:
        with Progress(TextColumn("labelling"), BarColumn(), MofNCompleteColumn(), TextColumn("tasks"),
                      TextColumn("{task.fields[positions]:,} positions"), TimeElapsedColumn(), TimeRemainingColumn(),
                      console=console) as bar:
            task = bar.add_task("tasks", total=None, positions=0)

            def progress(done: int, total: int, positions: int) -> None:
                bar.update(task, completed=done, total=total, positions=positions)

            summary = make_data(plan, args.out, jobs, args.cluster,  # lines may quote the records: inert, no markup
                                report=lambda line: console.print(printable(line), markup=False, highlight=False),
                                on_progress=progress)
    except (XqdeskError, EngineError, OSError) as error:
        report_error(str(error), "train data")
        return 1
    print(f"{summary.positions_added} new positions in {time.perf_counter() - started:.0f} s "
          f"({summary.tasks_done} tasks, {summary.tasks_skipped} done before); the set holds "
          f"{summary.positions} positions for training and {summary.holdout_positions} held out")
    return 0
