"""Every reader is linear in its input and loses no intact game of a damaged file.

- Crafted inputs that used to take quadratic time (``crafted_records``) are read at sizes ``n`` and
  ``4 n``: the time must grow about fourfold, never sixteenfold. Times are the reading thread's CPU
  time, compared with each other, never with a fixed number of seconds, and the slack is generous (a
  factor of 10 where linear is 4 and quadratic 16), so a busy machine does not fail the test.
- Hypothesis damages real files of every format (PGN in each notation and encoding, SAN PGN, XQF,
  DhtmlXQ, dpxq text and pages, PlayOK WXF, XiangQi Bridge CBR, CBL and CBF, FEN and moves, the
  course's history text; flipped, inserted, deleted and repeated bytes, cuts) and checks that
  nothing escapes, every game the damage did not touch comes back unchanged, every error names its
  file, game and place, no read runs past a generous hang guard, and the damaged file written four
  times over reads in under ten times the time (reads under 20 ms counted as 20 ms).
- A file of more errors than :data:`~xqdesk.formats.game_file.MAX_ERRORS` lists that many and
  counts the rest.
"""
from __future__ import annotations

import gc
import json
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from crafted_records import CRAFTED
from datafiles import COURSE_VECTORS, GAMES
from fuzz_records import Case, GameKey, check_case, game_key, text_sources
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xqdesk.formats import read_games, write_games
from xqdesk.formats.ccbridge import RECORD_MAGIC
from xqdesk.formats.course_history import format_course_history
from xqdesk.formats.game_file import MAX_ERRORS

LINEAR_SLACK = 10.0
"""Largest time ratio allowed between the ``4 n`` and the ``n`` input (linear: 4, quadratic: 16)."""
TIME_FLOOR = 0.02
"""CPU seconds below which a read's time is taken as this (shorter times are mostly noise)."""
HANG_GUARD = 60.0
"""CPU seconds after which one read counts as hung (speed is measured by ratios and the bench)."""
TEST_SIZES = {"dhtmlxq-unclosed-tags": 4_000, "dhtmlxq-chained-variations": 400, "playok-format-lines": 3_000,
              "playok-blank-header": 400_000, "pgn-san-undecided": 160, "cbf-deep-unclosed": 20_000,
              "cbf-many-moves": 600}
"""The ``n`` each crafted input is read at here: large enough that the quadratic readers took
seconds at ``4 n``, small enough that the linear ones take a fraction of a second."""


def _best_time(path: Path, repeats: int) -> float:
    """The least CPU time of ``repeats`` reads of ``path``, the garbage collector held off during
    each (a full collection of a large test session's heap can take half a second)."""
    best = float("inf")
    for _ in range(repeats):
        gc.disable()
        try:
            started = time.thread_time()
            record = read_games(path)
            best = min(best, time.thread_time() - started)
        finally:
            gc.enable()
        assert not any("internal error" in str(error) for error in record.errors), record.errors[:3]
    return best


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_crafted_input_is_read_in_time_linear_in_its_size(name: str, tmp_path: Path) -> None:
    suffix, make, _bench_size = CRAFTED[name]
    n = TEST_SIZES[name]
    small, large = tmp_path / f"small{suffix}", tmp_path / f"large{suffix}"
    small.write_bytes(make(n))
    large.write_bytes(make(4 * n))
    small_record, large_record = read_games(small), read_games(large)
    assert len(large_record.games) == len(small_record.games)  # the same kind of answer at both sizes
    ratio = _best_time(large, 2) / max(_best_time(small, 3), TIME_FLOOR)
    assert ratio < LINEAR_SLACK, f"{name}: reading 4x the input took {ratio:.1f}x the time"


def test_crafted_inputs_are_read_as_what_they_hold(tmp_path: Path) -> None:
    expected_games = {"dhtmlxq-unclosed-tags": 1, "dhtmlxq-chained-variations": 1, "playok-format-lines": 1,
                      "playok-blank-header": 1, "pgn-san-undecided": 1, "cbf-deep-unclosed": 0,
                      "cbf-many-moves": 1}
    for name, (suffix, make, _size) in CRAFTED.items():
        path = tmp_path / f"{name}{suffix}"
        path.write_bytes(make(40))
        record = read_games(path)
        assert len(record.games) == expected_games[name], (name, record.errors[:3])
        if name == "dhtmlxq-chained-variations":  # every variation hangs from the one before
            node, depth = record.games[0], 0
            while node.variations:
                node, depth = node.variations[-1], depth + 1
            assert depth == 41 and node.comment == "v40"
        if name == "pgn-san-undecided":
            assert len(record.games[0].mainline_moves()) == 40 and not record.errors
        if name == "cbf-deep-unclosed":
            assert "nested more than 32 deep" in str(record.errors[0]) and "line 2" in str(record.errors[0])


