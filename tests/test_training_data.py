"""The labelled-positions pipeline (``xqdesk train data``): real teacher processes label real
games, shards round-trip, runs resume and deduplicate, damaged folders are named."""
import json
import lzma
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hang_guard import HANG_GUARD

from xqdesk.board import Board
from xqdesk.engines.search_types import SearchInfo
from xqdesk.engines.training.pipeline import DataPlan, plan_tasks
from xqdesk.engines.training.shards import (
    MASTER,
    MATE_SCORE,
    TEACHER_GAME,
    DataSetError,
    Labelled,
    ShardReader,
    ShardWriter,
    load_shard,
)
from xqdesk.engines.training.tasks import LabelSettings, RecordTask, TeacherGamesTask, is_held_out, run_task
from xqdesk.engines.training.teacher import FAIRY_STOCKFISH_PLACES, Teacher, centipawns, label_from_infos
from xqdesk.fen import format_fen
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.score import MATE_GIVEN, Cp, Mate, PovScore

pytestmark = pytest.mark.engines

ROOT = Path(__file__).parent.parent
GAMES = ROOT / "tests" / "data" / "games"
FIFTEEN = GAMES / "notation_15" / "iccs.pgn"
FAIRY = next((found for place in FAIRY_STOCKFISH_PLACES if (found := shutil.which(place))), None)
BUILTIN_SHALLOW = LabelSettings("builtin", depth=2, multipv=3)


def _rows(keys, width=2):
    n = len(keys)
    return Labelled({
        "board": np.zeros((n, 90), np.int8), "red_to_move": np.ones(n, bool), "score": np.arange(n, dtype=np.int16),
        "result": np.zeros(n, np.int8), "moves": np.full((n, width), -1, np.int16),
        "move_scores": np.zeros((n, width), np.int16), "played": np.full(n, -1, np.int16),
        "key": np.array(keys, np.uint64), "capture_free": np.zeros(n, np.int16), "in_check": np.zeros(n, bool),
        "source": np.zeros(n, np.int8), "game": np.zeros(n, np.int32)})


def test_scores_become_centipawns_with_mates_by_plies():
    assert centipawns(Cp(35)) == 35 and centipawns(Cp(-90000)) == -(MATE_SCORE - 1000)
    assert centipawns(Mate(1)) == MATE_SCORE - 1 and centipawns(Mate(3)) == MATE_SCORE - 5
    assert centipawns(Mate(-2)) == -(MATE_SCORE - 4) and centipawns(Mate(0)) == -MATE_SCORE
    assert centipawns(MATE_GIVEN) == MATE_SCORE


def test_a_label_takes_each_lines_deepest_report_from_the_movers_view():
    h2e2, b2e2, c3c4 = (Move.from_iccs(text) for text in ("h2e2", "b2e2", "c3c4"))
    infos = [SearchInfo(depth=4, score=PovScore(Cp(10), BLACK), pv=(h2e2,), multipv=1),
             SearchInfo(depth=5, score=PovScore(Cp(30), BLACK), pv=(h2e2,), multipv=1),
             SearchInfo(depth=5, score=PovScore(Cp(12), BLACK), pv=(b2e2,), multipv=2),
             SearchInfo(depth=5, score=PovScore(Cp(-40), BLACK), pv=(c3c4,), multipv=3),
             SearchInfo(string="no score here")]
    label = label_from_infos(infos, BLACK, h2e2)
    assert label is not None and label.score == 30
    assert label.moves == (h2e2, b2e2, c3c4) and label.move_scores == (30, 12, -40)
    assert label_from_infos([SearchInfo(depth=3)], RED, None) is None


def test_held_out_games_are_chosen_by_their_moves_not_their_place():
    moves = ("h2e2", "h9g7", "h0g2")
    assert is_held_out(moves, 1) and not is_held_out(moves, 0)
    assert is_held_out(moves, 7) == is_held_out(list(moves), 7)


def test_the_writer_deduplicates_cuts_shards_and_counts(tmp_path):
    writer = ShardWriter(tmp_path, {"teacher": "t", "multipv": 2}, shard_size=3)
    assert writer.add("a", _rows([1, 2, 3, 4, 2]), _rows([9]), games=2) == 5
    assert writer.add("b", _rows([4, 5, 9]), _rows([]), games=1) == 1
    writer.close()
    reader = ShardReader(tmp_path)
    assert reader.positions == 5 and len(reader.paths) == 2
    assert sorted(int(k) for k in reader.all()["key"]) == [1, 2, 3, 4, 5]
    assert [int(k) for k in ShardReader(tmp_path, holdout=True).all()["key"]] == [9]
    batches = list(reader.batches(2, seed=1, epochs=2))
    assert sum(len(b) for b in batches) == 10 and max(len(b) for b in batches) == 2
    again = ShardWriter(tmp_path, {"teacher": "t", "multipv": 2}, shard_size=3)
    assert again.done_tasks == {"a", "b"} and again.add("c", _rows([5, 6]), _rows([]), games=1) == 1
    assert json.loads((tmp_path / "manifest.json").read_text())["positions"] == 6


