"""Select the positions of ``bench/tactics.epd``: where one move is clearly best and a shallow
built-in search plays another. CPU-heavy (hours on one core); run once, in the background.

    python bench/select_tactics.py [--out bench/tactics.epd] [--target 240] [--probe-depth 7]
        [--shallow-depth 9] [--middle-depth 13] [--deep-depth 16] [--margin 150] [--seed 1]

Candidates are the positions from ply ``--min-ply`` on of every game record under
``tests/data/games`` (master PGNs, the 象棋桥 libraries, the GB18030 championship games, XQF …),
each position once, taken one game at a time in a shuffled order of games: the last position of
every game, then the one before it … (``--order end``: a master game's decisive moments come near
its end, and a clearly best move is rare earlier — about one candidate in 200 from anywhere in a
game makes it), or one random position of every game, then a second … (``--order shuffle``).
A candidate is kept when

1. Fairy-Stockfish at ``--shallow-depth`` with MultiPV 2 prefers one move by at least
   ``--shallow-margin`` (a cheap filter: the deep search is 30 times dearer);
2. the engine ``--probe`` (the built-in engine, or one of a git revision: ``rev:REV``), searching it
   to ``--probe-depth`` from a new game, plays another move M;
3. Fairy-Stockfish at ``--middle-depth`` prefers a move ≠ M by at least ``--middle-margin`` (the
   shallow margins are noisy: most of them vanish deeper);
4. Fairy-Stockfish at ``--deep-depth`` with MultiPV 2 (its hash table kept from step 3) finds a best
   move B ≠ M at least ``--margin`` centipawns above the second best (a mate counts as 20,000 cp
   minus its moves), and the position is not won whatever is played (second best below ``--won``).

Each kept position is written at once (the file is rewritten, so an interrupted run keeps what it
found; the header counts the candidates examined, and a second run with the same options resumes
after them). The format is EPD-like, one position a line::

    FEN; bm B; margin CP; ce CP; second MOVE CP; probe M; source "FILE game N ply P"

``ce`` is the best move's deep score (side to move's view), ``second`` the runner-up and its score,
``probe`` the probe engine's move; moves are ICCS (ranks 0–9).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from strength import opponent_spec  # noqa: E402

from xqdesk.engines.search_types import SearchLimits  # noqa: E402
from xqdesk.engines.transport.uci_engine import UciEngine  # noqa: E402
from xqdesk.formats import read_games  # noqa: E402
from xqdesk.move import Move  # noqa: E402

GAMES_DIR = ROOT / "tests" / "data" / "games"
OUT_FILE = Path(__file__).resolve().parent / "tactics.epd"
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
MATE_CP = 20000
SEARCH_TIMEOUT = 600.0


@dataclass(frozen=True)
class Candidate:
    fen: str
    source: str


@dataclass(frozen=True)
class Verdict:
    """Fairy-Stockfish's two best moves at one depth and their scores (side to move's view)."""

    best: Move
    best_cp: int
    second: Move
    second_cp: int

    @property
    def margin(self) -> int:
        return self.best_cp - self.second_cp


def candidates(games_dir: Path, min_ply: int, seed: int, from_end: bool) -> list[Candidate]:
    """Every position from ``min_ply`` on of every readable game under ``games_dir``, each once,
    ordered one game at a time (games shuffled): the last position of every game, then the one
    before it … with ``from_end``, else each game's positions shuffled."""
    per_game: list[list[Candidate]] = []
    seen: set[str] = set()
    for path in sorted(p for p in games_dir.rglob("*") if p.is_file()):
        try:
            record = read_games(path)
        except Exception as error:  # noqa: BLE001 - a file no reader takes is simply skipped
            print(f"skipped {path.relative_to(games_dir)}: {error}", file=sys.stderr)
            continue
        for number, game in enumerate(record.games, start=1):
            board = game.start_board()
            positions: list[Candidate] = []
            for ply, move in enumerate(game.mainline_moves()):
                if ply >= min_ply and len(board.legal_moves) > 1:
                    fen = board.fen()
                    placement = " ".join(fen.split()[:2])
                    if placement not in seen:
                        seen.add(placement)
                        positions.append(Candidate(fen, f"{path.relative_to(games_dir)} game {number} ply {ply}"))
                if not board.is_legal(move):
                    break
                board.push(move)
            if positions:
                per_game.append(positions)
    rng = random.Random(seed)
    rng.shuffle(per_game)
    for positions in per_game:
        if from_end:
            positions.reverse()
        else:
            rng.shuffle(positions)
    ordered: list[Candidate] = []
    for round_index in range(max((len(p) for p in per_game), default=0)):
        ordered += [positions[round_index] for positions in per_game if round_index < len(positions)]
    return ordered


