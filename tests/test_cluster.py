"""Games and reviews as Ray tasks (``--cluster``): a tournament, a course match and an annotate run
on a local Ray (two CPUs) give the same standings, PGN, match folder and annotations as plain runs,
and a task whose worker dies is run again. Skipped when Ray is not installed."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="Ray is not installed: pip install 'xqdesk[cluster]'")

from test_review_engine import MASTER  # noqa: E402

from xqdesk.engines.training.shards import ShardReader  # noqa: E402
from xqdesk.formats import read_games  # noqa: E402
from xqdesk.formats.pgn import write_pgn  # noqa: E402
from xqdesk.game import Game  # noqa: E402

pytestmark = pytest.mark.engines

ROOT = Path(__file__).parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    """Run a command in a process group of its own; past the time limit the whole group (Ray's
    workers included) is killed, so nothing is left for the next test."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), RAY_AUTH_MODE="disabled")
    process = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT, env=env, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=900)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        pytest.fail(f"{args[:2]} did not finish in 900 s:\n{stderr[-2000:]}")
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def without_move_times(path: Path) -> str:
    """A record's words without the seconds each move took (``{+0.35/12 0.98s}`` -> ``{+0.35/12}``,
    ``{0s}`` -> ``{}``) and so without the line breaks they moved: the same games played twice
    differ in nothing else."""
    return " ".join(re.sub(r" ?\d+(?:\.\d+)?s\}", "}", path.read_text(encoding="utf-8")).split())


def test_tournament_course_match_and_annotate_on_ray_match_plain_runs(tmp_path):
    games = tmp_path / "two.pgn"
    write_pgn(games, [Game.from_moves(game.mainline_moves()[:4], headers=dict(game.headers))
                      for game in read_games(MASTER).games[:2]])
    commands = {
        "tournament": ["tournament", "random:Seed=1", "greedy:Seed=2", "--games", "2", "--quiet", "--out"],
        "match": ["match", "--red", "greedy:Seed=1", "--black", "random:Seed=2", "--course", "--seed", "5",
                  "--quiet", "--out"],
        "annotate": ["annotate", str(games), "--engine", "builtin", "--depth", "2", "--quiet"],
        "train": ["train", "data", "--records", str(games), "--teacher-games", "1", "--teacher", "builtin",
                  "--depth", "1", "--multipv", "2", "--out"],
    }

    def out(kind: str, where: str) -> str:
        return str(tmp_path / where / ("annotated.pgn" if kind == "annotate" else kind))

    cluster_args = []
    for kind, command in commands.items():
        cluster_args += ["--", *command, out(kind, "ray"), "--cluster", "local"]
    on_ray = run(str(Path(__file__).parent / "cluster_run.py"), str(tmp_path / "marker"), *cluster_args)
    assert on_ray.returncode == 0, on_ray.stderr[-3000:]
    assert "retry: answered on attempt 2" in on_ray.stdout  # the worker that died was replaced
    assert on_ray.stdout.count(" exit 0") == len(commands), on_ray.stdout
    plain = [run("-m", "xqdesk", *command, out(kind, "plain")) for kind, command in commands.items()]
    assert all(done.returncode == 0 for done in plain), [done.stderr for done in plain]

    def standings(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.lstrip().startswith(("Rank", "1 ", "2 "))]

    assert standings(plain[0].stdout) and standings(plain[0].stdout) == standings(on_ray.stdout.split("=== tournament")[0])
    for path in ("tournament/tournament.pgn", "match/games.pgn", "match/Player 1 VS Player 2/summary.txt"):
        assert without_move_times(tmp_path / "ray" / path) == without_move_times(tmp_path / "plain" / path), path
    ray_annotated = (tmp_path / "ray" / "annotated.pgn").read_text()
    assert ray_annotated == (tmp_path / "plain" / "annotated.pgn").read_text()
    assert ray_annotated.count("[Annotator") == 2 and "[%eval" in ray_annotated

    def labelled(where: str) -> list[tuple[int, int, tuple[int, ...]]]:
        data = ShardReader(tmp_path / where / "train").all()
        return sorted((int(key), int(score), tuple(moves)) for key, score, moves in
                      zip(data["key"], data["score"], data["moves"].tolist()))

    assert labelled("plain") and labelled("ray") == labelled("plain")
