"""XQF reading on the real files in tests/data."""
from __future__ import annotations

from pathlib import Path

import pyffish
import pytest
from datafiles import GAMES

from xqdesk.errors import RecordFormatError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.xqf import read_xqf
from xqdesk.formats.xqf_binary import decode_xqf
from xqdesk.game import GameNode
from xqdesk.outcome import Termination

XQF_DIR = GAMES / "xqf"


def _xqf(name: str) -> Path:
    path = XQF_DIR / name
    return path


def _node_count(root: GameNode) -> int:
    return sum(1 for _node in root.walk()) - 1


def _fairy_uci(iccs: str) -> str:
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


@pytest.mark.parametrize("name, version", [
    ("cchess_BadMoveTest1.xqf", 0x0A), ("cchess_ucci_test1.xqf", 0x10), ("eleeye_SAMPLE.XQF", 0x12)])
def test_versions_decode(name: str, version: int) -> None:
    record = decode_xqf(_xqf(name).read_bytes(), name)
    assert record.version == version
    assert record.error is None


def test_full_game_with_headers_comments_and_result() -> None:
    game_file = read_xqf(_xqf("eleeye_XQFEXAMA.XQF"))
    assert game_file.errors == []
    (game,) = game_file.games
    assert game.headers["Red"] == "柳大华"
    assert game.headers["Title"] == "仙人指路对起马局"
    assert game.headers["Result"] == "0-1"
    assert game.outcome is not None and game.outcome.winner is False
    assert game.start_fen == STARTING_FEN
    assert len(game) == 110
    assert game.comment.startswith("1997年11月16日")
    game.replay()


def test_main_line_agrees_with_fairy_stockfish() -> None:
    (game,) = read_xqf(_xqf("eleeye_SAMPLE.XQF")).games  # a handicap game: Red starts without nine pieces
    assert game.start_fen.startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w")
    moves = [_fairy_uci(move.iccs()) for move in game.mainline_moves()]
    for ply in range(len(moves)):
        assert moves[ply] in pyffish.legal_moves("xiangqi", game.start_fen, moves[:ply])


def test_set_up_position() -> None:
    (game,) = read_xqf(_xqf("cchess_ucci_test1.xqf")).games
    assert game.start_fen == "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1"
    assert game.headers["Title"] == "第006局 蝇垂骥尾"
    assert len(game) == 43


def test_variations_and_comments() -> None:
    game_file = read_xqf(_xqf("cchess_UnitTest.xqf"))
    (game,) = game_file.games
    assert game_file.errors == []
    assert len(game) == 5
    assert _node_count(game) == 19
    assert game.comment == "棋局注解"
    assert any(len(node.variations) > 1 for node in game.walk())
    game.replay()


def test_large_tree_reports_its_one_broken_variation_and_keeps_the_rest() -> None:
    game_file = read_xqf(_xqf("cchess_WildHouse.xqf"))
    (game,) = game_file.games
    assert len(game) == 65
    assert _node_count(game) == 1668
    (error,) = game_file.errors
    assert "cchess_WildHouse.xqf, game 1, move 37 (Black)" in str(error)
    assert "'e7f7'" in str(error) and "no piece on the from-square" in str(error)


@pytest.mark.parametrize("name", ["cchess_EmptyTest.xqf", "cchess_NoMove.xqf"])
def test_games_without_moves(name: str) -> None:
    game_file = read_xqf(_xqf(name))
    assert game_file.errors == []
    assert game_file.games[0].mainline() == []


def test_empty_game_keeps_its_headers_and_result() -> None:
    (game,) = read_xqf(_xqf("cchess_EmptyTest.xqf")).games
    assert game.headers["Site"] == "弈天网华山"
    assert game.outcome is not None and game.outcome.termination is Termination.ADJUDICATION
    assert game.outcome.result() == "0-1"


def test_bad_move_file_reads_to_its_last_record() -> None:
    """Its moves are all legal by the rules and by Fairy-Stockfish; it ends with Black's resignation."""
    game_file = read_xqf(_xqf("cchess_BadMoveTest1.xqf"))
    (game,) = game_file.games
    assert len(game) == 43
    assert game.mainline()[-1].comment == "黑方认负"


def test_truncated_file_keeps_the_moves_before_the_damage(tmp_path: Path) -> None:
    data = _xqf("eleeye_XQFEXAMA.XQF").read_bytes()
    damaged = tmp_path / "damaged.xqf"
    damaged.write_bytes(data[:len(data) - 700])
    game_file = read_xqf(damaged)
    (game,) = game_file.games
    assert 0 < len(game) < 110
    (error,) = game_file.errors
    assert "damaged.xqf, game 1, move tree" in str(error) and "the file ends inside" in str(error)


def test_illegal_move_is_reported_with_its_number_and_position(tmp_path: Path) -> None:
    data = bytearray(_xqf("cchess_BadMoveTest1.xqf").read_bytes())  # version 0x0A: plain bytes
    first_move = 3186  # the record after the root's comment: h2f2 = from 0x18 + 72, to 0x20 + 52
    data[first_move] = 0x18 + 74  # h4: an empty square
    broken = tmp_path / "broken.xqf"
    broken.write_bytes(bytes(data))
    game_file = read_xqf(broken)
    assert game_file.games[0].mainline() == []
    (error,) = game_file.errors
    assert str(error).startswith("broken.xqf, game 1, move 1 (Red) of the main line: 'h4f2': illegal in ")


def test_not_an_xqf_file(tmp_path: Path) -> None:
    path = tmp_path / "text.xqf"
    path.write_bytes(b"[Event \"x\"]\n" * 100)
    game_file = read_xqf(path)
    assert game_file.games == []
    assert "text.xqf" in str(game_file.errors[0]) and "not an XQF file" in str(game_file.errors[0])
    with pytest.raises(RecordFormatError):
        decode_xqf(b"XQ\x0a", "short.xqf")
