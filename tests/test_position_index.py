"""The position index and the index/explore commands, checked against direct counts over the files."""
from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from datafiles import GAMES

from xqdesk.board import Board
from xqdesk.cli import main
from xqdesk.fen import STARTING_FEN
from xqdesk.formats import read_games
from xqdesk.move import Move
from xqdesk.position_index import PositionIndex, PositionIndexError, game_result, open_index
from xqdesk.position_key import KeyedReplay, canonical_key, mirror_key, mirror_move

MASTER = GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"
WITH_RESULTS = GAMES / "chinese_gb18030"
INDEXED = (MASTER, WITH_RESULTS)


@pytest.fixture(scope="module")
def master_index(tmp_path_factory):
    path = tmp_path_factory.mktemp("index") / "master.xqdb"
    with PositionIndex(path) as index:
        report = index.add([str(p) for p in INDEXED])
    assert report.games == 1391 + 11
    index = open_index(path)
    yield index
    index.close()


_GAMES_READ: list = []


def _all_games():
    """Every game of the indexed files, read directly (once per test session)."""
    if not _GAMES_READ:
        for path in INDEXED:
            for file in sorted(path.glob("*")) if path.is_dir() else [path]:
                _GAMES_READ.extend(read_games(file).games)
    return _GAMES_READ


def _tally(pairs):
    """{iccs: (games, red, draw, black)} from (move, result) pairs."""
    table: dict[str, list[int]] = {}
    for move, result in pairs:
        row = table.setdefault(move.iccs(), [0, 0, 0, 0])
        row[0] += 1
        if result is not None:
            row[{1: 1, 0: 2, -1: 3}[result]] += 1
    return {move: tuple(row) for move, row in table.items()}


def _explored(index, board):
    return {stat.move.iccs(): (stat.games, stat.red_wins, stat.draws, stat.black_wins)
            for stat in index.moves(board)}


@pytest.mark.slow
def test_first_moves_at_the_start_equal_a_direct_count_over_the_files(master_index):
    direct = _tally((game.mainline_moves()[0], game_result(game)) for game in _all_games()
                    if game.start_fen == STARTING_FEN and game.mainline_moves())
    assert sum(row[0] for row in direct.values()) >= 1400
    assert direct["h2e2"][0] > 500 and any(row[1] + row[3] for row in direct.values())
    assert _explored(master_index, Board()) == direct
    stats = master_index.moves(Board())
    assert [s.games for s in stats] == sorted((s.games for s in stats), reverse=True)


def test_mirror_positions_are_joined_with_their_moves_mirrored(master_index):
    """After the central cannon from either side, the replies are counted together, each
    shown from the side asked about."""
    pairs = []
    for game in _all_games():
        moves = game.mainline_moves()
        if game.start_fen != STARTING_FEN or len(moves) < 2:
            continue
        if moves[0].iccs() == "h2e2":
            pairs.append((moves[1], game_result(game)))
        elif moves[0].iccs() == "b2e2":
            pairs.append((mirror_move(moves[1]), game_result(game)))
    direct = _tally(pairs)
    right, left = Board(), Board()
    right.push_iccs("h2e2")
    left.push_iccs("b2e2")
    assert _explored(master_index, right) == direct
    assert _explored(master_index, left) == {mirror_move(Move.from_iccs(m)).iccs(): row for m, row in direct.items()}


@pytest.mark.slow
def test_the_games_that_reached_a_position_reopen_there(master_index):
    board = Board()
    for move in ("h2e2", "h9g7", "h0g2"):
        board.push_iccs(move)
    games = master_index.games(board, limit=5)
    assert len(games) == 5
    for found in games:
        game = read_games(found.path).games[found.number]
        assert canonical_key(game.board_at(found.ply)) == canonical_key(board)


def test_the_mirror_key_kept_while_playing_equals_one_computed_from_scratch():
    game = read_games(GAMES / "notation_15" / "iccs.pgn").games[0]
    replay = KeyedReplay(game.start_board())
    captures = 0
    for move in game.mainline_moves():
        captures += replay.board.is_capture(move)
        replay.push(move)
        assert replay.key() == canonical_key(replay.board)
    mirrored = Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
    assert mirror_key(mirrored) == mirrored.zobrist_hash()  # the start position is its own mirror
    assert captures > 0


def test_adding_again_skips_unchanged_files_and_reindexes_changed_ones(tmp_path):
    record = tmp_path / "games.pgn"
    shutil.copy(GAMES / "notation_15" / "iccs.pgn", record)
    with PositionIndex(tmp_path / "db") as index:
        counted: list[tuple[int, int]] = []
        first = index.add([record], game_progress=lambda done, total: counted.append((done, total)))
        assert (first.files_added, first.games) == (1, 15)
        # each game of the file in hand, out of as many as the file seems to hold so far (read a
        # game at a time, its count is known at its end)
        assert [done for done, _total in counted] == list(range(1, 16)) and counted[-1] == (15, 15)
        assert all(total >= done for done, total in counted)
        again = index.add([tmp_path])
        assert (again.files_added, again.files_skipped) == (0, 1)
        text = record.read_text(encoding="utf-8")
        record.write_text(text.split("\n\n[")[0] + "\n", encoding="utf-8")  # keep only the first game
        changed = index.add([record])
        assert (changed.files_added, changed.games) == (1, 1)
        assert index.game_count() == 1 and index.file_count() == 1
        assert sum(stat.games for stat in index.moves(Board())) == 1


