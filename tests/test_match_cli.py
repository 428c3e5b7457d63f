"""The match, tournament and analyse commands, run as a user runs them (real engine processes)."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from xqdesk.formats.course_match import read_course_match
from xqdesk.formats.pgn import read_pgn

PLAYERS = Path(__file__).parent / "players"
FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not Path(FAIRY).is_file(),
                                 reason="Fairy-Stockfish is not installed (CI installs the Debian package)")


def xqdesk(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=Path(__file__).parent.parent)


def test_course_match_with_playoff_writes_a_folder_replay_accepts(tmp_path):
    # Red always loses at once here (both players fault on their first move), so games 1-6 split
    # 3 : 3 and the playoff decides; its loser is whoever drew Red.
    done = xqdesk("match", "--red", f"player:{PLAYERS / 'illegal'}", "--black", f"player:{PLAYERS / 'raises'}",
                  "--course", "--ids", "3", "1", "--seed", "5", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "Player 1 VS Player 3"
    assert sorted(path.name for path in folder.iterdir()) == [f"Game {n}.txt" for n in range(1, 8)] + ["summary.txt"]
    summary = (folder / "summary.txt").read_bytes()
    assert summary.startswith(b"Playing game: Player 3 VS Player 1\r\n") and not summary.endswith(b"\n")
    assert b"Game 7: Player " in summary and b"wins by taking black: Red moves illegally, Black wins! (" in summary
    assert (folder / "Game 1.txt").read_bytes() == b"[]"
    match = read_course_match(folder)
    assert match.winner_id is not None and len(match.games) == 7
    checked = xqdesk("replay", "--check", str(folder))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "7 agree, 0 differ" in checked.stdout
    assert len(read_pgn(tmp_path / "games.pgn").games) == 7


def test_course_match_with_moves_is_accepted_by_replay(tmp_path):
    done = xqdesk("match", "--red", f"player:{PLAYERS / 'ordinary'}", "--black", f"player:{PLAYERS / 'raises'}",
                  "--course", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "Player 1 VS Player 2"
    assert "Finally Player 1 wins and Player 2 loses!" in (folder / "summary.txt").read_text()
    assert (folder / "Game 2.txt").read_text().startswith("[(") and (folder / "Game 5.txt").read_text() == "[]"
    checked = xqdesk("replay", "--check", str(folder))
    assert checked.returncode == 0 and "6 agree, 0 differ" in checked.stdout, checked.stdout + checked.stderr


def test_match_reports_each_game_and_the_score(tmp_path):
    done = xqdesk("match", "--red", "greedy:Seed=1", "--black", "random:Seed=2", "--games", "2",
                  "--concurrency", "2", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("Game 1: greedy:Seed=1 (red) vs random:Seed=2 (black)") for line in lines)
    assert any(line.startswith("Game 2: random:Seed=2 (red) vs greedy:Seed=1 (black)") for line in lines)
    assert any(line.startswith("Elo difference:") for line in lines)
    assert any(line.startswith("Performance rating of greedy:Seed=1:") for line in lines)
    games = read_pgn(tmp_path / "games.pgn").games
    assert [game.headers["Red"] for game in games] == ["greedy:Seed=1", "random:Seed=2"]
    assert all(game.replay() is not None for game in games)


@pytest.mark.parametrize("spec, message", [
    ("player:no/such/player_7", "no such player"),
    (f"player:{PLAYERS / 'syntax_error'}", "SyntaxError"),
    (f"player:{PLAYERS / 'ctor_raises'}", "cannot find my weights"),
    ("uci:/no/such/engine", "no such engine file"),
    ("stockfish-named-nowhere", "unknown engine"),
])
def test_bad_engines_are_reported_before_any_game(spec, message):
    done = xqdesk("match", "--red", spec, "--black", "random", "--games", "1")
    assert done.returncode == 2
    assert message in done.stderr and "Game 1" not in done.stdout


def test_tournament_prints_standings():
    done = xqdesk("tournament", "greedy:Seed=3", f"player:{PLAYERS / 'raises'}", "random:Seed=4", "--games", "2",
                  "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["Rank", "Engine", "Games", "Points", "W", "D", "L", "Score"]
    last = lines[3].split()
    assert last[1] == "player:raises" and last[2:8] == ["4", "0.0", "0", "0", "4", "0.0%"]


def test_named_engine_from_an_engines_file(tmp_path):
    engines = tmp_path / "engines.json"
    engines.write_text('[{"name": "steady", "command": ["' + sys.executable + '", "-m", "xqdesk.engines.host", '
                       '"greedy"], "protocol": "uci", "options": {"Seed": "9"}}]')
    done = xqdesk("match", "--red", "steady", "--black", f"player:{PLAYERS / 'raises'}", "--games", "1",
                  "--engines", str(engines))
    assert done.returncode == 0, done.stderr
    assert "steady wins: Black moves illegally, Red wins!" in done.stdout


@needs_fairy
def test_player_against_fairy_stockfish_full_game(tmp_path):
    done = xqdesk("match", "--red", f"player:{PLAYERS / 'ordinary'}", "--black", f"uci:{FAIRY}:Hash=8",
                  "--games", "1", "--movetime", "0.02", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "uci:fairy-stockfish wins: Red loses the game. Black wins!" in done.stdout
    game = read_pgn(tmp_path / "games.pgn").games[0]
    assert game.replay().outcome() is not None


@needs_fairy
def test_builtin_against_fairy_stockfish_full_game(tmp_path):
    done = xqdesk("match", "--red", "builtin", "--black", f"uci:{FAIRY}:Hash=8,Skill Level=-20",
                  "--games", "1", "--movetime", "0.02", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Game 1: builtin (red) vs uci:fairy-stockfish (black)")
    assert "moves illegally" not in done.stdout and "timeout" not in done.stdout
    assert len(read_pgn(tmp_path / "games.pgn").games) == 1


@needs_fairy
def test_analyse_with_fairy_stockfish_multipv():
    done = xqdesk("analyse", "--engine", f"uci:{FAIRY}", "--movetime", "0.3", "--multipv", "2")
    assert done.returncode == 0, done.stderr
    assert " pv 2 depth" in done.stdout and "Best move: " in done.stdout


def test_progress_line_counts_and_estimates_time_left(capsys):
    from xqdesk.cli.match import Progress
    from xqdesk.engines.contests.match import PlayedGame, ScheduledGame
    from xqdesk.engines.play.referee import GameRecord
    from xqdesk.fen import STARTING_FEN
    from xqdesk.outcome import Outcome

    progress = Progress(4, ["a", "b"], quiet=False)
    record = GameRecord("a", "b", STARTING_FEN, (), (), Outcome.timeout(False))
    progress(PlayedGame(ScheduledGame(1, 0, 1), record))
    assert capsys.readouterr().out == "Game 1: a (red) vs b (black), 0 plies: a wins: Black timeout, Red wins!\n"
    line = progress.line()
    assert line.startswith("[1/4] red wins 1, black wins 0, draws 0 | elapsed 0:00, ~0:00 left")


def test_analyse_prints_scores_from_the_view_asked_for():
    """Black to move, Red without its chariots: good for the mover, bad for Red."""
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 b - - 0 1"
    scores = {}
    for view in ("mover", "red"):
        done = xqdesk("analyse", "--engine", "builtin", "--fen", fen, "--depth", "3", "--score-view", view)
        assert done.returncode == 0, done.stderr
        lines = [line.split() for line in done.stdout.splitlines() if line.strip().startswith("pv 1 depth")]
        scores[view] = float(lines[-1][lines[-1].index("score") + 1])
        assert ("Scores from Black's view (the side to move)" if view == "mover"
                else "Scores from Red's view") in done.stdout
    assert scores["mover"] > 3 and scores["red"] == -scores["mover"]


def test_a_time_control_is_kept_by_the_referee_and_told_to_the_engines() -> None:
    done = xqdesk("match", "--red", "builtin:Level=2", "--black", "random", "--games", "2", "--tc", "2m+1s")
    assert done.returncode == 0, done.stderr
    # no game lost on time (a weak level may fail to convert against random within 120 plies: a draw)
    assert "timeout" not in done.stdout and re.search(r"builtin:Level=2 vs random: \+\d =\d -0", done.stdout)
    slow = xqdesk("match", "--red", f"player:{PLAYERS / 'sleeps'}", "--black", "random", "--games", "1", "--tc", "1s")
    assert "Red timeout, Black wins!" in slow.stdout
    bad = xqdesk("match", "--red", "random", "--black", "random", "--tc", "soon")
    assert bad.returncode == 2 and "time control 'soon'" in bad.stderr


def test_match_log_holds_both_directions_of_every_engine_with_times(tmp_path):
    trace = tmp_path / "trace.txt"
    done = xqdesk("match", "--red", "random:Seed=1", "--black", "greedy:Seed=2", "--games", "1",
                  "--movetime", "0.05", "--log", str(trace))
    assert done.returncode == 0, done.stderr
    lines = trace.read_text(encoding="utf-8").splitlines()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"
    assert lines and all(re.match(rf"{stamp} (random|greedy):Seed=\d\[\d+\] [<>!] ", line) for line in lines), lines[:5]
    for name in ("random:Seed=1", "greedy:Seed=2"):
        said = [line.split("] ", 1)[1] for line in lines if f" {name}[" in line]
        assert "> uci" in said and "< uciok" in said
        assert any(text.startswith("> go ") for text in said) and any(text.startswith("< bestmove ") for text in said)


def test_a_log_that_cannot_be_written_is_refused_before_any_engine_starts(tmp_path):
    done = xqdesk("analyse", "--engine", "random", "--log", str(tmp_path / "missing" / "trace.txt"))
    assert done.returncode == 3
    assert "cannot write the log" in done.stderr
