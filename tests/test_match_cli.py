"""The match, tournament and analyse commands, run as a user runs them (real engine processes)."""
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

from xqdesk.formats.course_match import read_course_match
from xqdesk.formats.pgn import read_pgn

pytestmark = pytest.mark.engines

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
    games = read_pgn(tmp_path / "games.pgn").games  # appended as each game ends, so in any order
    assert sorted((game.headers["Round"], game.headers["Red"]) for game in games) == [
        ("1", "greedy:Seed=1"), ("2", "random:Seed=2")]
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
    assert lines[0].split() == ["Rank", "Engine", "Games", "Points", "W", "D", "L", "Score", "Elo", "+/-"]
    last = lines[3].split()
    assert last[1] == "player:raises" and last[2:10] == ["4", "0.0", "0", "0", "4", "0.0%", "n/a", "n/a"]


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


def test_game_lines_fold_a_remark_said_on_many_moves(capsys):
    from xqdesk.cli.match_report import MatchReport
    from xqdesk.engines.contests.match import PlayedGame, ScheduledGame
    from xqdesk.engines.play.referee import GameRecord
    from xqdesk.game import Game
    from xqdesk.move import Move
    from xqdesk.outcome import Outcome

    said = "ucci:eleeye answered nobestmove (it judged the position drawn); asked again without the history"
    game = Game.from_moves([Move.from_iccs(("h2e2", "h9g7", "e2h2", "g7h9")[ply % 4]) for ply in range(172)],
                           outcome=Outcome.timeout(False))
    nodes = game.mainline()
    for index in range(80, 164, 2):
        nodes[index].comment = said
    nodes[170].comment = "ucci:eleeye offers a draw"
    report = MatchReport(["a", "b"], total=4, live=False)
    report.on_game(PlayedGame(ScheduledGame(1, 0, 1), GameRecord("a", "b", game)))
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["Game 1: a (red) vs b (black), 172 plies: a wins: Black timeout, Red wins!",
                     f"  42 moves, plies 81-163: {said}",
                     "  ply 171: ucci:eleeye offers a draw",
                     "Score of a vs b: 1 - 0 - 0  [1.000] 1"]


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


OPENINGS = Path(__file__).parent / "data" / "openings"
MATED = "3k5/9/9/9/9/9/9/9/3r1r3/4K4 w - - 0 1"
"""Red to move and no legal move: a game from here ends at once."""