def test_bad_input_gives_clear_errors(tmp_path):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE people (name TEXT)")
    with pytest.raises(PositionIndexError, match="not a position index"):
        PositionIndex(other)
    (tmp_path / "text.db").write_text("hello, not a database at all" * 100)
    with pytest.raises(PositionIndexError, match="text.db"):
        PositionIndex(tmp_path / "text.db")
    with pytest.raises(PositionIndexError, match="no such position index"):
        open_index(tmp_path / "missing.db")
    with PositionIndex(tmp_path / "db") as index:
        report = index.add([tmp_path / "nowhere.pgn"])
    assert report.files_added == 0 and "nowhere.pgn" in report.errors[0]


def test_index_and_explore_commands(tmp_path, capsys):
    db = str(tmp_path / "cli.xqdb")
    assert main(["index", db, str(GAMES / "notation_15" / "iccs.pgn"), str(WITH_RESULTS)]) == 0
    assert "holds 26 games from 12 files" in capsys.readouterr().out
    assert main(["index", db, str(WITH_RESULTS)]) == 0
    assert "skipped 11 unchanged" in capsys.readouterr().out
    assert main(["explore", db, "--moves", "炮二平五", "h9g7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["move", "games", "red", "draw", "black"]
    rows = [line.split() for line in lines[1:]]
    assert rows and all(len(row) == 5 and int(row[1]) >= int(rows[-1][1]) for row in rows)
    assert main(["explore", db, "--moves", "a0a5"]) == 2
    assert "a0a5" in capsys.readouterr().err
    assert main(["index", db, str(tmp_path / "missing.pgn")]) == 1


def test_a_cancelled_build_keeps_whole_files_only_and_can_go_on(tmp_path):
    checks = []

    def cancelled() -> bool:  # before file 1, in file 1, before file 2, in file 2: stop there
        checks.append(True)
        return len(checks) >= 4

    records = [GAMES / "notation_15" / "iccs.pgn", GAMES / "notation_15" / "chinese.pgn"]
    with PositionIndex(tmp_path / "db") as index:
        stopped = index.add(records, cancelled=cancelled)
        assert stopped.cancelled and (stopped.files_added, stopped.games) == (1, 15)
        assert (index.file_count(), index.game_count()) == (1, 15)
        resumed = index.add(records)
        assert not resumed.cancelled and (resumed.files_added, resumed.files_skipped) == (1, 1)
        assert index.game_count() == 30


def _damage_pages(path: Path) -> None:
    """Overwrite every page but the first (the schema) with junk, as a failing disk might."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for offset in range(page, len(data), 7):
        data[offset] = (offset * 131) & 0xFF
    path.write_bytes(bytes(data))


def test_a_damaged_index_says_how_to_build_it_again(tmp_path, capsys):
    db = tmp_path / "games.xqdb"
    with PositionIndex(db) as index:
        index.add([GAMES / "notation_15" / "iccs.pgn"])
    _damage_pages(db)
    with pytest.raises(PositionIndexError, match=r"games.xqdb' is damaged .*build it again .*xqdesk index games.xqdb"):
        with open_index(db) as index:
            index.moves(Board())
    assert main(["explore", str(db)]) == 2
    assert "is damaged" in capsys.readouterr().err
    assert main(["index", str(db), str(WITH_RESULTS)]) == 2
    assert "build it again" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["cut", "first-page"])
def test_an_index_cut_short_or_damaged_in_its_schema_says_how_to_build_it_again(tmp_path, capsys, damage):
    """Damage SQLite meets while opening (it said only 'is not a position index' before)."""
    db = tmp_path / "games.xqdb"
    with PositionIndex(db) as index:
        index.add([GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"])
    data = db.read_bytes()
    page = int.from_bytes(data[16:18], "big")
    db.write_bytes(data[:len(data) // 3] if damage == "cut"
                   else data[:100] + bytes((offset * 131) & 0xFF for offset in range(100, page)) + data[page:])
    for command in (["explore", str(db)], ["index", str(db), str(WITH_RESULTS)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "games.xqdb' is damaged" in err and "build it again" in err and "Traceback" not in err, err
    (tmp_path / "folder.xqdb").mkdir()
    assert main(["explore", str(tmp_path / "folder.xqdb")]) == 2
    assert "is not a file, so not a position index" in capsys.readouterr().err


def test_a_second_writer_waits_for_the_first_or_refuses_clearly(tmp_path):
    db = tmp_path / "games.xqdb"
    PositionIndex(db).close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another window, in the middle of writing a file
    with PositionIndex(db, writer_wait=0.1) as impatient:
        with pytest.raises(PositionIndexError, match="another program was writing to this index"):
            impatient.add([GAMES / "notation_15" / "iccs.pgn"])
    reports: list[object] = []
    waiting = threading.Thread(target=lambda: reports.append(_add(db, GAMES / "notation_15" / "iccs.pgn")))
    waiting.start()
    waiting.join(0.5)  # it is waiting for the lock (however long this takes on a busy machine)
    holder.execute("COMMIT")
    holder.close()
    waiting.join()
    assert reports and not isinstance(reports[0], Exception) and reports[0].games == 15


def test_two_builds_of_one_index_at_once_both_finish(tmp_path):
    db = tmp_path / "games.xqdb"
    PositionIndex(db).close()
    reports: list[object] = []
    builds = [threading.Thread(target=lambda path=path: reports.append(_add(db, path)))
              for path in (GAMES / "notation_15" / "iccs.pgn", WITH_RESULTS)]
    for build in builds:
        build.start()
    for build in builds:
        build.join()
    assert len(reports) == 2 and not any(isinstance(report, Exception) for report in reports), reports
    with open_index(db) as index:
        assert index.game_count() == sum(report.games for report in reports) == 26


def _add(db: Path, path: Path) -> object:
    try:
        with PositionIndex(db) as index:
            return index.add([path])
    except Exception as error:  # noqa: BLE001 - handed back to the test's thread
        return error
