"""Reviewing real games with real engine processes: a planted blunder in a master game, the
'annotate' command (resumable after an interrupt) and bad input. (Cancelling a review is tested
through the window, tests/test_ui_review.py.)"""
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from datafiles import GAMES
from hang_guard import HANG_GUARD

from xqdesk.cli import plural
from xqdesk.engines.analysis.reviewer import review_game, review_limits
from xqdesk.engines.errors import EngineProtocolError
from xqdesk.engines.spec import parse_spec
from xqdesk.formats import read_games
from xqdesk.formats.pgn import format_pgn, parse_pgn, write_pgn
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.pieces import RED
from xqdesk.review import MoveClass, read_review, write_review

pytestmark = pytest.mark.engines

MASTER = GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
ROOT = Path(__file__).parent.parent


def planted_blunder() -> Game:
    """The first master game to move 18, then Red's chariot b0b3 walks into the cannon on e3 (nothing
    defends b3), and the cannon takes it."""
    master = read_games(MASTER).games[0]
    moves = master.mainline_moves()[:18] + [Move.from_iccs("b0b3"), Move.from_iccs("e3b3")]
    game = Game.from_moves(moves, headers=dict(master.headers))
    game.replay()
    return game


def test_the_builtin_engine_marks_a_hung_chariot_as_a_blunder_with_its_better_move():
    game = planted_blunder()
    seen = []
    review, annotator = review_game(parse_spec("builtin"), game, review_limits(movetime=0.2),
                                    on_progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (21, 21) and len(seen) == 21
    hung = review.moves[18]
    assert hung.move == Move.from_iccs("b0b3") and hung.color == RED
    assert hung.move_class is MoveClass.BLUNDER
    assert hung.best_move is not None and hung.best_move != hung.move
    assert review.summary(RED).count(MoveClass.BLUNDER) >= 1
    write_review(game, review, annotator)
    text = format_pgn(game)
    assert re.search(r"10\.\s+b0b3\s+\$4\s", text) and f"[%best {hung.best_move.iccs()}]" in text
    assert re.search(rf"\(\s*10\.\s+{hung.best_move.iccs()}\s", text)  # the better line, as a variation
    back = read_review(parse_pgn(text).games[0])
    assert back is not None
    assert [move.move_class for move in back.moves] == [move.move_class for move in review.moves]
    assert back.moves[18].best_move == hung.best_move


def test_an_engine_that_gives_no_score_is_refused_clearly():
    game = Game.from_moves([Move.from_iccs("h2e2")])
    with pytest.raises(EngineProtocolError, match="reported no score"):
        review_game(parse_spec("random:Seed=1"), game, review_limits(depth=1))
    with pytest.raises(ValueError, match="either a time"):
        review_limits(None, None)


def xqdesk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


def twenty_games(path: Path) -> list[Game]:
    """19 master games cut to 3 moves, then the planted blunder."""
    games = [Game.from_moves(game.mainline_moves()[:3], headers=dict(game.headers))
             for game in read_games(MASTER).games[1:20]] + [planted_blunder()]
    write_pgn(path, games)
    return games


def test_annotate_writes_nags_and_resumes_after_an_interrupt(tmp_path):
    source, target = tmp_path / "twenty.pgn", tmp_path / "out.pgn"
    originals = twenty_games(source)
    command = [sys.executable, "-m", "xqdesk", "annotate", str(source), str(target), "--engine", "builtin",
               "--movetime", "0.05", "--quiet"]
    # SIGINT back to its default in the child: a test run started in the background of a shell has
    # it ignored, and Python then never turns it into KeyboardInterrupt.
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not target.is_file() or target.read_text().count("[Annotator") < 3):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=HANG_GUARD)
    first = target.read_text()
    done_before = first.count("[Annotator")
    assert 3 <= done_before < 19, f"the run should have been interrupted part-way, not after {done_before} games"
    target.write_text(first + first[:first.index("1.") + 30])  # a game cut off while being written
    resumed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{plural(done_before, 'game')} already annotated" in resumed.stdout, resumed.stdout
    assert f"annotated {plural(20 - done_before, 'game')}, 0 failed" in resumed.stdout, resumed.stdout
    assert "Review summary (20 games)" in resumed.stdout and "HU RongHua" in resumed.stdout
    annotated = read_games(target)
    assert not annotated.errors
    assert [game.mainline_moves() for game in annotated.games] == [game.mainline_moves() for game in originals]
    reviews = [read_review(game) for game in annotated.games]
    assert all(review is not None for review in reviews)
    nag_of = {MoveClass.INACCURACY: 6, MoveClass.MISTAKE: 2, MoveClass.BLUNDER: 4}
    for game, review in zip(annotated.games, reviews):  # each class has its NAG, and reads back from it
        for node, move in zip(game.mainline(), review.moves):
            assert node.nags == ({nag_of[move.move_class]} if move.move_class in nag_of else set())
    assert reviews[-1].moves[18].move_class is MoveClass.BLUNDER, reviews[-1].moves[18]
    assert re.search(r"b0b3\s+\$4\s", target.read_text())
    again = xqdesk("annotate", str(source), str(target), "--engine", "builtin", "--movetime", "0.05", "--quiet")
    assert "20 games already annotated" in again.stdout and "annotated 0 games" in again.stdout


