"""PGN reading and writing on the real files of the test data (tests/data), and on the real-world mess."""
from __future__ import annotations

from pathlib import Path

import pytest
from datafiles import GAMES

from xqdesk.formats import read_games, write_games
from xqdesk.formats.pgn import format_pgn, parse_pgn, read_pgn
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.notation import Notation
from xqdesk.outcome import Outcome, Termination
from xqdesk.ruleset import COURSE, STANDARD

GAMES = GAMES


def _data(relative: str) -> Path:
    path = GAMES / relative
    return path


@pytest.mark.slow
def test_all_1391_master_games_replay_legally() -> None:
    game_file = read_pgn(_data("iccs/Hu_Ronghua_1391_UCI_games.pgn"))
    assert game_file.errors == []
    assert len(game_file.games) == 1391
    assert game_file.games[0].headers == {"Event": "China Team Championship 1998", "Red": "HU RongHua",
                                          "Black": "XU TianHong"}
    assert game_file.games[0].mainline_moves()[:2] == [Move.from_iccs("g0e2"), Move.from_iccs("b9c7")]
    assert sum(len(game) for game in game_file.games) == 120357
    assert all(game.ruleset is STANDARD and game.outcome is None for game in game_file.games)


def test_the_notation_15_files_give_the_same_games() -> None:
    reference = read_pgn(_data("notation_15/iccs.pgn"))
    assert reference.errors == [] and len(reference.games) == 15
    for name in ("chinese.pgn", "wxf_fullwidth.pgn"):
        other = read_pgn(_data(f"notation_15/{name}"))
        assert other.errors == []
        for number, (expected, got) in enumerate(zip(reference.games, other.games), start=1):
            assert got.headers == expected.headers
            got_moves, expected_moves = got.mainline_moves(), expected.mainline_moves()
            if number == 2:
                # The files disagree on one tandem-pawn move: the ICCS file plays the front pawn
                # (e5e6) where both descriptive files write the rear one (后兵进一 / －Ｐ＋１, e3e4).
                assert (expected_moves[70], got_moves[70]) == (Move.from_iccs("e5e6"), Move.from_iccs("e3e4"))
                got_moves[70] = expected_moves[70]
            assert got_moves == expected_moves


def test_gb18030_files_read_with_their_chinese_headers() -> None:
    folder = _data("chinese_gb18030")
    paths = sorted(folder.glob("*.PGN"))
    assert len(paths) == 11
    for path in paths:
        game_file = read_pgn(path)
        assert game_file.encoding == "gb18030"
        assert game_file.errors == []
        (game,) = game_file.games
        assert game.headers["Event"] == "1st Chinese Computer Games Championship, Beijing 2006" or path.name == "eleeye_SAMPLE.PGN"
        assert game.outcome is not None and game.outcome.result() == game.headers["Result"]
        game.replay()
    (first,) = read_pgn(folder / "eleeye_01.宝岛一号(先负)相眼竞技(A1-A2).PGN").games
    assert first.headers["Site"] == "北京中国科技馆"
    assert first.headers["Opening"] == "中炮过河车互进七兵对屏风马平炮兑车"
    assert first.headers["Red"] == "宝岛一号"
    assert len(first) == 26


def test_encoding_can_be_overridden() -> None:
    path = _data("chinese_gb18030/eleeye_SAMPLE.PGN")
    game_file = read_pgn(path, encoding="gbk")
    assert game_file.encoding == "gb18030" and game_file.errors == []
    wrong = read_pgn(path, encoding="utf-8")
    # Read game by game with the bytes replaced: the game is kept only as far as it reads, with an
    # error naming the first byte that is not UTF-8.
    assert all(not list(game.mainline_moves()) for game in wrong.games)
    decoding = [error for error in wrong.errors if "cannot be decoded as utf-8" in str(error)]
    assert decoding and str(decoding[0]).startswith("eleeye_SAMPLE.PGN, game 1, line ")


