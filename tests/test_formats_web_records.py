"""DhtmlXQ / UBB, dpxq plain text, PlayOK WXF, glued Chinese moves and traditional characters:
real samples from the sites, cross-checked against each other."""
from __future__ import annotations

from pathlib import Path

import pytest
from datafiles import DATA

from xqdesk.formats import read_games, read_games_text, record_kind, write_games
from xqdesk.formats.dhtmlxq import START_BINIT, format_dhtmlxq, parse_dhtmlxq
from xqdesk.notation import Notation, format_move

DPXQ = DATA / "games" / "dpxq"
LIU_ZHANG_MOVES = 107


def _chinese(game) -> list[str]:
    board, texts = game.start_board(), []
    for move in game.mainline_moves():
        texts.append(format_move(board, move, Notation.CHINESE))
        board.push(move)
    return texts


def test_dpxq_text_and_its_ubb_and_its_web_page_give_the_same_game():
    text = read_games(DPXQ / "liu_yongfu_vs_zhang_yongsheng.txt")
    ubb = read_games(DPXQ / "liu_yongfu_vs_zhang_yongsheng.ubb")
    page = read_games(DPXQ / "liu_yongfu_vs_zhang_yongsheng.html")
    assert (text.format, ubb.format, page.format) == ("dpxq text", "DhtmlXQ (UBB)", "DhtmlXQ (UBB)")
    assert text.errors == ubb.errors == page.errors == []
    moves = text.games[0].mainline_moves()
    assert len(moves) == LIU_ZHANG_MOVES
    assert ubb.games[0].mainline_moves() == moves == page.games[0].mainline_moves()
    assert _chinese(text.games[0])[0] == "炮二平五" and _chinese(text.games[0])[-1] == "兵五平四"
    for record in (text, ubb, page):
        headers = record.games[0].headers
        assert (headers["Red"], headers["Black"], headers["Result"]) == ("北京 刘永富", "北京 张永生", "0-1")
        assert headers["Event"] == "2026年第137届龙马鹏程大兴月赛" and headers["Round"] == "第07轮"


def test_dpxq_text_with_full_width_spaces_ends_where_another_reader_ends():
    record = read_games(DPXQ / "wang_tianyi_vs_wu_junqiang.txt")
    assert record.format == "dpxq text" and record.errors == []
    game = record.games[0]
    assert len(game) == 83 and game.headers["Result"] == "1/2-1/2" and game.headers["Red"] == "杭州环境集团队 王天一"
    # The position XiangqiCore's test of the same record expects after 42. 相九退七:
    assert game.end_board().fen() == "4kab2/4a4/4b4/7N1/4p3p/2P2n3/2c1P4/4BC3/4A4/2BAK4 b - - 3 42"


def test_dpxq_text_whose_opening_header_reads_like_moves():
    record = read_games(DPXQ / "gao_zhibin_vs_zhao_ying.txt")  # 布局: D36 中炮进三兵对左炮封车…
    assert record.errors == [] and record.games[0].headers["Opening"].startswith("D36 中炮进三兵")
    moves = _chinese(record.games[0])
    assert len(moves) == 92
    # The plies another reader's test of this record checks (Black's digits written full-width here):
    assert (moves[27], moves[42], moves[60], moves[91]) == ("后车进２", "后马进五", "马三进五", "马２退４")


def test_dhtmlxq_variations_and_comments():
    record = read_games(DPXQ / "yilin_xinbian_variations.ubb")
    assert record.errors == []
    game = record.games[0]
    assert len(game) == 63
    assert sum(1 for _ in game.walk()) - 1 == 232  # every move of the 23 variations ([DhtmlXQ_length])
    assert sum(1 for node in game.walk() if node.parent is not None and node.starts_variation()) == 23
    assert game.comment.startswith("《弈林新编》杨官璘编著\n\n\n中炮巡河炮对屏风马")
    assert game.mainline()[18].comment.startswith("如图局势，黑方可走")  # [DhtmlXQ_comment19]
    # [DhtmlXQ_move_0_15_23] is an alternative to ply 15; its comment23_17 sits on its third move.
    ply_15 = game.mainline()[13]
    alternative = ply_15.variations[1]
    assert alternative.move.iccs() == "g4g5" and alternative.next().next().comment.startswith("演成“车换马炮局”")
    assert game.headers["Result"] == "1-0" and game.headers["Annotator"] == "杨官璘"