def test_annotate_explains_bad_input(tmp_path):
    missing = xqdesk("annotate", str(tmp_path / "nothing.pgn"), str(tmp_path / "out.pgn"), "--engine", "builtin",
                     "--depth", "2")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    wrong = xqdesk("annotate", str(MASTER), str(tmp_path / "out.pgn"), "--engine", "nonesuch", "--depth", "2")
    assert wrong.returncode == 2 and "unknown engine 'nonesuch'" in wrong.stderr
    both = xqdesk("annotate", str(MASTER), str(tmp_path / "out.pgn"), "--engine", "builtin")
    assert both.returncode == 2 and "--movetime" in both.stderr


def test_annotate_a_folder_keeps_its_layout_and_order_with_two_engines_at_once(tmp_path):
    source, target = tmp_path / "in", tmp_path / "out"
    (source / "sub").mkdir(parents=True)
    masters = read_games(MASTER).games[:5]
    first = [Game.from_moves(game.mainline_moves()[:2], headers=dict(game.headers)) for game in masters[:3]]
    write_pgn(source / "a.pgn", first)
    write_pgn(source / "sub" / "b.pgn", [Game.from_moves(masters[3].mainline_moves()[:2], headers=dict(masters[3].headers))])
    (source / "notes.md").write_text("not a record")
    done = xqdesk("annotate", str(source), str(target), "--engine", "builtin", "--depth", "1", "--concurrency", "2",
                  "--sides", "black", "--quiet")
    assert done.returncode == 0, done.stderr
    assert sorted(str(path.relative_to(target)) for path in target.rglob("*") if path.is_file()) == ["a.pgn", "sub/b.pgn"]
    annotated = read_games(target / "a.pgn").games
    assert [game.mainline_moves() for game in annotated] == [game.mainline_moves() for game in first]
    for game in annotated:
        review = read_review(game)
        assert [move.move_class is None for move in review.moves] == [True, False]  # only Black's moves classed


def test_a_ucci_engine_reviews_too(tmp_path):
    from ucci_engines import greedy_ucci_executable

    game = Game.from_moves([Move.from_iccs(text) for text in ("h2e2", "h9g7", "e2e6", "g6g5")])  # 2. C5x6
    review, annotator = review_game(parse_spec(f"ucci:{greedy_ucci_executable(tmp_path)}"), game,
                                    review_limits(depth=1))
    assert len(review.moves) == 4 and all(move.move_class is not None for move in review.moves)
    assert all(move.best_move is not None for move in review.moves) and "depth 1" in annotator


def test_a_review_at_a_small_time_still_searches_every_position_to_the_minimum_depth():
    """At 0.01 s a move the built-in engine stops at depth 2 to 4, where its verdicts swing from
    one ply to the next; the review searches such positions again to MIN_REVIEW_DEPTH."""
    from xqdesk.engines.analysis.reviewer import MIN_REVIEW_DEPTH
    master = read_games(MASTER).games[0]
    game = Game.from_moves(master.mainline_moves()[:6], headers=dict(master.headers))
    review, annotator = review_game(parse_spec("builtin"), game, review_limits(movetime=0.01))
    assert [move.depth for move in review.moves] == [move.depth for move in review.moves if move.depth >= MIN_REVIEW_DEPTH]
    assert len(review.moves) == 6 and review.end_depth >= MIN_REVIEW_DEPTH
    assert annotator.endswith("movetime 0.01s")
