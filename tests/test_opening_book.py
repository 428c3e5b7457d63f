"""The compact opening book: built from record files (and .pgn.xz streams), checked against a
position index of the same games; the book xqdesk ships; the ``book build`` and ``book probe``
commands; the built-in engine playing from it."""
from __future__ import annotations

import lzma
import random
import threading
from pathlib import Path

import pytest
from datafiles import GAMES

from xqdesk.board import Board
from xqdesk.cli import main
from xqdesk.engines.builtin.engine import BuiltinEngine
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.hosted.book import OpeningBook
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.search_types import SearchLimits
from xqdesk.opening_book import BookFileError, CompactBook, build_book, save_book, shipped_book, undamaged_games
from xqdesk.position_index import PositionIndex
from xqdesk.position_key import canonical_key, mirror_move
from xqdesk.resource_files import read_resource

pytestmark = pytest.mark.engines

MASTER = GAMES / "notation_15" / "iccs.pgn"  # 15 master games, no results
WITH_RESULTS = GAMES / "chinese_gb18030"  # 11 engine games with results, one from a set-up position
MAX_PLY = 20


@pytest.fixture(scope="module")
def small_book(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("book") / "small.npz"
    rows, report = build_book([MASTER, WITH_RESULTS], max_ply=MAX_PLY, min_games=1)
    assert (report.games, report.skipped, report.errors) == (25, 1, [])
    save_book(path, rows, {"max_ply": MAX_PLY, "min_games": 1})
    return path


@pytest.fixture(scope="module")
def same_games_index(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("index") / "same.xqdb"
    with PositionIndex(path) as index:
        index.add([MASTER, WITH_RESULTS])
    return path


@pytest.mark.parametrize("line", [(), ("h2e2",), ("b2e2",), ("h2e2", "h9g7"), ("b2e2", "b9c7", "b0c2"), ("c3c4",)])
def test_the_book_counts_what_a_position_index_of_the_same_games_counts(small_book, same_games_index, line):
    board = Board()
    for move in line:
        board.push_iccs(move)
    book = CompactBook.load(small_book)
    with PositionIndex(same_games_index, create=False) as index:
        expected = index.moves(board)
    assert expected and book.moves(board) == expected  # mirror images joined, results as Red and Black see them


def test_an_xz_stream_gives_the_same_book_as_the_plain_file(tmp_path):
    packed = tmp_path / "games.pgn.xz"
    packed.write_bytes(lzma.compress(MASTER.read_bytes()))
    plain, _report = build_book([MASTER], max_ply=10, min_games=1)
    streamed, report = build_book([packed], max_ply=10, min_games=1)
    assert report.games == 15 and (plain == streamed).all() and len(plain) > 50


def test_results_are_counted_from_the_movers_view():
    rows, _report = build_book([WITH_RESULTS], max_ply=4, min_games=1)
    book = CompactBook(rows, {})
    assert sum(stat.decided for stat in book.moves(Board())) == 10  # every game from the start has a result
    board = Board()
    for line in ((), ("h2e2",)):  # Red to move, then Black
        for move in line:
            board.push_iccs(move)
        key = canonical_key(board)
        stored = rows[rows["key"] == key.key]
        assert len(stored) > 1
        for stat in book.moves(board):
            row = stored[stored["move"] == (key.to_index(stat.move).from_square << 7 | key.to_index(stat.move).to_square)][0]
            mover_wins, mover_losses = (stat.red_wins, stat.black_wins) if board.turn else (stat.black_wins, stat.red_wins)
            assert (mover_wins, stat.draws, mover_losses) == (row["wins"], row["draws"], row["losses"])


def test_bad_books_are_refused_clearly(tmp_path):
    not_a_book = tmp_path / "notes.npz"
    not_a_book.write_text("hello")
    with pytest.raises(BookFileError, match="notes.npz.*not an opening book"):
        CompactBook.load(not_a_book)
    with pytest.raises(BookFileError, match="no such opening book"):
        CompactBook.load(tmp_path / "missing.npz")
    with pytest.raises(FileNotFoundError, match="missing.pgn"):
        build_book([tmp_path / "missing.pgn"])


def test_the_shipped_book_holds_the_masters_openings_with_their_source_named():
    book = shipped_book()
    assert book is not None and 50_000 < len(book) and book.meta["games"] > 27_000
    first = book.moves(Board())
    assert first[0].move.iccs() == "h2e2" and first[0].games > 10_000 and first[0].decided > 0.9 * first[0].games
    board = Board()
    board.push_iccs("b2e2")  # the mirror of the central cannon: Black's replies are the mirrored ones
    mirrored = Board()
    mirrored.push_iccs("h2e2")
    assert {mirror_move(stat.move): stat.games for stat in book.moves(board)} == \
        {stat.move: stat.games for stat in book.moves(mirrored)}
    provenance = read_resource("book/PROVENANCE.md").decode("utf-8")
    assert "Yu-Han Tseng and Bo-Nian Chen" in provenance and "CC BY 4.0" in provenance
    assert "xqdesk book build" in provenance


def test_book_build_and_probe_commands(tmp_path, capsys):
    out = tmp_path / "mine.npz"
    assert main(["book", "build", str(MASTER), str(WITH_RESULTS), "--out", str(out), "--max-ply", "12",
                 "--min-games", "2"]) == 0
    built = capsys.readouterr().out
    assert "25 games read (1 from a set-up position left out)" in built and "MB" in built
    assert main(["book", "probe", "--book", str(out), "炮二平五", "h9g7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["move", "games", "win", "draw", "loss", "score"]
    assert lines[1].startswith("h0g2  马二进三") and lines[-1].startswith("1 book move from mine.npz in ")
    assert main(["book", "probe", "--book", str(out), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                 "c3c4"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("c9e7  象３进５")
    assert main(["book", "probe"]) == 0  # the shipped book
    assert capsys.readouterr().out.splitlines()[1].startswith("h2e2")
    assert main(["book", "probe", "--book", str(tmp_path / "missing.npz")]) == 2
    assert "no such opening book" in capsys.readouterr().err
    assert main(["book", "probe", "a0a5"]) == 2
    assert "a0a5" in capsys.readouterr().err
    assert main(["book", "build", str(tmp_path / "none.pgn"), "--out", str(out)]) == 2


def _first_moves(seed: int, plies: int = 4) -> tuple[list[str], list[str]]:
    engine = BuiltinEngine(book_rng=random.Random(seed))
    apply_option(engine, "OwnBook", "true")  # BookFile left empty: the shipped book
    board, moves, infos = Board(), [], []
    for _ply in range(plies):
        move = engine.search(board, SearchLimits(depth=1), threading.Event(), infos.append)
        assert move is not None
        moves.append(move.iccs())
        board.push(move)
    return moves, [info.string for info in infos if info.string]


def test_the_builtin_engine_opens_from_the_shipped_book_with_variety():
    book = OpeningBook(shipped_book())
    lines = [_first_moves(seed) for seed in range(8)]
    for moves, strings in lines:
        board = Board()
        for move, said in zip(moves, strings):
            assert said.startswith(f"book move {move}:")
            assert move in {stats.move.iccs() for stats, _weight in book.candidates(board)}
            board.push_iccs(move)
        assert len(strings) == len(moves)
    assert len({tuple(moves) for moves, _strings in lines}) >= 3
    assert len({moves[0] for moves, _strings in lines}) >= 2
    assert _first_moves(5) == _first_moves(5)  # one seed, one line


def test_the_book_stays_out_of_analysis():
    engine = BuiltinEngine(book_rng=random.Random(1))
    infos = []
    engine.search(Board(), SearchLimits(depth=1), threading.Event(), infos.append)  # OwnBook is off by default
    assert not any(info.string for info in infos)
    apply_option(engine, "OwnBook", "true")
    stop = threading.Event()
    stop.set()
    engine.search(Board(), SearchLimits(infinite=True), stop, infos.append)  # infinite analysis: no book
    assert not any((info.string or "").startswith("book move") for info in infos)


def test_games_seat_the_builtin_engine_with_its_book_and_analysis_without():
    from xqdesk.engines.registry import EngineKind, EngineProfile

    builtin = EngineProfile("Built-in level 3", EngineKind.BUILTIN, level=3)
    assert builtin.playing().to_spec().options["OwnBook"] == "true"
    assert "OwnBook" not in builtin.to_spec().options  # analysis, hints, review: the engine's default, off
    no_book = EngineProfile("Built-in", EngineKind.BUILTIN, options=(("OwnBook", "false"),))
    assert no_book.playing().to_spec().options["OwnBook"] == "false"
    other = EngineProfile("Fairy", EngineKind.UCI, path="/usr/games/fairy-stockfish")
    assert other.playing() == other


def test_a_book_move_reports_a_line_with_the_masters_score():
    engine = BuiltinEngine(book_rng=random.Random(3))
    apply_option(engine, "OwnBook", "true")
    infos = []
    move = engine.search(Board(), SearchLimits(depth=5), threading.Event(), infos.append)
    line, said = infos
    assert line.depth == 0 and line.pv == (move,) and line.score is not None and said.string.startswith("book move")


def test_the_engine_takes_a_book_file_as_its_book(small_book):
    engine = BuiltinEngine(book_rng=random.Random(2))
    apply_option(engine, "OwnBook", "true")
    apply_option(engine, "BookFile", str(small_book))
    apply_option(engine, "BookMinGames", "4")
    board = Board()
    board.push_iccs("h2e2")
    infos = []
    move = engine.search(board, SearchLimits(depth=1), threading.Event(), infos.append)
    assert move.iccs() in ("h9g7", "b9c7") and infos[-1].string.startswith(f"book move {move.iccs()}")
    not_a_book = small_book.parent / "broken.npz"
    not_a_book.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(EngineOptionError, match="broken.npz"):
        apply_option(engine, "BookFile", str(not_a_book))


def test_xqdesk_play_seats_the_builtin_engine_with_its_book():
    from xqdesk.cli.play import playing_spec
    from xqdesk.engines.spec import parse_spec

    assert playing_spec("builtin:Level=2", parse_spec("builtin:Level=2")).options == {"OwnBook": "true", "Level": "2"}
    assert playing_spec("builtin:OwnBook=false", parse_spec("builtin:OwnBook=false")).options == {"OwnBook": "false"}
    assert "OwnBook" not in playing_spec("random", parse_spec("random")).options


def test_explore_without_an_index_reads_the_masters_book(capsys):
    assert main(["explore", "--moves", "炮二平五"]) == 0
    lines = capsys.readouterr().out.splitlines()
    after = Board()
    after.push_iccs("h2e2")
    first = shipped_book().moves(after)[0]
    assert lines[0].split() == ["move", "games", "red", "draw", "black"]
    assert lines[1].split() == [first.move.iccs(), str(first.games), str(first.red_wins), str(first.draws),
                                str(first.black_wins)]


def test_undamaged_games_are_the_same_from_a_plain_file_and_an_xz_stream_and_leave_out_the_damaged(tmp_path):
    damaged = '[Event "damaged"]\n\n1. h2e2 h9g7 2. a0a9 *\n'  # 2. a0a9: the chariot cannot jump its own pawn
    plain = tmp_path / "games.pgn"
    plain.write_text(MASTER.read_text(encoding="utf-8") + "\n" + damaged, encoding="utf-8")
    packed = tmp_path / "games.pgn.xz"
    packed.write_bytes(lzma.compress(plain.read_bytes()))
    found: dict[Path, tuple[list[list[str]], list[str]]] = {}
    for path in (plain, packed):
        errors: list[str] = []
        games = [[move.iccs() for move in game.mainline_moves()] for game in undamaged_games(path, errors)]
        found[path] = games, errors
    assert len(found[plain][0]) == 15 and found[plain][0] == found[packed][0]
    assert len(found[plain][1]) == 1 and len(found[packed][1]) == 1 and "a0a9" in found[packed][1][0]