def test_big5_and_utf8_files_are_detected(tmp_path: Path) -> None:
    text = '[Event "象棋比賽"]\n[Red "紅方"]\n\n1. 炮二平五 馬８進７ 2. 傌二進三 車９平８ 1-0\n'
    for encoding in ("big5", "utf-8", "gb18030"):
        path = tmp_path / f"{encoding}.pgn"
        path.write_bytes(text.encode(encoding))
        game_file = read_pgn(path)
        assert game_file.errors == []
        assert game_file.encoding == encoding
        assert game_file.games[0].headers["Event"] == "象棋比賽"
        assert len(game_file.games[0]) == 4


def test_real_world_mess() -> None:
    text = (
        "\ufeff[Event \"mess\"]\r\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]\r\n"
        "\r\n１．．．马８进７ 2.Ｃ２＝５ {a comment} 2... h7i7 ; to the end of the line\r\n"
        "3. H0-G2 $1 (3. c3c4 c6c5 (3... g6g5) 4. c4c5) 3... g6g5\r\n"
        "1/2-1/2 an advertisement after the result\r\n"
        "[Event \"second, no result token\"]\n\n1. h2e2 h9g7\n"
        "[Event \"third, no tags but Event\"]\n1. h2e2 h2e2 h9g7\n"
    )
    game_file = parse_pgn(text, "mess.pgn")
    first, second, third = game_file.games
    assert first.start_fen.split()[1] == "b"
    assert [move.iccs() for move in first.mainline_moves()] == ["h9g7", "h2e2", "h7i7", "h0g2", "g6g5"]
    mainline = first.mainline()
    assert mainline[1].comment == "a comment"
    assert mainline[2].comment == "to the end of the line"
    assert mainline[3].nags == {1}
    variation = mainline[2].variations[1]
    assert [node.move.iccs() for node in [variation, *variation.mainline()]] == ["c3c4", "c6c5", "c4c5"]
    assert [node.move.iccs() for node in variation.variations[1:]] == ["g6g5"]
    assert first.outcome is not None and first.outcome.winner is None
    assert first.headers == {"Event": "mess", "Result": "1/2-1/2"}
    assert second.outcome is None and len(second) == 2
    assert [move.iccs() for move in third.mainline_moves()] == ["h2e2"]  # kept up to the error
    (error,) = game_file.errors
    assert str(error).startswith("mess.pgn, game 3, line 11, move 1 (Black): 'h2e2': ")


def test_errors_name_game_line_move_and_text_and_later_games_still_read() -> None:
    text = ('[Event "a"]\n\n1. h2e2 h9g7 2. 马二进三 马８进９ *\n\n'
            '[Event "b"]\n\n1. c3c4 zz9 2. h2e2 *\n\n'
            '[Event "c"]\n\n1. 马八进九 *\n')
    game_file = parse_pgn(text, "bad.pgn")
    assert [game.headers["Event"] for game in game_file.games] == ["a", "b", "c"]
    assert [len(game) for game in game_file.games] == [3, 1, 1]
    first, second = game_file.errors
    assert first.game_number == 1 and first.text == "马８进９" and "line 3, move 2 (Black)" in str(first)
    assert second.game_number == 2 and second.text == "zz9" and "line 7, move 1 (Black)" in str(second)


def test_ambiguous_move_is_an_error() -> None:
    game_file = parse_pgn('[FEN "4k4/9/9/9/9/9/9/R8/4A4/R3K4 w - - 0 1"]\n\n1. 车九进一 *\n', "amb.pgn")
    (error,) = game_file.errors
    assert error.text == "车九进一" and "move 1 (Red)" in str(error)


def _annotated_game() -> Game:
    game = Game(headers={"Event": "测试 \"quoted\"", "Red": "A", "Black": "B", "Round": "3"},
                comment="before the first move", ruleset=COURSE,
                outcome=Outcome.no_legal_moves(False))
    first = game.add_variation(Move.from_iccs("h2e2"))
    reply = first.add_variation(Move.from_iccs("h9g7"), "the usual reply", nags=[1])
    first.add_variation(Move.from_iccs("b9c7"), "also fine", starting_comment="or").add_variation(Move.from_iccs("b0c2"))
    third = reply.add_variation(Move.from_iccs("h0g2"), nags=[6, 2])
    reply.add_variation(Move.from_iccs("b0c2"))
    third.add_variation(Move.from_iccs("i9h9"))
    return game


