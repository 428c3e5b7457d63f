"""Damaged record files made from the real ones in ``tests/data`` (every format xqdesk reads), for the reader fuzz tests and the
``bench/fuzz_readers.py`` run.

:func:`make_cases` writes, from one seed, a reproducible mix of cases into a folder: byte flips,
truncations, inserted garbage and deleted ranges, re-encodings, malformed tags, huge numbers and
tokens, deep nesting, crafted XQF headers and trees, damaged course histories and match folders,
and paths that are no files at all. Each :class:`Case` knows which of the original games no
damage touched (``intact``): a reader must return every one of them unchanged.
:func:`check_case` reads a case and returns what is wrong with the answer (an empty list when
nothing is).
"""
from __future__ import annotations

import os
import random
import re
import shutil
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import xqf_craft
from datafiles import COURSE_VECTORS, GAMES

from xqdesk.formats import read_games
from xqdesk.formats.course_match import CourseGameResult, CourseMatch, write_course_match
from xqdesk.formats.game_file import WHOLE_FILE, GameFile
from xqdesk.formats.pgn import GAME_START
from xqdesk.game import Game
from xqdesk.outcome import Outcome
from xqdesk.pieces import BLACK, RED

GameKey = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]
"""A game as the checks compare it: its headers and its main line in ICCS."""


def game_key(game: Game) -> GameKey:
    return tuple(sorted(game.headers.items())), tuple(move.iccs() for move in game.mainline_moves())


@dataclass
class Case:
    """One damaged input: its path, what was done, and the games that must come back unchanged.
    ``kept_prefix`` (course histories): at least this many first moves of ``prefix_of`` must be kept."""

    name: str
    path: Path
    intact: list[GameKey] = field(default_factory=list)
    prefix_of: tuple[str, ...] = ()
    kept_prefix: int = 0


@dataclass
class _TextSource:
    """A real multi-game text file: its bytes, each game's byte span and each game's key."""

    name: str
    data: bytes
    encoding: str
    spans: list[tuple[int, int]]
    keys: list[GameKey]


