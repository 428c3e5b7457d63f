"""ECCO opening classification: real records whose files carry the code xqbase's classifier gave
them are classified the same, mirror images alike, and the data file reads cleanly."""
from pathlib import Path

import pytest

from xqdesk.ecco import EccoDataError, classify_game, classify_moves, opening_named, openings, parse_rules
from xqdesk.formats import read_games
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.position_key import mirror_move

DATA = Path(__file__).parent / "data" / "games"


def labelled_games():
    """(file, game, code) for each test record that names its ECCO code: the xqbase PGNs' ECCO
    tag, a DhtmlXQ/dpxq 'Opening' that starts with the code, the XiangQi Bridge XML's ECCO."""
    found = []
    for path in sorted((DATA / "chinese_gb18030").glob("*.PGN")) + sorted((DATA / "dpxq").iterdir()) \
            + [DATA / "ccbridge" / "first_game_ancient_manual.cbf"]:
        for game in read_games(path).games:
            code = game.headers.get("ECCO") or game.headers.get("Opening", "")[:3]
            if len(code) == 3 and code[0] in "ABCDE" and code[1:].isdigit():
                found.append((path.name, game, code))
    return found


LABELLED = labelled_games()


def test_there_are_enough_labelled_games():
    assert len(LABELLED) >= 15
    assert len({code for _name, _game, code in LABELLED}) >= 13


@pytest.mark.parametrize("name,game,code", LABELLED, ids=[f"{n}-{c}" for n, _g, c in LABELLED])
def test_classification_agrees_with_xqbase(name, game, code):
    assert classify_game(game).code == code


@pytest.mark.parametrize("name,game,code", LABELLED[:6], ids=[f"{n}-{c}" for n, _g, c in LABELLED[:6]])
def test_a_mirrored_game_has_the_same_opening(name, game, code):
    mirrored = [mirror_move(move) for move in game.mainline_moves()]
    assert classify_moves(mirrored).code == code


def test_short_lines_and_names():
    lines = {("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"): "C00", ("h2e2", "b7e7"): "D50",
             ("g0e2",): "A10", ("g0e2", "c6c5"): "A39", ("g3g4",): "E00", ("c3c4", "b7c7"): "E10", (): "A00"}
    for moves, code in lines.items():
        assert classify_moves([Move.from_iccs(text) for text in moves]).code == code, moves
    opening = opening_named("C23")
    assert opening.opening == "中炮过河车七路马对屏风马两头蛇"
    assert opening.variation == "红左横车兑三兵对黑高右炮"
    assert opening.english.startswith("Central Cannon")


def test_a_game_from_another_position_has_no_opening():
    game = Game(start_fen="4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1")
    assert classify_game(game) is None


def test_every_code_has_names_and_rules():
    all_openings = openings()
    assert len(all_openings) == 260
    codes = [opening.code for opening in all_openings]
    assert codes == sorted(set(codes))
    assert codes[0] == "A00" and codes[-1] == "E48"
    for opening in all_openings:
        assert opening.name and opening.english
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in opening.english), opening


def test_a_mistake_in_the_data_names_its_line():
    with pytest.raises(EccoDataError, match="line 2 .*'炮二平九九'"):
        parse_rules("A01\t上仕局\tAdvisor Opening\n\tred: 炮二平九九\n")
    with pytest.raises(EccoDataError, match="line 1"):
        parse_rules("A1\tbad\n")