def test_damaged_and_foreign_folders_are_refused_with_their_names(tmp_path):
    writer = ShardWriter(tmp_path, {"teacher": "t", "multipv": 2})
    writer.add("a", _rows([1]), _rows([]), games=1)
    writer.close()
    with pytest.raises(DataSetError, match="other settings"):
        ShardWriter(tmp_path, {"teacher": "other", "multipv": 2})
    shard = tmp_path / "shard-000000.npz"
    shard.write_bytes(shard.read_bytes()[:100])
    with pytest.raises(DataSetError, match="shard-000000.npz"):
        load_shard(shard)
    with pytest.raises(DataSetError, match="manifest.json"):
        ShardReader(tmp_path / "holdout")
    np.savez(shard, board=np.zeros((1, 90), np.int8))
    with pytest.raises(DataSetError, match="no red_to_move"):
        load_shard(shard)


def _check_rows(data: Labelled, searched: bool = True) -> None:
    """Every row is a real position whose labels are legal moves of it (``searched``: it has a
    teacher's line)."""
    for row in range(len(data)):
        codes = [int(c) for c in data["board"][row]]
        board = Board(format_fen(codes, RED if data["red_to_move"][row] else BLACK, 0, 1))
        legal = {m.from_square * 90 + m.to_square for m in board.legal_moves}
        assert not searched or int(data["moves"][row, 0]) in legal
        assert all(int(m) in legal for m in data["moves"][row] if m >= 0)
        assert board.zobrist_hash() == int(data["key"][row])
        assert data["in_check"][row] == board.is_check()
        if data["played"][row] >= 0:
            assert int(data["played"][row]) in legal