def _text_sources() -> list[_TextSource]:
    sources = []
    gb = b"\n\n".join(path.read_bytes() for path in sorted((GAMES / "chinese_gb18030").iterdir())[:6])
    hu = (GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn").read_bytes()
    starts = [match.start() for match in re.finditer(rb"^\[Event ", hu, re.MULTILINE)]
    for name, data, encoding in (
        ("iccs15", (GAMES / "notation_15" / "iccs.pgn").read_bytes(), "utf-8"),
        ("chinese15", (GAMES / "notation_15" / "chinese.pgn").read_bytes(), "utf-8"),
        ("wxf15", (GAMES / "notation_15" / "wxf_fullwidth.pgn").read_bytes(), "utf-8"),
        ("gb18030", gb, "gb18030"),
        ("hu30", hu[:starts[30]], "utf-8"),
    ):
        spans = _game_spans(data)
        sources.append(_TextSource(name, data, encoding, spans, []))
    return sources


def _game_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte spans of the games: each from its first tag line to the next game's first tag line."""
    starts: list[int] = []
    previous_end = -1
    for found in GAME_START.finditer(data):
        line_start = found.start()
        if previous_end < 0 or data[previous_end:line_start].strip():
            starts.append(line_start)
        newline = data.find(b"\n", found.start())
        previous_end = len(data) if newline < 0 else newline + 1
    return [(start, starts[index + 1] if index + 1 < len(starts) else len(data)) for index, start in enumerate(starts)]


_SOURCES: list[_TextSource] = []


def text_sources(folder: Path) -> list[_TextSource]:
    """The real text files with their games' keys (read once, intact)."""
    if not _SOURCES:
        for source in _text_sources():
            path = folder / f"original-{source.name}.pgn"
            path.write_bytes(source.data)
            read = read_games(path)
            if read.errors or len(read.games) != len(source.spans):
                raise AssertionError(f"{source.name}: the original does not read cleanly: {read.errors[:3]}")
            source.keys = [game_key(game) for game in read.games]
            path.unlink()
            _SOURCES.append(source)
    return _SOURCES


def _games_touched(source: _TextSource, begin: int, end: int) -> set[int]:
    """Indexes of the games a change of bytes ``begin``..``end`` may affect: those it overlaps
    (a byte either side included) and their neighbours (a game with no result runs on to the next
    game's tags, so damage at a boundary may reach across it)."""
    touched = {index for index, (start, stop) in enumerate(source.spans) if start <= end + 1 and begin - 1 < stop}
    return {near for index in touched for near in (index - 1, index, index + 1)}


def _intact_after(source: _TextSource, touched: set[int]) -> list[GameKey]:
    return [key for index, key in enumerate(source.keys) if index not in touched]


_GARBAGE_TOKENS = (b"{", b"}", b"(", b")", b"[Event", b'[Event "', b"1.", b"*", b"1-0", b"$", b"\xff", b"\xfe\xff",
                   b"\xe4\xb8", b"\x00", b"\r", b"\xc2\xb2", b"9" * 5000, b"$" + b"7" * 5000, b"1" * 5000 + b".",
                   b"{" * 50, b"(" * 200, b")" * 200, "炮二平五".encode("utf-8"), "車".encode("big5"),
                   b'[FEN "' + b"9" * 5000 + b'"]\n', b"\n", b"\\", b'"')


def _text_mutations(rng: random.Random, source: _TextSource) -> Iterator[tuple[str, bytes, list[GameKey]]]:
    """(description, damaged bytes, intact games) for one random damage of ``source``."""
    data = source.data
    size = len(data)
    kind = rng.choice(("flip", "flip", "truncate", "insert", "insert", "delete", "tag", "reencode", "shuffle",
                       "deep", "huge"))
    if kind == "flip":
        damaged = bytearray(data)
        positions = [rng.randrange(size) for _ in range(rng.randint(1, 4))]
        for position in positions:
            damaged[position] ^= rng.randint(1, 255)
        touched: set[int] = set()
        for position in positions:
            touched |= _games_touched(source, position, position)
        yield f"flip{positions}", bytes(damaged), _intact_after(source, touched)
    elif kind == "truncate":
        cut = rng.randrange(size)
        last = next((index for index, (start, stop) in enumerate(source.spans) if start <= cut < stop), 0)
        yield f"truncate@{cut}", data[:cut], source.keys[:max(0, last - 1)]
    elif kind == "insert":
        position = rng.randrange(size + 1)
        garbage = (rng.choice(_GARBAGE_TOKENS) if rng.random() < 0.7
                   else bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))))
        yield (f"insert{garbage[:12]!r}@{position}", data[:position] + garbage + data[position:],
               _intact_after(source, _games_touched(source, position, position)))
    elif kind == "delete":
        begin = rng.randrange(size)
        end = min(size, begin + rng.randint(1, 200))
        yield f"delete{begin}..{end}", data[:begin] + data[end:], _intact_after(source, _games_touched(source, begin, end))
    elif kind == "tag":
        index = rng.randrange(len(source.spans))
        start, stop = source.spans[index]
        block = data[start:stop]
        replacement = rng.choice((b'[Event "' + b"x" * 200_000 + b'"]', b'[Event "unclosed]', b'[\xff\xfe "x"]',
                                  b'[FEN "rnbakabnr/' + "²".encode() + b'/9 w"]', b'[Result "' + b"9" * 5000 + b'"]',
                                  b'[Format "' + b"z" * 1000 + b'"]', b'[Ruleset "fog"]', b'[Event "a\\"b\\\\"]'))
        line_end = block.find(b"\n")
        damaged_block = replacement + block[line_end:] if line_end >= 0 else replacement
        yield (f"tag{replacement[:20]!r}@game{index + 1}", data[:start] + damaged_block + data[stop:],
               _intact_after(source, {index - 1, index, index + 1}))
    elif kind == "reencode":
        text = data.decode(source.encoding)
        target = rng.choice(("gb18030", "utf-16", "utf-8-sig", "big5", "utf-8"))
        try:
            encoded = text.encode(target)
        except UnicodeEncodeError:
            encoded = text.encode("gb18030")
        yield f"reencode-{target}", encoded, list(source.keys)
    elif kind == "shuffle":
        order = list(range(len(source.spans)))
        rng.shuffle(order)
        pieces = [data[source.spans[index][0]:source.spans[index][1]].rstrip(b"\r\n") + b"\n\n" for index in order]
        yield "shuffle", data[:source.spans[0][0]] + b"".join(pieces), list(source.keys)
    elif kind == "deep":
        depth = rng.choice((200, 500, 1000))
        deep = deep_pgn(depth).encode("utf-8")
        yield f"deep{depth}", data.rstrip(b"\r\n") + b"\n\n" + deep, list(source.keys)
    else:  # a long run of one token, well inside the size cap
        position = rng.choice([start for start, _stop in source.spans])
        run = rng.choice((b"1. } \n", b"{", b"(", b"zz ", b"$1 ", b"\xff")) * rng.choice((20_000, 60_000))
        yield (f"huge{run[:6]!r}x{len(run)}@{position}", data[:position] + run + b"\n" + data[position:],
               _intact_after(source, _games_touched(source, position, position)))


