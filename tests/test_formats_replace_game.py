"""One game of a real file of several replaced alone: every other byte stays, the file keeps its
encoding, line ends and the game's notation."""
from __future__ import annotations

import pytest
from datafiles import GAMES

from xqdesk.formats import read_games, write_games
from xqdesk.formats.replace_game import GameNotReplaceable, file_stamp, find_game_spans, replace_game
from xqdesk.game import Game

GB18030_GAMES = sorted((GAMES / "chinese_gb18030").iterdir())
"""11 xqbase PGN files: GB18030, CRLF line ends, Chinese moves, an advertisement after each result."""


def joined(tmp_path, files, name: str) -> tuple[bytes, list[bytes]]:
    """``files`` as one file of several games; its bytes and each game's bytes."""
    pieces = [path.read_bytes() for path in files]
    pieces = [piece if piece.endswith(b"\n") else piece + b"\r\n" for piece in pieces]
    (tmp_path / name).write_bytes(b"".join(pieces))
    return b"".join(pieces), pieces


def test_a_game_of_a_gb18030_crlf_collection_is_replaced_and_the_rest_kept(tmp_path):
    data, pieces = joined(tmp_path, GB18030_GAMES, "championship.pgn")
    path = tmp_path / "championship.pgn"
    record = read_games(path)
    assert len(record.games) == 11 and record.encoding == "gb18030"
    game = record.games[3]
    game.comment = "红方布局新颖"
    spans = find_game_spans(path, 11, file_stamp(path))
    replace_game(spans, 3, game)
    new = path.read_bytes()
    before, after = b"".join(pieces[:3]), b"".join(pieces[4:])
    assert new.startswith(before) and new.endswith(after)
    middle = new[len(before):len(new) - len(after)]
    assert b"\r\n" in middle and b"\n" not in middle.replace(b"\r\n", b"")  # CRLF kept
    text = middle.decode("gb18030")
    assert "{红方布局新颖}" in text and "炮八平五" in text  # the file's encoding, the game's notation
    again = read_games(path)
    assert len(again.games) == 11 and not again.errors and again.games[3].comment == "红方布局新颖"
    assert again.games[3].mainline_moves() == record.games[3].mainline_moves()


def test_a_file_changed_since_it_was_read_is_refused_untouched(tmp_path):
    data, _pieces = joined(tmp_path, GB18030_GAMES[:3], "three.pgn")
    path = tmp_path / "three.pgn"
    stamp = file_stamp(path)
    path.write_bytes(data + b"\r\n")
    with pytest.raises(GameNotReplaceable, match="changed by another program"):
        find_game_spans(path, 3, stamp)
    assert path.read_bytes() == data + b"\r\n"


def test_fen_and_dhtmlxq_collections_replace_one_game(tmp_path):
    games = read_games(GAMES / "notation_15" / "iccs.pgn").games[:4]

    for suffix in (".fen", ".ubb"):
        path = tmp_path / f"four{suffix}"
        write_games(path, games)
        original = path.read_bytes()
        record = read_games(path)
        assert len(record.games) == 4, suffix
        spans = find_game_spans(path, 4, file_stamp(path))
        cut = Game.from_moves(record.games[2].mainline_moves()[:6])
        replace_game(spans, 2, cut)
        again = read_games(path)
        assert len(again.games) == 4 and not again.errors, suffix
        assert again.games[2].mainline_moves() == cut.mainline_moves()
        for number in (0, 1, 3):
            assert again.games[number].mainline_moves() == record.games[number].mainline_moves()
        assert path.read_bytes() != original