# --- damaged real files ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """A real file: its name, bytes, each game's byte span and each game's key (empty spans: the
    file is one game, or its games cannot be told apart by bytes)."""

    name: str
    suffix: str
    data: bytes
    spans: tuple[tuple[int, int], ...]
    keys: tuple[GameKey, ...]


def _library_source() -> Source:
    path = GAMES / "ccbridge" / "1956_national_championship_first5.cbl"
    data = path.read_bytes()
    starts = []
    found = data.find(RECORD_MAGIC)
    while found >= 0:
        starts.append(found)
        found = data.find(RECORD_MAGIC, found + 1)
    spans = tuple((start, starts[i + 1] if i + 1 < len(starts) else len(data)) for i, start in enumerate(starts))
    keys = tuple(game_key(game) for game in read_games(path).games)
    assert len(keys) == len(spans) == 5
    return Source(path.name, ".cbl", data, spans, keys)


def _fen_source(folder: Path) -> Source:
    """Eight real games written as FEN-and-moves lines, one game a line."""
    path = write_games(folder / "hu8.fen", read_games(GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn").games[:8])
    data = path.read_bytes()
    starts = [0] + [index + 1 for index, byte in enumerate(data) if byte == 0x0A][:-1]
    spans = tuple((start, starts[i + 1] if i + 1 < len(starts) else len(data)) for i, start in enumerate(starts))
    keys = tuple(game_key(game) for game in read_games(path).games)
    path.unlink()
    assert len(keys) == len(spans) == 8
    return Source("hu8.fen", ".fen", data, spans, keys)


def _history_source() -> Source:
    """A real game of the course's vectors as the course's history text (one game)."""
    with COURSE_VECTORS.open() as lines:
        history = tuple(tuple(entry) for entry in json.loads(lines.readline())["history"])
    return Source("history.txt", ".txt", format_course_history(history).encode("ascii"), (), ())


def _sources(folder: Path) -> list[Source]:
    sources = [Source(text.name, ".pgn", text.data, tuple(text.spans), tuple(text.keys))
               for text in text_sources(folder)]
    sources += [_library_source(), _fen_source(folder), _history_source()]
    for kind in ("xqf", "ccbridge", "dpxq", "playok", "pgn_san"):
        for path in sorted((GAMES / kind).iterdir()):
            if path.suffix.lower() != ".cbl":
                sources.append(Source(path.name, path.suffix, path.read_bytes(), (), ()))
    return sources


_SOURCES: list[Source] = []


def sources(folder: Path) -> list[Source]:
    if not _SOURCES:
        _SOURCES.extend(_sources(folder))
    return _SOURCES


_PAYLOADS = (b"\x00", b"\xff", b"{", b"}", b"(", b")", b"[", b"]", b"<", b">", b'"', b"\n", b"9" * 300,
             b"[DhtmlXQ_move_0_1_1]", b"<Move>", b"FORMAT WXF\n", b'[Event "x"]\n', RECORD_MAGIC, b"CCBR",
             "炮二平五".encode(), b"\r\n")


@st.composite
def damages(draw: st.DrawFn) -> tuple[str, float, bytes, int]:
    """One damage: its kind, where (a fraction of the file), what is inserted, how many bytes."""
    kind = draw(st.sampled_from(("flip", "insert", "delete", "repeat", "cut")))
    where = draw(st.floats(min_value=0.0, max_value=1.0, allow_nan=False))
    payload = draw(st.sampled_from(_PAYLOADS) | st.binary(min_size=1, max_size=24))
    size = draw(st.integers(min_value=1, max_value=400))
    return kind, where, payload, size


def damage(data: bytes, what: tuple[str, float, bytes, int]) -> tuple[bytes, int, int]:
    """``data`` damaged, and the span of the original bytes the damage touched."""
    kind, where, payload, size = what
    if not data:
        return payload, 0, 0
    at = min(int(where * len(data)), len(data) - 1)
    if kind == "flip":
        damaged = bytearray(data)
        damaged[at] ^= payload[0] or 0x80
        return bytes(damaged), at, at
    if kind == "insert":
        return data[:at] + payload + data[at:], at, at
    if kind == "delete":
        return data[:at] + data[at + size:], at, at + size
    if kind == "repeat":  # a stretch of the file written twice
        return data[:at + size] + data[at:at + size] + data[at + size:], at, at + size
    return data[:at], at, len(data)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(many_games=st.booleans(), choice=st.integers(min_value=0, max_value=10_000),
       done=st.lists(damages(), min_size=1, max_size=3))
def test_a_damaged_real_file_keeps_its_intact_games_and_raises_nothing(
        tmp_path: Path, many_games: bool, choice: int, done: list[tuple[str, float, bytes, int]]) -> None:
    pool = [source for source in sources(tmp_path) if source.spans or not many_games]  # half the time a library
    source = pool[choice % len(pool)]
    data = source.data
    touched: set[int] = set()
    for what in done:
        before = len(data)
        data, begin, end = damage(data, what)
        if len(data) != before:  # later spans moved: count every game from the first change on
            end = len(source.data)
        touched |= {index for index, (start, stop) in enumerate(source.spans) if start <= end + 1 and begin - 1 < stop}
    if source.suffix == ".pgn":  # a game with no result runs on to the next one's tags
        touched |= {near for index in set(touched) for near in (index - 1, index + 1)}
    intact = [key for index, key in enumerate(source.keys) if index not in touched]
    path = tmp_path / f"damaged-{source.name}"
    path.write_bytes(data)
    outcome = check_case(Case(path.name, path, intact=intact))
    assert not outcome.problems, f"{source.name} after {done}: {outcome.problems[:5]}"
    assert outcome.seconds < HANG_GUARD
    fourfold = tmp_path / f"fourfold-{source.name}"  # the damaged file four times over: about 4x the time
    fourfold.write_bytes(data * 4)
    ratio = _best_time(fourfold, 2) / max(_best_time(path, 2), TIME_FLOOR)
    assert ratio < LINEAR_SLACK, f"{source.name} after {done}: 4x the damaged file took {ratio:.1f}x the time"


def test_a_library_whose_header_or_layout_is_damaged_keeps_every_game(tmp_path: Path) -> None:
    library = _library_source()
    cases = {
        "slot-count-bit": bytearray(library.data),
        "inserted-byte": bytearray(library.data[:library.spans[0][0]] + b"\x00" + library.data[library.spans[0][0]:]),
        "mark-bit": bytearray(library.data),
        "library-mark-byte": bytearray(library.data),
    }
    cases["slot-count-bit"][61] ^= 0x10
    cases["library-mark-byte"][0] ^= 0xFF
    cases["mark-bit"][library.spans[2][0] + 3] ^= 0x20
    for name, data in cases.items():
        path = tmp_path / f"{name}.cbl"
        path.write_bytes(bytes(data))
        record = read_games(path)
        assert [game_key(game) for game in record.games] == list(library.keys), name
        assert record.errors, f"{name}: the damage is reported"
    assert "game 3" in str(read_games(tmp_path / "mark-bit.cbl").errors[0])
    lost = bytearray(library.data)
    lost[library.spans[1][0]:library.spans[1][0] + 15] = b"x" * 15
    (tmp_path / "lost.cbl").write_bytes(bytes(lost))
    record = read_games(tmp_path / "lost.cbl")
    assert [game_key(game) for game in record.games] == [library.keys[0], *library.keys[2:]]
    assert any("damaged past reading" in str(error) for error in record.errors)


def test_a_file_of_many_errors_lists_the_first_thousand_and_counts_the_rest(tmp_path: Path) -> None:
    """A damaged 16 MiB file once made 1.5 million errors (970 MB); the memory errors take is bounded."""
    playok = tmp_path / "format-lines.wxf"
    playok.write_bytes(b"FORMAT WXF\n" * (MAX_ERRORS + 500))
    bad_games = tmp_path / "bad-games.pgn"
    bad_games.write_bytes(b'[Event "x"]\n1. zz *\n\n' * (MAX_ERRORS + 300))
    for path, more in ((playok, 500), (bad_games, 300)):
        record = read_games(path)
        assert len(record.errors) == MAX_ERRORS + 1
        assert str(record.errors[-1]) == (f"{path.name}, whole file: {more:,} more errors, not listed "
                                          f"(the first {MAX_ERRORS:,} are)")
        assert not check_case(Case(path.name, path)).problems  # each error names a game read, or none
    errors = read_games(bad_games).errors
    errors.sort(key=lambda error: -error.game_number)
    assert "300 more errors" in str(errors[-1]) and errors[0].game_number == MAX_ERRORS  # the count stays last
    assert len(read_games(bad_games).games) == MAX_ERRORS + 300  # every game is still read
