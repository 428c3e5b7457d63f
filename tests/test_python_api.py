"""The Python API (``xqdesk.engine``) with real engine processes, and the tutorial page's examples
run as a reader runs them: every ``python`` block of docs/howto/python-api.md, in order, in one
namespace."""
import asyncio
import contextlib
import re
from pathlib import Path

import pytest

import xqdesk
import xqdesk.engine
from xqdesk.engines.errors import EngineStartError
from xqdesk.formats import read_games

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "howto" / "python-api.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_the_tutorial_examples_run_in_order(tmp_path, capsys, monkeypatch):
    blocks = BLOCK.findall(TUTORIAL.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__tutorial__"}
    for number, code in enumerate(blocks, start=1):
        exec(compile(code, f"{TUTORIAL.name} block {number}", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "it plays" in printed and "from Red's view:" in printed
    written = read_games(tmp_path / "scripted.pgn")
    assert not written.errors and len(written.games) == 1
    first = written.games[0].next()
    assert first is not None and [child.comment for child in first.parent.variations][1] == "another first move"


def test_the_tutorial_is_in_the_site_navigation():
    assert "howto/python-api.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_analyse_and_play_with_the_builtin_engine():
    board = xqdesk.Board()
    board.push_iccs("h2e2")
    with xqdesk.engine.open("builtin") as engine:
        assert "MultiPV" in engine.options and engine.protocol == "UCI"
        info = engine.analyse(board, xqdesk.engine.Limit(depth=3))
        assert info.depth == 3 and info.score is not None and info.score.turn == xqdesk.BLACK
        assert info.pv and board.is_legal(info.pv[0])
        lines = engine.analyse_lines(board, xqdesk.engine.Limit(depth=2), multipv=3)
        assert [line.multipv for line in lines] == [1, 2, 3]
        assert len({line.pv[0] for line in lines}) == 3
        assert lines[0].score.relative >= lines[2].score.relative
        seen = []
        result = engine.play(board, xqdesk.engine.Limit(depth=2))
        engine.analyse(board, xqdesk.engine.Limit(depth=2), on_info=seen.append)
        assert result.move is not None and board.is_legal(result.move) and not result.resigned
        assert seen and all(isinstance(info, xqdesk.engine.Info) for info in seen)


def test_a_finished_game_bad_limits_and_unknown_engines_are_refused():
    with pytest.raises(ValueError, match="needs movetime, depth or nodes"):
        xqdesk.engine.Limit()
    with pytest.raises(ValueError, match="depth must be more than 0"):
        xqdesk.engine.Limit(depth=0)
    with pytest.raises(EngineStartError, match="unknown engine 'no-such-engine'"):
        xqdesk.engine.open("no-such-engine", engines_file=ROOT / "tests" / "data" / "no-engines.json")
    mated = xqdesk.Board("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1")
    assert mated.outcome() is not None
    with xqdesk.engine.open("greedy") as engine, pytest.raises(ValueError, match="the game is over"):
        engine.play(mated, xqdesk.engine.Limit(movetime=0.1))


def test_two_async_engines_play_at_once_and_a_cancelled_search_stops():
    async def main() -> tuple[str, str, bool]:
        async with await xqdesk.engine.open_async("builtin") as first, \
                await xqdesk.engine.open_async("greedy:Seed=2") as second:
            board = xqdesk.Board()
            red, black = await asyncio.gather(first.play(board, xqdesk.engine.Limit(depth=2)),
                                              second.play(board, xqdesk.engine.Limit(movetime=0.1)))
            endless = asyncio.ensure_future(first.analyse(board, xqdesk.engine.Limit(depth=60)))
            await asyncio.sleep(0.5)
            endless.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await endless
            after = await first.analyse(board, xqdesk.engine.Limit(depth=1))  # still answering
            return red.move.iccs(), black.move.iccs(), after.depth == 1

    red, black, answering = asyncio.run(main())
    assert xqdesk.Board().is_legal(xqdesk.Move.from_iccs(red)) and xqdesk.Board().is_legal(xqdesk.Move.from_iccs(black))
    assert answering