def deep_pgn(depth: int) -> str:
    """A legal game whose variations nest ``depth`` deep."""
    from xqdesk import Board, Move

    board = Board()
    cycle = ["h0g2", "h9g7", "g2h0", "g7h9"]
    tokens = []
    for level in range(depth):
        main_move = Move.from_iccs(cycle[level % 4])
        other = next(move for move in sorted(board.legal_moves, key=Move.iccs) if move != main_move)
        tokens += [other.iccs(), "(", main_move.iccs()]
        board.push(main_move)
    return '[Event "deep"]\n\n' + " ".join(tokens) + " )" * depth + " *\n"


# --- XQF -----------------------------------------------------------------------------------------------
def _xqf_sources() -> list[tuple[str, bytes]]:
    files = [(path.name, path.read_bytes()) for path in sorted((GAMES / "xqf").iterdir())]
    files.append(("craft-line.xqf", xqf_craft.main_line(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"])))
    return files


def _xqf_mutation(rng: random.Random, name: str, data: bytes, folder: Path) -> tuple[str, bytes, list[GameKey]]:
    kind = rng.choice(("flip-header", "flip-tree", "flip-text", "truncate", "version", "offset", "placement",
                       "keys", "deep", "garbage-tree"))
    damaged = bytearray(data)
    intact: list[GameKey] = []
    if kind == "flip-header":
        for _ in range(rng.randint(1, 6)):
            damaged[rng.randrange(min(len(data), 1024))] = rng.randrange(256)
    elif kind == "flip-tree" and len(data) > 1024:
        for _ in range(rng.randint(1, 6)):
            damaged[rng.randrange(1024, len(data))] ^= rng.randint(1, 255)
    elif kind == "flip-text":  # the title and names only: the moves must come through unchanged
        for _ in range(rng.randint(1, 6)):
            damaged[rng.randrange(81, 500)] = rng.randrange(256)
        original = folder / f"xqf-original-{name}"
        original.write_bytes(data)
        read = read_games(original)
        original.unlink()
        intact = [((), key[1]) for key in map(game_key, read.games)]  # headers may change, moves not
    elif kind == "truncate":
        damaged = damaged[:rng.randrange(len(data) + 1)]
    elif kind == "version":
        damaged[2] = rng.randrange(256)
    elif kind == "offset":
        damaged[56:60] = rng.choice((len(data) + rng.randrange(1, 10_000), rng.randrange(1, 1024), 2**32 - 1,
                                     rng.randrange(2**32))).to_bytes(4, "little")
    elif kind == "placement":
        for index in range(16, 48):
            if rng.random() < 0.3:
                damaged[index] = rng.choice((damaged[16], 255, 90, rng.randrange(256)))
    elif kind == "keys":
        damaged[3:16] = bytes(rng.randrange(256) for _ in range(13))
    elif kind == "deep":
        damaged = bytearray(xqf_craft.deep_variations(rng.choice((300, 1000))))
    else:
        damaged = damaged[:1024] + bytearray(rng.randrange(256) for _ in range(rng.randint(4, 4000)))
    return f"{name}-{kind}", bytes(damaged), intact


# --- course histories and match folders ------------------------------------------------------------------
def _match() -> CourseMatch:
    import json

    with COURSE_VECTORS.open() as lines:
        vectors = [json.loads(line) for _, line in zip(range(21), lines)]
    histories = [tuple(tuple(entry) for entry in vector["history"]) for vector in vectors[::3]][:7]
    draw = Outcome.capture_free_draw()
    plan = [(1, 1, 3, draw), (2, 1, 3, Outcome.no_legal_moves(BLACK)), (3, 1, 3, Outcome.timeout(RED)),
            (4, 3, 1, Outcome.no_legal_moves(RED)), (5, 3, 1, Outcome.illegal_move(BLACK)), (6, 3, 1, draw),
            (7, 1, 3, draw)]
    return CourseMatch(1, 3, tuple(CourseGameResult(number, red, black, outcome.winner, outcome.text, history)
                                   for (number, red, black, outcome), history in zip(plan, histories)))


def _damage_bytes(rng: random.Random, data: bytes) -> tuple[str, bytes, int]:
    """Some damage to ``data``: (what, damaged bytes, first damaged position)."""
    kind = rng.choice(("flip", "truncate", "insert", "delete"))
    position = rng.randrange(max(1, len(data)))
    if kind == "flip":
        damaged = bytearray(data)
        damaged[position] ^= rng.randint(1, 255)
        return f"flip@{position}", bytes(damaged), position
    if kind == "truncate":
        return f"truncate@{position}", data[:position], position
    if kind == "insert":
        garbage = rng.choice((b"\xef\xbb\xbf", b"\xff", b"\xc2\xb2", b"9" * 5000, b"np.int64(", b"(", b"]", b"\x00"))
        return f"insert{garbage[:8]!r}@{position}", data[:position] + garbage + data[position:], position
    end = min(len(data), position + rng.randint(1, 30))
    return f"delete{position}..{end}", data[:position] + data[end:], position


def _history_case(rng: random.Random, folder: Path, index: int) -> Case:
    match = _match()
    game = rng.choice(match.games)
    from xqdesk.formats.course_history import format_course_history, game_from_course_history

    text = format_course_history(game.history).encode("ascii")
    what, damaged, position = _damage_bytes(rng, text)
    path = folder / f"{index:05d}-history-{what[:40]}.txt".replace("/", "_")
    path.write_bytes(damaged)
    moves = tuple(move.iccs() for move in game_from_course_history(game.history)[0].mainline_moves())
    whole_entries = text[:position].count(b")") - 1  # entries closed before the damage, less one for safety
    return Case(path.name, path, prefix_of=moves, kept_prefix=max(0, whole_entries))


def _match_case(rng: random.Random, folder: Path, index: int) -> Case:
    parent = folder / f"{index:05d}-match"
    parent.mkdir()
    match = _match()
    written = write_course_match(parent, match)
    originals = {number: _read_round(written, number) for number in range(1, 8)}
    kind = rng.choice(("game-file", "game-file", "summary", "bom", "finally", "missing", "extra", "not-a-file",
                       "huge-number"))
    touched: set[int] = set()
    summary = written / "summary.txt"
    if kind == "game-file":
        number = rng.randint(1, 7)
        target = written / f"Game {number}.txt"
        _what, damaged, _position = _damage_bytes(rng, target.read_bytes())
        target.write_bytes(damaged)
        touched.add(number)
    elif kind == "summary":
        _what, damaged, _position = _damage_bytes(rng, summary.read_bytes())
        summary.write_bytes(damaged)
        touched = set(range(1, 8))  # a damaged line changes that game's headers
    elif kind == "bom":
        summary.write_bytes(b"\xef\xbb\xbf" + summary.read_bytes())
    elif kind == "finally":
        summary.write_bytes(summary.read_bytes().replace(b"Finally Player 3 wins and Player 1 loses!",
                                                         rng.choice((b"Finally Player 1 wins and Player 3 loses!",
                                                                     b"Finally Player 9 wins and Player 3 loses!", b""))))
    elif kind == "missing":
        number = rng.randint(1, 7)
        (written / f"Game {number}.txt").unlink()
        touched.add(number)
    elif kind == "extra":
        (written / "Game 9.txt").write_bytes(b"[(9, 7, 7, 6, 0)]")
    elif kind == "not-a-file":
        number = rng.randint(1, 7)
        target = written / f"Game {number}.txt"
        target.unlink()
        choice = rng.choice(("dir", "fifo", "loop", "zero"))
        if choice == "dir":
            target.mkdir()
        elif choice == "fifo":
            os.mkfifo(target)
        elif choice == "loop":
            target.symlink_to(target)
        else:
            target.symlink_to("/dev/zero")
        touched.add(number)
    else:
        summary.write_bytes(summary.read_bytes().replace(b"Game 2: Player 1", b"Game 2: Player " + b"1" * 5000))
        touched.add(2)
    intact = [originals[number] for number in range(1, 8) if number not in touched]
    return Case(f"{written.parent.name}-{kind}", written, intact=intact)


def _read_round(folder: Path, number: int) -> GameKey:
    record = read_games(folder)
    game = next(game for game in record.games if game.headers.get("Round") == str(number))
    return game_key(game)


_OTHER_FORMATS = ("ccbridge", "dpxq", "playok", "pgn_san")


def _other_format_case(rng: random.Random, folder: Path, index: int) -> Case:
    """A sample of one of the other formats (XiangQi Bridge CBR/CBL/CBF, DhtmlXQ, dpxq text and
    web pages, PlayOK WXF, SAN PGN), damaged in one to four places."""
    samples = sorted(path for kind in _OTHER_FORMATS for path in (GAMES / kind).iterdir())
    sample = rng.choice(samples)
    data = sample.read_bytes()
    what = []
    for _ in range(rng.randint(1, 4)):
        done, data, _position = _damage_bytes(rng, data)
        what.append(done)
    path = folder / f"{index:05d}-{_safe(sample.stem)}-{_safe('-'.join(what))}{sample.suffix}"
    path.write_bytes(data)
    return Case(path.name, path)


def _special_case(rng: random.Random, folder: Path, index: int) -> Case:
    kind = rng.choice(("fifo", "zero", "loop", "dir", "empty", "empty-xqf", "xq-only", "missing", "bom-only",
                       "nul-name"))
    suffix = rng.choice((".pgn", ".xqf", ".txt", ".fen"))
    path = folder / f"{index:05d}-{kind}{suffix}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "loop":
        path.symlink_to(path)
    elif kind == "dir":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "empty-xqf":
        path = path.with_suffix(".xqf")
        path.write_bytes(b"")
    elif kind == "xq-only":
        path.write_bytes(b"XQ")
    elif kind == "bom-only":
        path.write_bytes(b"\xef\xbb\xbf")
    return Case(path.name, path)


def make_cases(seed: int, count: int, folder: Path) -> Iterator[Case]:
    """``count`` damaged inputs written into ``folder``, the same for the same seed."""
    rng = random.Random(seed)
    sources = text_sources(folder)
    xqf_sources = _xqf_sources()
    for index in range(count):
        roll = rng.random()
        if roll < 0.45:
            source = rng.choice(sources)
            what, damaged, intact = next(_text_mutations(rng, source))
            suffix = ".pgn" if rng.random() < 0.85 else ".txt"
            path = folder / f"{index:05d}-{source.name}-{_safe(what)}{suffix}"
            path.write_bytes(damaged)
            yield Case(path.name, path, intact=intact)
        elif roll < 0.60:
            name, data = rng.choice(xqf_sources)
            what, damaged, intact = _xqf_mutation(rng, name, data, folder)
            path = folder / f"{index:05d}-{_safe(what)}.xqf"
            path.write_bytes(damaged)
            yield Case(path.name, path, intact=intact)
        elif roll < 0.70:
            yield _history_case(rng, folder, index)
        elif roll < 0.82:
            yield _match_case(rng, folder, index)
        elif roll < 0.94:
            yield _other_format_case(rng, folder, index)
        else:
            yield _special_case(rng, folder, index)


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9@._=-]+", "_", text)[:60]


# --- checking ------------------------------------------------------------------------------------------
@dataclass
class Outcome_:
    """What one case gave: the problems found, the CPU seconds its read took (this thread's, so a
    busy machine does not change them) and its peak extra memory."""

    problems: list[str]
    seconds: float
    peak_bytes: int
    size: int
    intact_checked: int = 0


def input_size(path: Path) -> int:
    """Bytes of the input: a file's size, a folder's files' sizes (0 for what is no regular file)."""
    if path.is_dir() and not path.is_symlink():
        return sum(item.stat().st_size for item in path.iterdir() if item.is_file() and not item.is_symlink())
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def check_case(case: Case, measure_memory: bool = False) -> Outcome_:
    """Read ``case`` and list what is wrong: an exception, an "internal error", an error that does
    not name the file, game and place, a message too long, an intact game missing, too little of a
    history kept, memory beyond ten times the input (plus the games returned)."""
    problems: list[str] = []
    if measure_memory:
        tracemalloc.start()
    started = time.thread_time()
    try:
        record: GameFile | None = read_games(case.path)
    except BaseException as error:  # noqa: BLE001 - the point is that nothing escapes
        record = None
        problems.append(f"raised {type(error).__name__}: {str(error)[:200]}")
    seconds = time.thread_time() - started
    peak = 0
    if measure_memory:
        current, peak_total = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        peak = peak_total - current  # what reading needed beyond the games it returned
    size = input_size(case.path)
    if measure_memory and peak > 10 * size + 2_000_000:
        problems.append(f"reading took {peak:,} bytes beyond its result for a {size:,}-byte input")
    if record is None:
        return Outcome_(problems, seconds, peak, size)
    problems.extend(_error_problems(case, record))
    kept = [game_key(game) for game in record.games]
    kept_moves = [key[1] for key in kept]
    for key in case.intact:
        if key[0] == ():
            if key[1] not in kept_moves:
                problems.append(f"lost the intact moves {' '.join(key[1][:6])}…")
        elif key not in kept:
            problems.append(f"lost the intact game {dict(key[0]).get('Event', '')!r} "
                            f"{dict(key[0]).get('Red', '')}-{dict(key[0]).get('Black', '')}")
        else:
            kept.remove(key)
    if case.prefix_of:
        moves = kept_moves[0] if kept_moves else ()
        if tuple(moves) != case.prefix_of[:len(moves)] or len(moves) < case.kept_prefix:
            problems.append(f"kept {len(moves)} moves of the history, needed its first {case.kept_prefix}")
    return Outcome_(problems, seconds, peak, size, len(case.intact) + (case.kept_prefix > 0))


def _error_problems(case: Case, record: GameFile) -> list[str]:
    problems = []
    for error in record.errors:
        text = str(error)
        if "internal error" in text:
            problems.append(f"internal error: {text[:300]}")
        if not error.source or not text.startswith(error.source):
            problems.append(f"error does not start with its file: {text[:200]}")
        if not error.where:
            problems.append(f"error names no place: {text[:200]}")
        if error.game_number != WHOLE_FILE and not 1 <= error.game_number <= len(record.games) + 1:
            problems.append(f"error names game {error.game_number} of {len(record.games)}: {text[:200]}")
        if error.game_number != WHOLE_FILE and f"game {error.game_number}" not in text:
            problems.append(f"error does not say its game: {text[:200]}")
        if len(text) > 1500:
            problems.append(f"error message of {len(text):,} characters: {text[:100]}…")
    return problems


def run_commands(case: Case, out: Path, main: Callable[[list[str]], int]) -> list[str]:
    """``replay --check`` and ``convert`` on the case: each must exit 0 or 1 (never a crash)."""
    problems = []
    for argv in (["replay", "--check", str(case.path)], ["convert", str(case.path), str(out)]):
        try:
            code = main(argv)
        except BaseException as error:  # noqa: BLE001
            problems.append(f"{argv[0]} raised {type(error).__name__}: {str(error)[:200]}")
            continue
        if code not in (0, 1):
            problems.append(f"{argv[0]} exited with {code}")
    return problems


def clear(folder: Path) -> None:
    """Remove what :func:`make_cases` wrote (FIFOs, loops and folders too)."""
    for item in folder.iterdir():
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item)
        else:
            item.unlink()