class Teacher:
    """Fairy-Stockfish with MultiPV 2, one thread."""

    def __init__(self, command: str) -> None:
        self.engine = UciEngine([command], options={"Threads": "1", "Hash": "64", "MultiPV": "2"})
        self.engine.start()

    def verdict(self, fen: str, depth: int, fresh: bool = True) -> Optional[Verdict]:
        """The two best moves at ``depth`` (None with one legal move or no score); ``fresh``
        clears the hash table first (else what an earlier search of the position left helps)."""
        if fresh:
            self.engine.new_game()
        result = self.engine.search(fen, [], SearchLimits(depth=depth), deadline=time.monotonic() + SEARCH_TIMEOUT)
        final = max((info.depth or 0 for info in result.infos if info.pv and info.score is not None), default=0)
        lines: dict[int, tuple[Move, int]] = {}
        for info in result.infos:
            if info.depth == final and info.pv and info.score is not None:
                cp = info.score.relative.score(mate_score=MATE_CP)
                if cp is not None:
                    lines[info.multipv] = (info.pv[0], cp)
        if 1 not in lines or 2 not in lines:
            return None
        (best, best_cp), (second, second_cp) = sorted(lines.values(), key=lambda line: -line[1])[:2]
        return Verdict(best, best_cp, second, second_cp)

    def close(self) -> None:
        self.engine.quit()


class Probe:
    """The engine whose shallow search a position must fool: a process, told ``go depth`` from a
    new game."""

    def __init__(self, name: str, args: argparse.Namespace) -> None:
        spec = opponent_spec(name, args)
        self.engine = UciEngine(spec.command, cwd=spec.workdir, options=spec.options, env=spec.env,
                                protocol=spec.protocol)
        self.engine.start()

    def move(self, fen: str, depth: int) -> Optional[Move]:
        self.engine.new_game()
        return self.engine.search(fen, [], SearchLimits(depth=depth), deadline=time.monotonic() + SEARCH_TIMEOUT).move

    def close(self) -> None:
        self.engine.quit()


def epd_line(candidate: Candidate, deep: Verdict, probe: Move) -> str:
    return (f"{candidate.fen}; bm {deep.best.iccs()}; margin {deep.margin}; ce {deep.best_cp}; "
            f"second {deep.second.iccs()} {deep.second_cp}; probe {probe.iccs()}; source \"{candidate.source}\"")


@dataclass
class Progress:
    """How many candidates were examined and how many passed each stage."""

    examined: int = 0
    shallow: int = 0
    probe: int = 0
    middle: int = 0

    def line(self, kept: int) -> str:
        return (f"# examined {self.examined}; passed: shallow {self.shallow}, probe {self.probe}, "
                f"middle {self.middle}; kept {kept}")


def read_progress(path: Path, header: str) -> tuple[Progress, list[str]]:
    """The progress and kept lines of an earlier run with the same header, else a fresh start."""
    if not path.exists():
        return Progress(), []
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != header:
        return Progress(), []
    words = next((line.replace(";", "").replace(",", "").split() for line in lines
                  if line.startswith("# examined ")), None)
    progress = Progress(int(words[2]), int(words[5]), int(words[7]), int(words[9])) if words else Progress()
    return progress, [line for line in lines if line and not line.startswith("#")]


