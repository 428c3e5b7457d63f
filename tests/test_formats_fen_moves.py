"""FEN with moves, plain move lists, and reading/writing by extension."""
from __future__ import annotations

from pathlib import Path

import pytest
from datafiles import GAMES

from xqdesk.errors import RecordFormatError
from xqdesk.fen import STARTING_FEN
from xqdesk.formats import read_games, read_games_text, record_kind, write_games
from xqdesk.formats.fen_moves import format_fen_moves, parse_fen_moves
from xqdesk.game import Game
from xqdesk.move import Move

DATA = GAMES


def _iccs(game: Game) -> list[str]:
    return [move.iccs() for move in game.mainline_moves()]


def test_plain_move_lists_in_any_notation() -> None:
    assert _iccs(parse_fen_moves("1. 炮二平五 马８进７ 2. 马二进三 车９平８").games[0]) == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert _iccs(parse_fen_moves("Ｃ２＝５ Ｈ８＋７\nH2+3").games[0]) == ["h2e2", "h9g7", "h0g2"]
    assert _iccs(parse_fen_moves("h2e2 h9g7").games[0]) == ["h2e2", "h9g7"]


def test_fen_lines_start_games() -> None:
    text = (f"{STARTING_FEN} moves h2e2 h9g7\n"
            "position startpos moves c3c4\n"
            "3k5/9/9/9/9/9/9/R8/4A4/4K4 w\n"
            "a2d2 d9e9\n")
    first, second, third = parse_fen_moves(text).games
    assert _iccs(first) == ["h2e2", "h9g7"]
    assert _iccs(second) == ["c3c4"]
    assert third.start_fen == "3k5/9/9/9/9/9/9/R8/4A4/4K4 w - - 0 1"
    assert _iccs(third) == ["a2d2", "d9e9"]


def test_errors_give_the_real_line_number() -> None:
    game_file = parse_fen_moves(f"{STARTING_FEN}\nh2e2 h9g7\nh2e2\n", "moves.fen")
    (error,) = game_file.errors
    assert str(error).startswith("moves.fen, game 1, line 3, move 2 (Red): 'h2e2'")
    assert _iccs(game_file.games[0]) == ["h2e2", "h9g7"]


def test_format_and_round_trip(tmp_path: Path) -> None:
    game = Game.from_moves([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
    assert format_fen_moves(game) == f"{STARTING_FEN} moves h2e2 h9g7"
    assert format_fen_moves(Game()) == STARTING_FEN
    path = tmp_path / "games.fen"
    write_games(path, [game, Game()])
    back = read_games(path)
    assert back.errors == []
    assert [_iccs(g) for g in back.games] == [["h2e2", "h9g7"], []]


def test_kind_by_extension_then_content(tmp_path: Path) -> None:
    history = tmp_path / "Game 1.txt"
    history.write_text("[(9, 7, 7, 6, 0)]")
    pgn_text = tmp_path / "game.txt"
    pgn_text.write_text('[Event "x"]\n\n1. h2e2 *\n')
    moves = tmp_path / "moves.txt"
    moves.write_text("1. h2e2 h9g7")
    xqf = tmp_path / "renamed.dat"
    xqf.write_bytes(b"XQ" + bytes(1022))
    assert [record_kind(path) for path in (history, pgn_text, moves, xqf, tmp_path)] == [
        "history", "pgn", "fen", "xqf", "match"]
    assert _iccs(read_games(history).games[0]) == ["h0g2"]
    assert _iccs(read_games(pgn_text).games[0]) == ["h2e2"]
    assert _iccs(read_games(moves).games[0]) == ["h2e2", "h9g7"]


def test_pasted_text() -> None:
    assert _iccs(read_games_text("[(9, 7, 7, 6, 0), (0, 1, 2, 2, 0)]").games[0]) == ["h0g2", "b9c7"]
    assert _iccs(read_games_text('[Event "x"]\n1. h2e2 *').games[0]) == ["h2e2"]
    assert _iccs(read_games_text("炮二平五").games[0]) == ["h2e2"]


def test_missing_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    game_file = read_games(tmp_path / "nothing.pgn")
    assert game_file.games == [] and "nothing.pgn" in str(game_file.errors[0])


def test_writing_to_an_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordFormatError, match="unknown record format '.doc'"):
        write_games(tmp_path / "out.doc", [Game()])
    with pytest.raises(RecordFormatError, match="needs headers Red and Black"):
        write_games(tmp_path, [Game()])