@pytest.mark.parametrize("name", ["yilin_xinbian_variations.ubb", "liu_yongfu_vs_zhang_yongsheng.ubb"])
def test_dhtmlxq_round_trips(name: str, tmp_path: Path):
    game = read_games(DPXQ / name).games[0]
    again = parse_dhtmlxq(format_dhtmlxq(game))
    assert again.errors == [] and again.games[0] == game
    write_games(tmp_path / "out.ubb", [game, game])
    both = read_games(tmp_path / "out.ubb")
    assert both.errors == [] and both.games == [game, game]


@pytest.mark.parametrize("text, result", [("红胜", "1-0"), ("紅勝", "1-0"), ("黑胜", "0-1"), ("黑勝", "0-1"),
                                          ("和棋", "1/2-1/2"), ("和局", "1/2-1/2"), ("未知", None)])
def test_dhtmlxq_results_in_simplified_and_traditional_characters(text: str, result: str | None):
    record = parse_dhtmlxq(f"[DhtmlXQ][DhtmlXQ_result]{text}[/DhtmlXQ_result]"
                           "[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]")
    assert record.games[0].headers.get("Result") == result


def test_dhtmlxq_binit_black_to_move_and_bad_moves_are_reported():
    slots = ["99"] * 32
    slots[4], slots[20] = "39", "41"  # Red's king on d0, Black's on e8: the kings' slots
    endgame = (f"[DhtmlXQ][DhtmlXQ_binit]{''.join(slots)}[/DhtmlXQ_binit]"
               "[DhtmlXQ_movelist]41423938[/DhtmlXQ_movelist][/DhtmlXQ]")
    record = parse_dhtmlxq(endgame)
    assert record.errors == []
    game = record.games[0]
    assert game.start_fen == "9/4k4/9/9/9/9/9/9/9/3K5 b - - 0 1"  # Black's king moves first
    assert [move.iccs() for move in game.mainline_moves()] == ["e8e7", "d0d1"]
    assert parse_dhtmlxq(format_dhtmlxq(game)).games[0] == game
    bad = parse_dhtmlxq("[DhtmlXQ][DhtmlXQ_movelist]774770627945[/DhtmlXQ_movelist][/DhtmlXQ]", "bad.ubb")
    assert len(bad.games[0]) == 2
    message = str(bad.errors[0])
    assert "bad.ubb, game 1" in message and "ply 3 of the main line" in message and "'7945'" in message and "not legal" in message


def test_playok_wxf_file():
    record = read_games(DATA / "games" / "playok" / "tmt6838g_vs_computerhuang.wxf")
    assert record.format == "PlayOK WXF" and record.errors == []
    game = record.games[0]
    assert len(game) == 55
    assert _chinese(game)[:4] == ["炮八平五", "炮２平５", "马八进七", "马２进３"]
    assert game.headers["Red"] == "tmt6838g" and game.headers["RedElo"] == "1137"
    assert game.headers["TimeControl"] == "10m+0s" and game.outcome is not None and game.outcome.result() == "1-0"


GLUED = ("1.兵七进一炮2平32.兵三进一炮8平53.马二进三马8进74.马八进七车9平85.车一平二马2进16.车九平八车8进4"
         "7.炮二平一车8进58.马三退二车1平29.马二进三车2进410.炮八平九车2平811.马七进六卒7进1")


def test_chinese_moves_glued_together():
    record = read_games_text(GLUED)
    assert record.errors == [] and record.format == "FEN and moves / move list"
    assert len(record.games[0]) == 22
    assert _chinese(record.games[0])[:3] == ["兵七进一", "炮２平３", "兵三进一"]


