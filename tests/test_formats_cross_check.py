"""Every written format round-trips every real sample's move tree (moves, variations, comments),
and every reader agrees with the others on the moves."""
from __future__ import annotations

from pathlib import Path

import pytest
from datafiles import DATA

from xqdesk.formats import read_games, write_games
from xqdesk.game import GameNode
from xqdesk.notation import Notation

SAMPLES = (
    "ccbridge/huang_danqing_lecture_004.cbr",
    "ccbridge/1956_national_championship_first5.cbl",
    "ccbridge/first_game_ancient_manual.cbf",
    "dpxq/yilin_xinbian_variations.ubb",
    "dpxq/wang_tianyi_vs_wu_junqiang.txt",
    "playok/tmt6838g_vs_computerhuang.wxf",
    "pgn_san/elephantchess_wang_tianyi_cao_yanlei.pgn",
    "xqf/cchess_game_varations.xqf",
)
WRITERS = (("out.pgn", Notation.ICCS), ("out.pgn", Notation.SAN), ("out.pgn", Notation.CHINESE),
           ("out.pgn", Notation.WXF), ("out.ubb", Notation.ICCS), ("out.xqf", Notation.ICCS))


@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize("name, notation", WRITERS, ids=lambda value: getattr(value, "value", value))
def test_written_trees_read_back_equal(sample: str, name: str, notation: Notation, tmp_path: Path) -> None:
    record = read_games(DATA / "games" / sample)
    assert record.errors == []
    games = record.games[:1] if name.endswith(".xqf") else record.games
    back = read_games(write_games(tmp_path / name, games, notation))
    assert back.errors == [] and len(back.games) == len(games)
    for original, again in zip(games, back.games):
        assert again.start_fen == original.start_fen
        assert GameNode.__eq__(again, original)  # every move, variation and comment
        assert (again.outcome.result() if again.outcome else None) == (
            original.outcome.result() if original.outcome else None)


def test_the_same_game_from_every_source_agrees() -> None:
    dpxq = DATA / "games" / "dpxq"
    lines = {path.name: read_games(path).games[0].mainline_moves()
             for path in (dpxq / "liu_yongfu_vs_zhang_yongsheng.txt", dpxq / "liu_yongfu_vs_zhang_yongsheng.ubb",
                          dpxq / "liu_yongfu_vs_zhang_yongsheng.html")}
    assert len({tuple(moves) for moves in lines.values()}) == 1 and len(next(iter(lines.values()))) == 107
    san = [read_games(DATA / "games" / "pgn_san" / name).games[0].mainline_moves()
           for name in ("elephantchess_wang_tianyi_cao_yanlei.pgn", "winboard_ranks_0_9.pgn")]
    assert san[0] == san[1]
