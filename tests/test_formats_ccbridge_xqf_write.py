"""象棋桥 XiangQi Bridge records (.cbr, .cbl, .cbf) and the XQF writer."""
from __future__ import annotations

from pathlib import Path

import pytest
from datafiles import DATA

from xqdesk.formats import read_games, record_kind, write_games
from xqdesk.formats.ccbridge import read_cbr
from xqdesk.formats.xqf_write import format_xqf

CCBRIDGE = DATA / "games" / "ccbridge"
XQF = DATA / "games" / "xqf"


def test_cbr_holds_variations_and_comments():
    record = read_games(CCBRIDGE / "huang_danqing_lecture_004.cbr")
    assert record.format == "XiangQi Bridge record (CBR)" and record.errors == []
    game = record.games[0]
    assert game.headers["Title"] == "黄丹青讲座004-破解新式弃马局的攻防要领"
    assert [move.iccs() for move in game.mainline_moves()[:2]] == ["h2e2", "h9g7"]
    assert len(game) == 28 and sum(1 for _ in game.walk()) - 1 == 102
    assert any(node.parent is not None and node.starts_variation() for node in game.walk())
    assert any("不急用平车压马" in node.comment for node in game.walk())


def test_cbl_library_reads_every_game_in_order():
    path = CCBRIDGE / "1956_national_championship_first5.cbl"
    assert record_kind(path) == "cbl"
    record = read_games(path)
    assert record.errors == [] and record.format == "XiangQi Bridge library (CBL)"
    assert [len(game) for game in record.games] == [82, 55, 93, 56, 80]
    first = record.games[0]
    assert (first.headers["Red"], first.headers["Black"], first.headers["Result"]) == ("保定邓裕如", "哈尔滨王嘉良", "0-1")
    assert first.headers["Event"] == "1956年全国象棋锦标赛（初赛）"
    for game in record.games:
        game.replay()


def test_cbf_xml_record():
    record = read_games(CCBRIDGE / "first_game_ancient_manual.cbf")
    assert record.errors == [] and record.format == "XiangQi Bridge XML (CBF)"
    game = record.games[0]
    assert len(game) == 50 and game.comment == "中炮横车盘头马对屏风马双炮巡河"
    assert [move.iccs() for move in game.mainline_moves()[:3]] == ["h2e2", "h9g7", "h0g2"]
    assert game.mainline()[-1].comment.startswith("至此，红方多兵")
    assert game.headers["Event"] == "居荣鑫《象棋古谱全局三种》"


def test_a_damaged_cbr_reports_where(tmp_path: Path):
    data = (CCBRIDGE / "huang_danqing_lecture_004.cbr").read_bytes()
    broken = tmp_path / "broken.cbr"
    broken.write_bytes(data[:2214 + 4 + 4 * 3] + bytes([0, 0, 0, 0x2F]))  # 4th move: a0 -> off the legal moves
    record = read_cbr(broken)
    assert len(record.games[0]) == 3 and record.errors
    assert "broken.cbr, game 1" in str(record.errors[0])


@pytest.mark.parametrize("path", sorted(XQF.iterdir()) + [CCBRIDGE / "huang_danqing_lecture_004.cbr"],
                         ids=lambda path: path.name)
def test_xqf_written_reads_back_the_same_game(path: Path, tmp_path: Path):
    original = read_games(path).games[0]
    target = write_games(tmp_path / "out.xqf", [original])
    data = target.read_bytes()
    assert data[:3] == b"XQ\x0a" and data[3:16] == bytes(13)  # XQStudio's version without obfuscation
    again = read_games(target)
    assert again.errors == [] and again.games[0] == original


def test_xqf_writes_one_game_only(tmp_path: Path):
    games = read_games(DATA / "games" / "notation_15" / "iccs.pgn").games
    with pytest.raises(ValueError, match="one game, not 15"):
        write_games(tmp_path / "many.xqf", games)
    # The start position's piece places exactly as XQStudio wrote them in a real file.
    real = (XQF / "cchess_BadMoveTest1.xqf").read_bytes()
    assert format_xqf(games[0])[16:48] == real[16:48]


def test_xqf_header_is_byte_for_byte_the_one_xqstudio_wrote():
    real = (XQF / "cchess_BadMoveTest1.xqf").read_bytes()  # a version 0x0A file: no obfuscation
    game = read_games(XQF / "cchess_BadMoveTest1.xqf").games[0]
    assert format_xqf(game)[:1024] == real[:1024]
