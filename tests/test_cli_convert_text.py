"""``xqdesk convert`` reads pasted text (standard input or the argument itself) and says which
format it found."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from datafiles import DATA

from xqdesk.cli import main
from xqdesk.formats import read_games


def test_convert_from_standard_input_names_the_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    ubb = (DATA / "games" / "dpxq" / "yilin_xinbian_variations.ubb").read_text("utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(ubb))
    assert main(["convert", "-", str(tmp_path / "out.pgn"), "--notation", "san"]) == 0
    assert "(DhtmlXQ (UBB))" in capsys.readouterr().out
    back = read_games(tmp_path / "out.pgn")
    original = read_games(DATA / "games" / "dpxq" / "yilin_xinbian_variations.ubb")
    assert back.errors == [] and back.games[0].mainline_moves() == original.games[0].mainline_moves()
    assert sum(1 for _ in back.games[0].walk()) == sum(1 for _ in original.games[0].walk())


def test_convert_takes_the_text_itself_and_refuses_non_records(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "1. 炮二平五 马８进７\n2. 马二进三", str(tmp_path / "out.xqf")]) == 0
    assert "(FEN and moves / move list)" in capsys.readouterr().out
    assert [m.iccs() for m in read_games(tmp_path / "out.xqf").games[0].mainline_moves()] == ["h2e2", "h9g7", "h0g2"]
    assert main(["convert", "nothing\nhere", str(tmp_path / "bad.pgn")]) == 1
    err = capsys.readouterr().err
    assert "not a game record in any known format" in err and "PlayOK WXF" in err
    assert not (tmp_path / "bad.pgn").exists()
