"""Engine strength: referee-judged matches against reference opponents; prints figures only.

    python bench/strength.py [--engine builtin] [--movetime 1] [--games 4] [--jobs 1]
        [--opponents random greedy minimax fsf:-20 fsf:0 eleeye rev:HEAD~1 …] [--sprt ELO0 ELO1]
        [--pgn DIR] [--verbose]

Every game runs through the real referee (:func:`xqdesk.engines.referee.play_game`) with both sides
as engine processes, told ``--movetime`` seconds per move (or ``--nodes`` nodes, which does not
depend on the machine's load) and judged on the course's clock (``--clock``, default 10 s). Games
come in pairs from the same opening with colours swapped; the openings are ``bench/openings.fen``
(balanced master-game positions after eight plies, see ``bench/make_openings.py``), taken in order.
``--jobs N`` plays N games at once, each job with its own two engine processes (on a 2-core machine,
2 jobs keep both cores busy since the two engines of a game think in turn).

Opponents (and ``--engine``, the side under test, default ``builtin``):

- ``random`` and ``greedy``: xqdesk's baseline engines;
- ``minimax``: ``bench/minimax_student``, a course player searching three plies on material;
- ``fsf:N``: Fairy-Stockfish at ``Skill Level`` N (−20 … 20), one thread;
- ``eleeye``: ElephantEye over UCCI, the executable given by ``--eleeye`` or ``XQDESK_ELEEYE``
  (build it from github.com/xqbase/eleeye with the ``g++`` line of ``eleeye/makefile.sh``);
- ``rev:REV[:OPTIONS]``: the built-in engine as it was at git revision REV (``git archive`` into a
  temporary folder) — an old build, to measure a change;
- any engine SPEC (``builtin:OPTIONS``, ``uci:PATH``, ``ucci:PATH``, ``player:PATH`` …).

For each opponent it prints the engine's wins/draws/losses, score, Elo difference with its 95%
interval, its illegal moves, time losses and slowest move, and the mean game length. With ``--sprt
ELO0 ELO1`` each match is a sequential test (:class:`xqdesk.engines.elo.Sprt`, α = β = 0.05) of
H0: Elo = ELO0 against H1: Elo = ELO1, stopped after the first pair of games that decides it
(``--games`` is then the most it plays); the log-likelihood ratio and its bounds are printed.
"""
from __future__ import annotations

import argparse
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.board import Board  # noqa: E402
from xqdesk.engines.elo import Sprt, elo_difference  # noqa: E402
from xqdesk.engines.engine_player import EnginePlayer  # noqa: E402
from xqdesk.engines.referee import GameRecord, play_game  # noqa: E402
from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.spec import EngineSpec, host_command, parse_options, parse_spec  # noqa: E402
from xqdesk.outcome import Termination  # noqa: E402
from xqdesk.pieces import BLACK, RED  # noqa: E402

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
OPENINGS_FILE = Path(__file__).resolve().parent / "openings.fen"


def read_openings(path: Path = OPENINGS_FILE) -> list[str]:
    """The FENs of an openings file (one a line; ``#`` starts a comment)."""
    fens = [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return [fen for fen in fens if fen]


OPENINGS = read_openings()
DEFAULT_OPPONENTS = ["random", "greedy", "minimax", "fsf:-20", "fsf:-10", "fsf:0", "fsf:5", "fsf:10"]


def old_build_spec(text: str) -> EngineSpec:
    """``rev:REV[:OPTIONS]``: the built-in engine of git revision REV, unpacked into a temporary
    folder that is removed at exit."""
    rev, _, options = text[4:].partition(":")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                            capture_output=True, text=True).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix=f"xqdesk-{commit}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "xqdesk", "resources"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    env = dict(os.environ, PYTHONPATH=str(folder))
    # Run in that folder: ``python -m`` puts the working directory first on sys.path, so started from
    # a checkout the old build would otherwise import the checkout's xqdesk.
    return EngineSpec(f"builtin@{commit}", host_command("builtin"), parse_options(options, text),
                      workdir=str(folder), env=env)


def opponent_spec(name: str, args: argparse.Namespace) -> EngineSpec:
    if name in ("random", "greedy"):
        return parse_spec(name)
    if name == "minimax":
        return parse_spec(f"player:{ROOT / 'bench' / 'minimax_student'}")
    if name.startswith("fsf:"):
        return replace(parse_spec(f"uci:{args.fairy_stockfish}:Skill Level={int(name[4:])},Threads=1,Hash=16"),
                       name=name)
    if name == "eleeye":
        if not args.eleeye:
            raise SystemExit("eleeye: say where ElephantEye is, with --eleeye PATH or XQDESK_ELEEYE")
        return replace(parse_spec(f"ucci:{args.eleeye}"), name="eleeye")
    if name.startswith("rev:"):
        return old_build_spec(name)
    return parse_spec(name)


@dataclass
class Tally:
    """The engine's results against one opponent."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    illegal: int = 0
    timeouts: int = 0
    slowest: float = 0.0
    plies: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    decided: bool = False
    """Set once the match's SPRT is decided: no new game starts."""

    def add(self, record: GameRecord, engine_colour: int, own_times: tuple[float, ...]) -> None:
        """Count one game; ``own_times``: the engine's seconds for each of its moves."""
        outcome = record.outcome
        with self.lock:
            self.slowest = max([self.slowest, *own_times])
            self.plies.append(len(record.moves))
            if outcome.winner is None:
                self.draws += 1
            elif outcome.winner == engine_colour:
                self.wins += 1
            else:
                self.losses += 1
                self.illegal += outcome.termination == Termination.ILLEGAL_MOVE
                self.timeouts += outcome.termination == Termination.TIMEOUT