@pytest.mark.parametrize("notation", [Notation.ICCS, Notation.WXF, Notation.CHINESE])
def test_write_and_read_back_gives_the_same_game(tmp_path: Path, notation: Notation) -> None:
    game = _annotated_game()
    game.replay()
    path = tmp_path / "annotated.pgn"
    write_games(path, [game], notation)
    game_file = read_games(path)
    assert game_file.errors == []
    (back,) = game_file.games
    expected_headers = dict(game.headers, Result="1-0")
    assert back.headers == expected_headers
    back.headers = game.headers
    assert back == game


@pytest.mark.parametrize("relative", ["notation_15/chinese.pgn", "chinese_gb18030", "xqf"])
@pytest.mark.parametrize("notation", [Notation.ICCS, Notation.WXF, Notation.CHINESE])
def test_every_real_game_survives_a_round_trip(tmp_path: Path, relative: str, notation: Notation) -> None:
    source = _data(relative)
    paths = sorted(source.iterdir()) if source.is_dir() else [source]
    games = [game for path in paths for game in read_games(path).games]
    path = tmp_path / "all.pgn"
    write_games(path, games, notation)
    back = read_games(path)
    assert back.errors == []
    assert back.games == games


def test_written_pgn_looks_like_pgn() -> None:
    text = format_pgn(_annotated_game(), Notation.ICCS)
    assert text.startswith('[Event "测试 \\"quoted\\""]\n[Round "3"]\n[Red "A"]\n[Black "B"]\n'
                           '[Result "1-0"]\n[Format "ICCS"]\n[Ruleset "course"]\n'
                           '[Termination "Black loses the game. Red wins!"]\n\n')
    assert max(len(line) for line in text.splitlines()) <= 80
    assert ("{before the first move} 1. h2e2 h9g7 $1 {the usual reply} ({or} 1... b9c7 {also fine} 2. b0c2) "
            "2. h0g2 $2 $6 (2. b0c2) 2... i9h9 1-0") in " ".join(text.split())
    assert text.endswith("1-0\n\n")


def test_adjudicated_result_needs_no_termination_tag() -> None:
    game = Game(outcome=Outcome(Termination.ADJUDICATION, True, "Red wins"))
    assert "Termination" not in format_pgn(game)
    assert parse_pgn(format_pgn(game)).games[0].outcome == game.outcome


def test_undecodable_bytes_are_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "garbled.pgn"
    path.write_bytes(b'[Event "x"]\n\n1. h2e2 \xff\xfe\xff *\n')
    game_file = read_games(path)
    # The game is read as far as it goes, the bytes that decode in no encoding replaced.
    assert game_file.games[0].mainline_moves() == [Move.from_iccs("h2e2")]
    decoding = [error for error in game_file.errors if "cannot be decoded" in error.reason]
    assert str(decoding[0]).startswith("garbled.pgn, game 1, line 3, byte 21: ")
    forced = read_games(path, encoding="latin-1")
    assert forced.encoding == "latin-1" and forced.games[0].mainline_moves() == [Move.from_iccs("h2e2")]


def test_truncated_file_keeps_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "cut.pgn"
    path.write_text('[Event "a"]\n\n1. h2e2 h9g7 *\n\n[Event "b"]\n\n1. c3c4 {a comment that never', encoding="utf-8")
    game_file = read_games(path)
    assert [len(game) for game in game_file.games] == [2, 1]
    assert game_file.games[1].mainline()[0].comment == "a comment that never"


def test_games_without_tags_follow_each_other() -> None:
    game_file = parse_pgn("1. h2e2 h9g7 1-0\n1. c3c4 0-1\n１． 炮二平五 *\n", "bare.pgn")
    assert game_file.errors == []
    assert [[move.iccs() for move in game.mainline_moves()] for game in game_file.games] == [
        ["h2e2", "h9g7"], ["c3c4"], ["h2e2"]]
    assert [game.headers.get("Result") for game in game_file.games] == ["1-0", "0-1", None]


def test_fairy_stockfish_squares_are_recognised() -> None:
    game_file = parse_pgn('[Format "UCI"]\n1. h3e3 h10g8 2. h1g3 *\n', "fairy.pgn")
    assert game_file.errors == []
    assert [move.iccs() for move in game_file.games[0].mainline_moves()] == ["h2e2", "h9g7", "h0g2"]
