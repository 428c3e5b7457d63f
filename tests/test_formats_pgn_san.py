"""PGN in the WinBoard / cutechess / pychess.org dialect: SAN moves, ranks 0-9 or 1-10, lenient tags."""
from __future__ import annotations

import pyffish
import pytest
from datafiles import DATA

from xqdesk.formats import read_games
from xqdesk.formats.pgn import format_pgn, parse_pgn
from xqdesk.notation import Notation, format_move, parse_move
from xqdesk.notation.san import format_san, parse_san

pytestmark = pytest.mark.engines

SAN_DIR = "games/pgn_san"


def _uci_line(game) -> list[str]:
    board, line = game.start_board(), []
    for move in game.mainline_moves():
        line.append(format_move(board, move, Notation.UCI))
        board.push(move)
    return line


def test_pychess_dialect_reads_and_agrees_with_fairy_stockfish():
    record = read_games(DATA / SAN_DIR / "elephantchess_wang_tianyi_cao_yanlei.pgn")
    assert record.errors == []
    game = record.games[0]
    assert len(game) == 63
    assert game.headers["Red"] == "Wang Tianyi" and game.outcome is not None and game.outcome.result() == "1-0"
    assert [m.iccs() for m in game.mainline_moves()[:4]] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    # Fairy-Stockfish reads our moves as the same SAN (it drops the needless origin files the site writes).
    theirs = pyffish.get_san_moves("xiangqi", pyffish.start_fen("xiangqi"), _uci_line(game))
    board, ours = game.start_board(), []
    for move in game.mainline_moves():
        ours.append(format_san(board, move))
        board.push(move)
    assert ours == theirs


def test_winboard_ranks_0_9_give_the_same_game():
    pychess = read_games(DATA / SAN_DIR / "elephantchess_wang_tianyi_cao_yanlei.pgn").games[0]
    winboard = read_games(DATA / SAN_DIR / "winboard_ranks_0_9.pgn")
    assert winboard.errors == []
    assert winboard.games[0].mainline_moves() == pychess.mainline_moves()


def test_dialect_told_apart_by_legality_when_no_rank_0_or_10_is_written():
    zero_based = parse_pgn('[Variant "xiangqi"]\n\n1. Che2 Hg7 2. Hg2 Rh9 *\n')
    one_based = parse_pgn('[Variant "xiangqi"]\n\n1. Che3 Hg8 2. Hg3 Hc8 *\n')
    assert zero_based.errors == [] and one_based.errors == []
    assert [m.iccs() for m in zero_based.games[0].mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert [m.iccs() for m in one_based.games[0].mainline_moves()] == ["h2e2", "h9g7", "h0g2", "b9c7"]


def test_bad_san_move_names_game_line_and_move():
    record = parse_pgn('[Variant "xiangqi"]\n\n1. Che3 Hg8 2. Rxa10 *\n', "bad.pgn")
    assert len(record.games) == 1 and len(record.games[0]) == 2
    message = str(record.errors[0])
    assert "bad.pgn, game 1" in message and "line 3" in message and "'Rxa10'" in message and "SAN" in message


def test_san_pgn_round_trips_with_variations_and_comments():
    source = read_games(DATA / "games/notation_15/iccs.pgn").games[0]
    first = source.variations[0]
    source.add_variation(parse_move(source.start_board(), "b2e2"), comment="also good")
    first.comment = "the usual"
    source.headers["Red"] = "A"
    text = format_pgn(source, Notation.SAN)
    assert '[Variant "xiangqi"]' in text and "[Format" not in text and '[White "A"]' in text
    again = parse_pgn(text).games[0]
    assert again.mainline_moves() == source.mainline_moves() and again.headers["Red"] == "A"
    assert again.variations[1].move.iccs() == "b2e2" and again.variations[1].comment == "also good"
    assert again.variations[0].comment == "the usual"


@pytest.mark.parametrize("fen, uci", [
    ("3k5/9/9/9/R8/9/9/9/9/R3K4 w - - 0 1", "a1a4"),
    ("3k5/9/9/9/9/R8/9/9/R8/4K4 w - - 0 1", "a5a4"),
])
def test_disambiguation_matches_fairy_stockfish(fen, uci):
    from xqdesk.board import Board
    board = Board(fen)
    move = parse_move(board, uci, Notation.UCI)
    theirs = pyffish.get_san("xiangqi", fen, uci)
    assert format_san(board, move) == theirs
    assert parse_san(board, theirs) == move


def test_lenient_tag_with_inner_quotes_does_not_garble_the_next_game():
    text = ('[Event ""Huangshan Cup" 2002"]\n[Red "A"]\n\n1. h2e2 h9g7 *\n\n'
            '[Event "Next"]\n[Red "B"]\n\n1. b2e2 *\n')
    record = parse_pgn(text)
    assert record.errors == []
    assert [game.headers["Event"] for game in record.games] == ['"Huangshan Cup" 2002', "Next"]
    assert [len(game) for game in record.games] == [2, 1]


def test_dialect_named_by_the_site_tag():
    # The site is taken at its word: WinBoard's 'Che2' is h2e2; read as pychess.org's ranks 1-10 it is no legal move.
    winboard = parse_pgn('[Site "WinBoard"]\n[Variant "xiangqi"]\n\n1. Che2 Hg7 2. Hg2 *\n')
    pychess = parse_pgn('[Site "https://www.pychess.org/abc"]\n[Variant "xiangqi"]\n\n1. Che2 *\n')
    assert [m.iccs() for m in winboard.games[0].mainline_moves()] == ["h2e2", "h9g7", "h0g2"]
    assert pychess.games[0].mainline_moves() == [] and "ranks 1-10" in str(pychess.errors[0])


def test_san_of_fifteen_master_games_is_fairy_stockfish_s():
    for game in read_games(DATA / "games/notation_15/iccs.pgn").games:
        board, ours = game.start_board(), []
        for move in game.mainline_moves():
            ours.append(format_san(board, move))
            assert parse_san(board, ours[-1]) == move
            board.push(move)
        assert ours == pyffish.get_san_moves("xiangqi", game.start_fen, _uci_line(game))