def test_master_games_are_labelled_by_a_real_teacher_and_their_results(tmp_path):
    plan = DataPlan(BUILTIN_SHALLOW, (str(FIFTEEN),), games_per_task=2, holdout=4)
    tasks = plan_tasks(plan, report=print)
    record = tasks[0]
    assert isinstance(record, RecordTask) and len(record.games) == 2
    with Teacher("builtin", depth=2, multipv=3) as teacher:
        result = run_task(record, teacher)
    data = Labelled.concatenate([result.train, result.holdout], 3)
    moves = sum(len(game.moves) for game in record.games)
    assert moves <= len(data) <= moves + len(record.games)  # and each unfinished game's last position
    assert set(np.unique(data["source"])) == {MASTER} and result.games == 2
    _check_rows(data)
    for game in record.games:
        rows = data.take(data["game"] == game.number)
        played = [Move(int(code) // 90, int(code) % 90).iccs() for code in rows["played"] if code >= 0]
        assert played == list(game.moves)
        assert (rows["result"][:-1] == -rows["result"][1:]).all()  # the side to move's view alternates


def test_teacher_games_end_by_the_rules_with_every_position_labelled():
    task = TeacherGamesTask(10_000_000, games=1, seed=5, random_plies=2, sample_plies=6, max_plies=24)
    with Teacher("builtin", depth=1, multipv=2) as teacher:
        result = run_task(task, teacher)
    data = result.train
    assert 0 < len(data) <= 24 and set(np.unique(data["source"])) == {TEACHER_GAME}
    assert (data["game"] == 10_000_000).all() and len(result.holdout) == 0
    _check_rows(data)
    red = data["red_to_move"]
    red_result = data["result"][red] if red.any() else -data["result"][~red]
    assert len(set(red_result.tolist())) == 1


def test_records_alone_make_a_set_of_played_moves_and_results_at_no_search(tmp_path):
    """``train data --teacher none``: no engine runs; every position of every game is kept (a
    position several games reach included), with the move played, the result, no score and no
    lines; one game in N is held out by its moves; an ``.xz`` collection is read as a stream."""
    collection = tmp_path / "games.pgn.xz"
    collection.write_bytes(lzma.compress(FIFTEEN.read_bytes()))
    out = tmp_path / "data"
    command = [sys.executable, "-m", "xqdesk", "train", "data", "--out", str(out), "--records", str(collection),
               "--teacher", "none", "--holdout", "4"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "no teacher" in done.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["settings"] == {"teacher": "none", "depth": 0, "multipv": 1, "holdout": 4, "seed": 0}
    train, held = ShardReader(out).all(), ShardReader(out, holdout=True).all()
    games = plan_tasks(DataPlan(LabelSettings("none", 0, 1), (str(collection),), holdout=4), report=print)
    recorded = [game for task in games if isinstance(task, RecordTask) for game in task.games]
    assert len(recorded) == manifest["games"] == 15 and any(game.held_out for game in recorded)
    moves = sum(len(game.moves) for game in recorded)
    # every position (an unfinished game's last too) up to where the course's rules end a game
    assert 0.9 * moves <= len(train) + len(held) <= moves + len(recorded)
    assert len(np.unique(train["key"])) < len(train)  # the start position, at least, is kept once a game
    for data, held_out in ((train, False), (held, True)):
        assert (data["moves"] == -1).all() and (data["score"] == 0).all() and data.width == 1
        assert set(np.unique(data["source"])) == {MASTER}
        assert {int(g) for g in np.unique(data["game"])} == {g.number for g in recorded if g.held_out == held_out}
    _check_rows(train, searched=False)
    for game in recorded:
        rows = (held if game.held_out else train).take((held if game.held_out else train)["game"] == game.number)
        played = [Move(int(code) // 90, int(code) % 90).iccs() for code in rows["played"] if code >= 0]
        assert played and played == list(game.moves[:len(played)])
        if game.red_result is not None:
            assert (np.where(rows["red_to_move"], rows["result"], -rows["result"]) == game.red_result).all()
    refused = subprocess.run(command[:-4] + ["--teacher", "none", "--teacher-games", "2"], capture_output=True,
                             text=True, timeout=HANG_GUARD, cwd=ROOT)
    assert refused.returncode == 2 and "needs a teacher" in refused.stderr


@pytest.mark.skipif(FAIRY is None, reason="Fairy-Stockfish is not installed (Debian: apt install fairy-stockfish)")
def test_the_command_line_makes_a_resumable_set_labelled_by_fairy_stockfish(tmp_path):
    out = tmp_path / "data"
    command = [sys.executable, "-m", "xqdesk", "train", "data", "--out", str(out), "--records", str(FIFTEEN),
               "--teacher-games", "1", "--depth", "3", "--multipv", "2", "--jobs", "2"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert first.returncode == 0, first.stderr
    assert "fairy-stockfish" in first.stdout and "held out" in first.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["settings"]["depth"] == 3 and manifest["positions"] > 500
    data = ShardReader(out).all()
    _check_rows(data.take(np.arange(0, len(data), 37)))
    assert len(np.unique(data["key"])) == len(data)
    again = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert again.returncode == 0 and "0 new positions" in again.stdout and "done before" in again.stdout
    other = subprocess.run(command[:-4] + ["--depth", "4"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert other.returncode == 1 and "other settings" in other.stderr


def test_the_command_line_refuses_nothing_to_do(tmp_path):
    done = subprocess.run([sys.executable, "-m", "xqdesk", "train", "data", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=HANG_GUARD, cwd=ROOT)
    assert done.returncode == 2 and "nothing to label" in done.stderr


def test_a_second_writer_of_the_same_folder_is_refused_until_the_first_closes(tmp_path):
    settings = {"teacher": "t", "multipv": 2}
    first = ShardWriter(tmp_path, settings)
    with pytest.raises(DataSetError, match="being written by another run"):
        ShardWriter(tmp_path, settings)
    first.close()
    ShardWriter(tmp_path, settings).close()


def test_the_folder_lock_works_where_the_platform_has_no_fcntl(tmp_path):
    # Windows has no fcntl: the shards' one locking library (filelock) picks the platform's lock.
    script = (
        "import sys; sys.modules['fcntl'] = None\n"
        "from xqdesk.engines.training.shards import DataSetError, ShardWriter\n"
        "first = ShardWriter(sys.argv[1], {'teacher': 't'})\n"
        "try:\n"
        "    ShardWriter(sys.argv[1], {'teacher': 't'})\n"
        "except DataSetError as error:\n"
        "    print('refused:', error)\n"
        "first.close()\n"
        "ShardWriter(sys.argv[1], {'teacher': 't'}).close()\n"
        "print('reopened')\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          timeout=HANG_GUARD, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "refused: " in done.stdout and "being written by another run" in done.stdout and "reopened" in done.stdout


@pytest.mark.skipif(FAIRY is None, reason="Fairy-Stockfish is not installed (Debian: apt install fairy-stockfish)")
def test_an_interrupted_run_keeps_every_finished_task_and_leaves_nothing_running(tmp_path):
    import os
    import signal
    import time

    out = tmp_path / "data"
    run = subprocess.Popen([sys.executable, "-m", "xqdesk", "train", "data", "--out", str(out), "--teacher-games", "200",
                            "--depth", "3", "--multipv", "2", "--jobs", "2"], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None:
        manifest = out / "manifest.json"
        if manifest.exists() and json.loads(manifest.read_text())["done_tasks"]:
            break
        time.sleep(0.5)
    os.kill(run.pid, signal.SIGINT)
    _, stderr = run.communicate(timeout=HANG_GUARD)
    assert run.returncode == 130, stderr
    manifest = json.loads((out / "manifest.json").read_text())
    reader = ShardReader(out)
    assert 0 < manifest["positions"] == reader.positions == len(reader.all())
    assert all(name.startswith("teacher-games:") for name in manifest["done_tasks"])