def play_games(engine: EngineSpec, opponent: EngineSpec, indexes: list[int], tally: Tally,
               args: argparse.Namespace) -> None:
    """Play the games numbered ``indexes`` (even: the engine has Red) with one pair of processes."""
    limits = SearchLimits(movetime=None if args.nodes else args.movetime, nodes=args.nodes)
    ours = EnginePlayer(engine, limits)
    theirs = EnginePlayer(opponent, limits)
    try:
        ours.start()
        theirs.start()
        for index in indexes:
            if tally.decided:
                break
            engine_colour = RED if index % 2 == 0 else BLACK
            red, black = (ours, theirs) if engine_colour == RED else (theirs, ours)
            start = Board(OPENINGS[(index // 2) % len(OPENINGS)])
            record = play_game(red, black, move_time_limit=args.clock, board=start)
            first_own_ply = 0 if engine_colour == start.turn else 1
            tally.add(record, engine_colour, record.move_times[first_own_ply::2])
            if args.sprt and index % 2 == 1:  # judged after whole pairs, colours balanced
                with tally.lock:
                    tally.decided = tally.decided or sprt_of(args).verdict(tally.wins, tally.draws, tally.losses) is not None
            if args.pgn:
                save_game(Path(args.pgn) / f"{opponent.name.replace(':', '_')}-{index + 1:03d}.pgn",
                          record, red.name, black.name, start)
            if args.verbose:
                print(f"  game {index + 1}: {engine.name} {'red' if engine_colour == RED else 'black'}, "
                      f"{len(record.moves)} plies: {record.outcome.text}", flush=True)
    finally:
        ours.close()
        theirs.close()


def save_game(path: Path, record: GameRecord, red: str, black: str, start: Board) -> None:
    from xqdesk.formats import write_games
    from xqdesk.game import Game

    game = Game.from_moves(record.moves, start.fen(), outcome=record.outcome,
                           headers={"Red": red, "Black": black})
    path.parent.mkdir(parents=True, exist_ok=True)
    write_games(path, [game])


def sprt_of(args: argparse.Namespace) -> Sprt:
    return Sprt(args.sprt[0], args.sprt[1])


def play_match(engine: EngineSpec, name: str, args: argparse.Namespace) -> None:
    opponent = opponent_spec(name, args)
    tally = Tally()
    started = time.monotonic()
    jobs = max(1, min(args.jobs, args.games))
    # Whole pairs per job, so each opening is played with both colours by the same processes.
    shares: list[list[int]] = [[] for _ in range(jobs)]
    for index in range(args.games):
        shares[(index // 2) % jobs].append(index)
    with ThreadPoolExecutor(jobs) as pool:
        for future in [pool.submit(play_games, engine, opponent, share, tally, args) for share in shares]:
            future.result()
    games = tally.wins + tally.draws + tally.losses
    score = (tally.wins + 0.5 * tally.draws) / games if games else 0.0
    mean_plies = sum(tally.plies) / len(tally.plies) if tally.plies else 0
    print(f"{opponent.name:<10} +{tally.wins} ={tally.draws} -{tally.losses}  score {100 * score:5.1f}%  "
          f"{elo_difference(tally.wins, tally.draws, tally.losses)}  illegal {tally.illegal} "
          f"timeouts {tally.timeouts}  slowest move {tally.slowest:.2f} s  mean {mean_plies:.0f} plies  "
          f"({time.monotonic() - started:.0f} s)", flush=True)
    if args.sprt:
        test = sprt_of(args)
        verdict = test.verdict(tally.wins, tally.draws, tally.losses)
        print(f"{'':<10} SPRT H0 Elo {test.elo0:g} vs H1 Elo {test.elo1:g}: LLR "
              f"{test.llr(tally.wins, tally.draws, tally.losses):+.2f} (bounds {test.lower:+.2f} .. {test.upper:+.2f}): "
              f"{'accepted ' + verdict if verdict else 'not decided'}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="builtin", help="the engine under test (default builtin)")
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per move for both sides (default 1)")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per move instead of a move time")
    parser.add_argument("--clock", type=float, default=None,
                        help="the referee's move clock in seconds (default: the course's 10)")
    parser.add_argument("--games", type=int, default=4, help="games per opponent, colours alternating (default 4)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--opponents", nargs="+", default=DEFAULT_OPPONENTS, metavar="NAME")
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH, help="the Fairy-Stockfish executable")
    parser.add_argument("--eleeye", default=os.environ.get("XQDESK_ELEEYE"), help="the ElephantEye executable")
    parser.add_argument("--sprt", type=float, nargs=2, default=None, metavar=("ELO0", "ELO1"),
                        help="stop each match once an SPRT of Elo ELO0 against ELO1 is decided")
    parser.add_argument("--pgn", default=None, metavar="DIR", help="write every game as PGN into DIR")
    parser.add_argument("--verbose", action="store_true", help="print every game")
    args = parser.parse_args()
    engine = opponent_spec(args.engine, args)
    budget = f"{args.nodes} nodes" if args.nodes else f"{args.movetime:g} s"
    print(f"{engine.name} vs opponents, {budget} per move, {args.games} games each, {args.jobs} at once, "
          f"referee clock {args.clock or 10:g} s, openings {OPENINGS_FILE.name} ({len(OPENINGS)})")
    for name in args.opponents:
        play_match(engine, name, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