def test_sprt_from_an_openings_file_runs_to_a_verdict(tmp_path):
    done = xqdesk("match", "--red", "greedy:Seed=1", "--black", "random:Seed=2", "--openings",
                  str(OPENINGS / "six_balanced.fen"), "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05",
                  "--movetime", "0.05", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == ("greedy:Seed=1 vs random:Seed=2: until a verdict, 6 openings in sequential order, "
                        "each played 2 times (colours swapped)")
    llr_lines = [line for line in lines if line.startswith("SPRT: llr ")]
    assert llr_lines and all(", lbound -2.94, ubound 2.94" in line for line in llr_lines)
    assert "H1 was accepted (passed)" in llr_lines[-1]
    assert any(line.startswith("SPRT of greedy:Seed=1 (elo0=0, elo1=200, alpha=0.05, beta=0.05; logistic Elo, "
                               "pentanomial") for line in lines)
    assert re.search(r"Elo difference: \+\d+\.\d \(95% interval .*\) for greedy:Seed=1, LOS \d+\.\d%", done.stdout)
    counted = int(re.search(r"^greedy:Seed=1 vs random:Seed=2: \+\d+ =\d+ -\d+ \([\d.]+/(\d+)\)$", done.stdout,
                            re.MULTILINE).group(1))
    games = read_pgn(tmp_path / "games.pgn").games
    assert len(games) == counted and all(game.outcome.result() != "*" for game in games)
    starts = {game.headers["Round"]: game.start_board().fen() for game in games}
    assert starts["1"] == starts["2"] == "r1bakabr1/9/1cn3nc1/p1p1p3p/6p2/9/P1P1P1P1P/2NCC1N2/9/R1BAKAB1R w - - 8 5"


def test_games_from_a_fen_and_from_pgn_openings(tmp_path):
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    done = xqdesk("match", "--red", "greedy:Seed=1", "--black", "random:Seed=2", "--fen", fen, "--games", "2",
                  "--out", str(tmp_path / "fen"))
    assert done.returncode == 0, done.stderr
    assert [game.start_board().fen() for game in read_pgn(tmp_path / "fen" / "games.pgn").games] == [fen, fen]
    done = xqdesk("match", "--red", "greedy:Seed=1", "--black", "random:Seed=2", "--openings",
                  str(OPENINGS / "two_games.pgn"), "plies=6", "--repeat", "1", "--games", "2",
                  "--out", str(tmp_path / "pgn"))
    assert done.returncode == 0, done.stderr
    assert "from two_games.pgn, game 2" in done.stdout
    for game in read_pgn(tmp_path / "pgn" / "games.pgn").games:  # the opening's moves open the record
        opening = read_pgn(OPENINGS / "two_games.pgn").games[int(game.headers["Round"]) - 1]
        assert game.mainline_moves()[:6] == opening.mainline_moves()[:6] and game.replay() is not None


@pytest.mark.parametrize("options, expected", [
    (["--fen", "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", "--draw", "movenumber=1", "movecount=2", "score=30"],
     r"Game 1: .*, 4 plies: draw: Draw by adjudication: both engines scored within 30 cp of 0 for 2 moves each"),
    (["--fen", "3ak4/4a4/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1", "--resign", "movecount=2", "score=400"],
     r"Game 1: .*, 4 plies: builtin:Level=3 wins: Red wins by adjudication: Black scored 400 cp or more "
     r"below 0 for 2 moves"),
])
def test_draw_and_resign_adjudication_from_the_engines_scores(options, expected):
    done = xqdesk("match", "--red", "builtin:Level=3", "--black", "builtin:Level=2", "--games", "1",
                  "--movetime", "0.1", *options)
    assert done.returncode == 0, done.stderr
    assert re.search(expected, done.stdout), done.stdout


@pytest.mark.parametrize("options, message", [
    (["--movetime", "-3"], "--movetime: must be a number of seconds above 0, got '-3'"),
    (["--movetime", "0"], "--movetime: must be a number of seconds above 0"),
    (["--movetime", "12"], "--movetime 12 is not below the referee's move clock (10 s)"),
    (["--sprt", "elo0=5"], "--sprt: needs elo1=…"),
    (["--sprt", "elo0=5", "elo1=0"], "elo0 must be below elo1"),
    (["--sprt", "elo0=0", "elo1=5", "gamma=1"], "--sprt: unknown key 'gamma'"),
    (["--openings", "no/such/file.fen"], "--openings: cannot read 'no/such/file.fen'"),
    (["--openings", str(OPENINGS / "six_balanced.fen"), "order=shuffled"], "order must be sequential or random"),
    (["--fen", "not a fen"], "--fen: not a position: 'not a fen'"),
    (["--draw", "movenumber=10", "movecount=3"], "--draw: needs score=…"),
    (["--resign", "movecount=0", "score=500"], "--resign: resign adjudication needs movecount >= 1"),
])
def test_bad_match_options_are_refused_with_the_reason(options, message):
    done = xqdesk("match", "--red", "random", "--black", "random", *options)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def signal_after_the_first_game(process: subprocess.Popen, pgn: Path, number: int) -> tuple[str, str]:
    """Once ``pgn`` holds a game (the next one has started), send signal ``number``; what the
    process wrote. It must end within 90 s, far below the 100 s a move would take unstopped."""
    try:
        deadline = time.monotonic() + 240
        while not (pgn.is_file() and pgn.read_text().strip()) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.2)
        time.sleep(1.0)  # the next game is on: an engine thinks
        process.send_signal(number)
        return process.communicate(timeout=HANG_GUARD)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.parametrize("how", ["sigint-while-ignored", "sigterm"])