def test_traditional_characters_and_dashed_coordinates():
    traditional = read_games_text("1. 俥一進一 象７進５\n2. 砲二平五 傌８進７\n3. 傌二進三 車９平８\n")
    assert traditional.errors == []
    assert _chinese(traditional.games[0]) == ["车一进一", "象７进５", "炮二平五", "马８进７", "马二进三", "车９平８"]
    dashed = read_games_text("1. H2-E2 H9-G7\n2. H0-G2 I9-H9\n")
    assert [m.iccs() for m in dashed.games[0].mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    dpxq_traditional = read_games_text("紅方: 甲\n黑方: 乙\n結果: 紅勝\n\n  1.炮二平五      馬８進７\n")
    assert dpxq_traditional.format == "dpxq text"
    assert dpxq_traditional.games[0].headers["Result"] == "1-0" and len(dpxq_traditional.games[0]) == 2


def test_text_file_kinds_come_from_the_content(tmp_path: Path):
    for name, content, kind in (("a.txt", (DPXQ / "liu_yongfu_vs_zhang_yongsheng.ubb").read_text("utf-8"), "dhtmlxq"),
                                ("b.txt", (DPXQ / "liu_yongfu_vs_zhang_yongsheng.txt").read_text("utf-8"), "dpxq"),
                                ("c.txt", GLUED, "fen")):
        path = tmp_path / name
        path.write_text(content, encoding="gb18030")
        assert record_kind(path) == kind
        assert read_games(path).errors == []


def test_text_in_no_format_names_the_formats_tried():
    record = read_games_text("hello world, no game here", "clipboard")
    assert record.games == [] and len(record.errors) == 1
    message = str(record.errors[0])
    for name in ("DhtmlXQ (UBB)", "XiangQi Bridge XML (CBF)", "PlayOK WXF", "dpxq text", "course history", "PGN",
                 "move list"):
        assert name in message
    assert "clipboard" in message and "'hello'" in message


def test_errors_in_pasted_site_texts_name_the_line_move_and_text():
    wxf = (DATA / "games" / "playok" / "tmt6838g_vs_computerhuang.wxf").read_text("utf-8")
    two = read_games_text(wxf + wxf.replace("H7+5 r6+2", "H7+5 r6+9"), "two.wxf")
    assert [len(game) for game in two.games] == [55, 15]
    assert str(two.errors[0]).startswith("two.wxf, game 2, line 27, move 8 (Black): 'r6+9'")
    text = (DPXQ / "liu_yongfu_vs_zhang_yongsheng.txt").read_text("utf-8").replace("车６进５", "车６进９")
    record = read_games_text(text, "d.txt")
    assert len(record.games[0]) == 23
    assert str(record.errors[0]).startswith("d.txt, game 1, line 34, move 12 (Black): '车６进９'")


def test_fifteen_master_games_glued_together_read_back():
    for game in read_games(DATA / "games" / "notation_15" / "chinese.pgn").games:
        board, text = game.start_board(), ""
        for ply, move in enumerate(game.mainline_moves()):
            text += (f"{ply // 2 + 1}." if ply % 2 == 0 else "") + format_move(board, move, Notation.CHINESE)
            board.push(move)
        record = read_games_text(text)
        assert record.errors == [] and record.games[0].mainline_moves() == game.mainline_moves()


def test_a_bare_fen_is_a_record_and_angle_brackets_in_a_ubb_comment_stay():
    fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"
    record = read_games_text(fen)
    assert record.errors == [] and record.games[0].start_fen == fen
    ubb = ("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
           "[DhtmlXQ_comment1]红方 > 黑方 <稍优>[/DhtmlXQ_comment1][/DhtmlXQ]")
    assert read_games_text(ubb).games[0].variations[0].comment == "红方 > 黑方 <稍优>"


def test_dhtmlxq_writes_alternatives_to_the_first_move_and_nested_ones():
    from xqdesk.game import GameNode
    from xqdesk.notation import parse_move

    game = read_games(DATA / "games" / "notation_15" / "iccs.pgn").games[0]
    first_alternative = game.add_variation(parse_move(game.start_board(), "b2e2"), comment="alt")
    first_alternative.add_variation(parse_move(first_alternative.board(), "h9g7"))
    game.add_variation(parse_move(game.start_board(), "c3c4"))
    reply = game.variations[0].add_variation(parse_move(game.variations[0].board(), "b9c7"))
    deeper = reply.add_variation(parse_move(reply.board(), "h0g2"))
    deeper.add_variation(parse_move(deeper.board(), "a9b9"))
    deeper.add_variation(parse_move(deeper.board(), "h9g7"), comment="nested")
    game.replay()
    text = format_dhtmlxq(game)
    assert "[DhtmlXQ_move_0_1_1]17477062[/DhtmlXQ_move_0_1_1]" in text
    assert "[DhtmlXQ_move_0_1_2]2625[/DhtmlXQ_move_0_1_2]" in text
    assert f"[DhtmlXQ_binit]{START_BINIT}[/DhtmlXQ_binit]" in text  # dpxq's own start position
    again = parse_dhtmlxq(text)
    assert again.errors == [] and GameNode.__eq__(again.games[0], game)