def write(path: Path, header: str, progress: Progress, kept: list[str]) -> None:
    path.write_text("\n".join([header, progress.line(len(kept)), *kept]) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_FILE)
    parser.add_argument("--target", type=int, default=240, help="stop after this many positions (default 240)")
    parser.add_argument("--probe", default="builtin",
                        help="the engine to fool, as bench/strength.py names one (default builtin; rev:REV "
                             "for the built-in engine of a git revision)")
    parser.add_argument("--probe-depth", type=int, default=7, help="its search depth (default 7)")
    parser.add_argument("--shallow-depth", type=int, default=9)
    parser.add_argument("--shallow-margin", type=int, default=80)
    parser.add_argument("--middle-depth", type=int, default=13)
    parser.add_argument("--middle-margin", type=int, default=120)
    parser.add_argument("--deep-depth", type=int, default=16)
    parser.add_argument("--margin", type=int, default=150, help="best minus second best, cp (default 150)")
    parser.add_argument("--won", type=int, default=1000,
                        help="skip positions whose second best scores this much or more: any move wins (default 1000)")
    parser.add_argument("--min-ply", type=int, default=10, help="skip the first plies of each game (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--order", choices=("end", "shuffle"), default="end",
                        help="each game's positions from its end backwards (default: decisive moments "
                             "come at the end of master games) or shuffled")
    parser.add_argument("--fairy-stockfish", default=FAIRY_STOCKFISH)
    parser.add_argument("--eleeye", default=os.environ.get("XQDESK_ELEEYE"), help="ElephantEye, for --probe eleeye")
    args = parser.parse_args()
    header = (f"# bench/select_tactics.py --probe {args.probe} --probe-depth {args.probe_depth} --shallow-depth {args.shallow_depth} "
              f"--shallow-margin {args.shallow_margin} --middle-depth {args.middle_depth} "
              f"--middle-margin {args.middle_margin} --deep-depth {args.deep_depth} --margin {args.margin} "
              f"--won {args.won} --min-ply {args.min_ply} --seed {args.seed} --order {args.order}")
    pool = candidates(GAMES_DIR, args.min_ply, args.seed, args.order == "end")
    progress, kept = read_progress(args.out, header)
    print(f"{len(pool)} candidate positions; resuming after {progress.examined}, {len(kept)} kept", flush=True)
    probe_engine = Probe(args.probe, args)
    teacher = Teacher(args.fairy_stockfish)
    started = time.monotonic()

    def log(text: str) -> None:
        print(f"[{time.monotonic() - started:.0f} s, {progress.examined} examined] {text}", flush=True)

    try:
        for candidate in pool[progress.examined:]:
            if len(kept) >= args.target:
                break
            progress.examined += 1
            if progress.examined % 100 == 0:
                write(args.out, header, progress, kept)
            shallow = teacher.verdict(candidate.fen, args.shallow_depth)
            if shallow is None or shallow.margin < args.shallow_margin:
                continue
            progress.shallow += 1
            probe = probe_engine.move(candidate.fen, args.probe_depth)
            if probe is None or probe == shallow.best:
                continue
            progress.probe += 1
            middle = teacher.verdict(candidate.fen, args.middle_depth)
            if middle is None or middle.best == probe or middle.margin < args.middle_margin:
                continue
            progress.middle += 1
            deep = teacher.verdict(candidate.fen, args.deep_depth, fresh=False)
            if deep is not None and deep.best != probe and deep.margin >= args.margin and deep.second_cp < args.won:
                kept.append(epd_line(candidate, deep, probe))
                log(f"kept {len(kept)}: {kept[-1]}")
            else:
                log(f"rejected {candidate.fen}: probe {probe.iccs()}, middle {middle}, deep {deep}")
            write(args.out, header, progress, kept)
    finally:
        teacher.close()
        probe_engine.close()
        write(args.out, header, progress, kept)
    print(f"done: {progress.line(len(kept))} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