def test_a_signal_stops_within_one_move_and_keeps_the_finished_games(tmp_path, how):
    """Game 1 starts mated and ends at once; game 2's engine thinks 100 s a move. A signal ends the
    search in progress: the run ends long before that move would, with game 1 in the PGN."""
    openings = tmp_path / "two.fen"
    openings.write_text(f"{MATED}\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n")
    out = tmp_path / "out"
    ignore_sigint = how == "sigint-while-ignored"  # as a shell starts a background job
    process = subprocess.Popen(
        [sys.executable, "-m", "xqdesk", "match", "--red", "random", "--black", "builtin", "--openings", str(openings),
         "--repeat", "1", "--games", "4", "--movetime", "100", "--clock", "200", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent,
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None)
    pgn = out / "games.pgn"
    stdout, stderr = signal_after_the_first_game(process, pgn, signal.SIGINT if ignore_sigint else signal.SIGTERM)
    assert process.returncode == 130, stderr
    assert "stopping after the current move" in stderr and "1 finished game kept in" in stderr
    assert "Game 1: random (red) vs builtin (black) from two.fen:1, 0 plies: builtin wins" in stdout
    assert re.search(r"Game 2: stopped after [01] pl(y|ies) \(not counted, not written\)", stdout), stdout
    assert "random vs builtin: +0 =0 -1 (0/1)" in stdout
    games = read_pgn(pgn).games
    assert len(games) == 1 and games[0].outcome.result() == "0-1"


def test_tournament_standings_after_ctrl_c_keep_the_finished_games(tmp_path):
    openings = tmp_path / "two.fen"
    openings.write_text(f"{MATED}\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "xqdesk", "tournament", "random", "builtin", "greedy", "--openings", str(openings),
         "--repeat", "1", "--games", "2", "--movetime", "100", "--clock", "200", "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)
    pgn = tmp_path / "tournament.pgn"
    stdout, stderr = signal_after_the_first_game(process, pgn, signal.SIGINT)
    assert process.returncode == 130, stderr
    lines = stdout.splitlines()
    standings_at = lines.index("Standings after 1 finished game of 6:")
    assert lines[standings_at + 1].split()[:3] == ["Rank", "Engine", "Games"]
    assert lines[standings_at + 2].split()[1:3] == ["builtin", "1"]
    assert len(read_pgn(pgn).games) == 1


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


def test_the_pgn_gets_each_game_as_it_ends_and_schedule_order_at_the_end(tmp_path):
    from xqdesk.cli.match_report import PgnAppender
    from xqdesk.engines.contests.match import PlayedGame, ScheduledGame
    from xqdesk.engines.play.referee import GameRecord
    from xqdesk.fen import STARTING_FEN
    from xqdesk.move import Move
    from xqdesk.outcome import Outcome
    from xqdesk.pieces import BLACK
    from xqdesk.ruleset import COURSE

    pgn = PgnAppender(tmp_path / "out" / "games.pgn", "test", COURSE)
    for number in (2, 1):  # game 2 ends first
        record = GameRecord.unplayed("a", "b", Outcome.timeout(BLACK), STARTING_FEN, (Move.from_iccs("h2e2"),))
        pgn.append(PlayedGame(ScheduledGame(number, 0, 1), record))
        assert len(read_pgn(pgn.path).games) == pgn.written  # on disk at once
    assert [game.headers["Round"] for game in read_pgn(pgn.path).games] == ["2", "1"]
    pgn.finish()
    assert [game.headers["Round"] for game in read_pgn(pgn.path).games] == ["1", "2"]
