"""Engine processes: the UCI wrapper against real engines (Fairy-Stockfish, xqdesk's own host),
killing, memory caps, and the perpetual-check restriction sent as ``go searchmoves``."""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from datafiles import COURSE_VECTORS
from hang_guard import HANG_GUARD

from xqdesk.board import Board
from xqdesk.engines.errors import EngineOptionError, EngineStartError, EngineTimeoutError
from xqdesk.engines.host import UciHost
from xqdesk.engines.hosted.baselines import GreedyEngine
from xqdesk.engines.play.engine_player import EnginePlayer
from xqdesk.engines.registry import load_engines_file
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import EngineSpec, parse_spec
from xqdesk.engines.transport.process import SHIELDED, LineProcess, live_process_groups
from xqdesk.engines.transport.uci import UciDialect
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move

pytestmark = pytest.mark.engines

FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not Path(FAIRY).is_file(),
                                 reason="Fairy-Stockfish is not installed (CI installs the Debian package)")
VECTORS = COURSE_VECTORS


@needs_fairy
def test_fairy_stockfish_handshake_options_and_dialect():
    engine = UciEngine([FAIRY], options={"Hash": "8"})
    try:
        identity = engine.start()
        assert identity.dialect is UciDialect.FAIRY and identity.name.startswith("Fairy-Stockfish")
        assert identity.options["MultiPV"].type == "spin"
        with pytest.raises(ValueError, match="'Threads' takes 1..512"):
            engine.set_option("Threads", "0")
        with pytest.raises(EngineOptionError, match="no option 'Colour'"):
            engine.set_option("Colour", "red")
        engine.set_option("MultiPV", "2")
        engine.new_game()
        infos = []
        board = Board()
        result = engine.search(board.start_fen, [Move.from_iccs("h2e2")], SearchLimits(movetime=0.2),
                               time.monotonic() + 3, infos.append)
        board.push(Move.from_iccs("h2e2"))
        assert board.is_legal(result.move)
        assert {info.multipv for info in infos if info.pv} == {1, 2}
        assert all(board.is_legal(info.pv[0]) for info in infos if info.pv)
    finally:
        engine.quit()


@needs_fairy
def test_infinite_search_stops_on_request():
    engine = UciEngine([FAIRY])
    try:
        engine.start()
        engine.position(STARTING_FEN, [])
        engine.go(SearchLimits(infinite=True))
        time.sleep(0.2)
        engine.stop()
        result = engine.wait_bestmove(time.monotonic() + 2)
        assert Board().is_legal(result.move)
    finally:
        engine.quit()


@needs_fairy
def test_banned_moves_are_kept_out_of_the_engines_search():
    """In every course position where the perpetual-check rule bans moves, Fairy-Stockfish (which
    does not know the rule) is told to search only the legal moves, so it plays one of them."""
    player = EnginePlayer(EngineSpec("fsf", (FAIRY,), {"Hash": "8"}), SearchLimits(depth=4))
    player.start()
    try:
        checked = 0
        for line in VECTORS.read_text().splitlines():
            vector = json.loads(line)
            if not vector["banned"]:
                continue
            board = Board.from_course(vector["board"], vector["side"], vector["history"])
            reply = player.request_move(board, 5.0)
            assert reply.move is not None and board.is_legal(reply.move), (vector["banned"], reply)
            checked += 1
            if checked == 8:
                break
        assert checked == 8
    finally:
        player.close()


def test_search_past_its_deadline_is_killed():
    engine = UciEngine(parse_spec(f"player:{Path(__file__).parent / 'players' / 'sleeps'}").command,
                       env=parse_spec("random").env)
    engine.start()
    engine.new_game()
    engine.position(STARTING_FEN, [])
    engine.wait_ready(5)
    started = time.monotonic()
    engine.go(SearchLimits())
    with pytest.raises(EngineTimeoutError, match="killed"):
        engine.wait_bestmove(time.monotonic() + 0.3)
    assert time.monotonic() - started < HANG_GUARD  # killed at the deadline, not left to search on
    assert not engine.is_alive() and not live_process_groups()


def group_members_running(group: int) -> list[str]:
    """Processes of process group ``group`` that are still running (zombies do not count)."""
    running = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[-1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                running.append(entry)
    return running


def test_whole_process_group_is_killed():
    process = LineProcess(["sh", "-c", "sleep 60 & sleep 60 & echo started; wait"])
    assert process.read_line(60) == "started"
    assert len(group_members_running(process.pid)) == 3 + SHIELDED  # sh and two sleeps (and the shield)
    process.kill()
    assert not process.is_alive()
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while group_members_running(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert group_members_running(process.pid) == []


def test_memory_cap_applies_to_the_engine_process():
    script = "import sys\ntry:\n    b = bytearray(400 * 1024 * 1024)\n    print('allocated')\nexcept MemoryError:\n    print('capped')\n"
    capped = LineProcess([sys.executable, "-c", script], memory_limit_mb=200)
    assert capped.read_line(60) == "capped"
    capped.kill()
    free = LineProcess([sys.executable, "-c", script], memory_limit_mb=None)
    assert free.read_line(60) == "allocated"
    free.kill()


def test_without_process_groups_and_memory_caps_an_engine_still_starts_talks_and_ends(monkeypatch):
    """Where the platform has no sessions, process groups, memory caps or shield (Windows refuses
    ``preexec_fn``), each part falls back: the engine runs as a plain child and is killed alone."""
    from xqdesk.engines.transport import process as transport

    for flag in ("SHIELDED", "PROCESS_GROUPS", "MEMORY_CAP"):
        monkeypatch.setattr(transport, flag, False)
    script = "import sys\nfor line in sys.stdin:\n    print('echo ' + line.strip(), flush=True)\n"
    engine = LineProcess([sys.executable, "-c", script], memory_limit_mb=200)
    try:
        assert engine.send("uci")
        assert engine.read_line(60) == "echo uci"
        assert os.getpgid(engine.pid) == os.getpgrp()  # no session of its own: none was asked for
        if sys.platform.startswith("linux"):  # no cap set: the child's address space limit is this process's
            def address_space(pid: str) -> str:
                return next(line for line in Path(f"/proc/{pid}/limits").read_text().splitlines()
                            if line.startswith("Max address space"))
            assert address_space(str(engine.pid)) == address_space("self")
    finally:
        engine.kill()
    assert not engine.is_alive() and engine.wait(HANG_GUARD) is not None
    assert engine.pid not in live_process_groups()


def test_not_a_uci_engine_fails_with_a_clear_message():
    with pytest.raises(EngineStartError, match="exited with code 0"):
        UciEngine(["true"]).start()
    with pytest.raises(EngineStartError, match="gave no 'uciok' in time"):
        UciEngine(["cat"], handshake_timeout=0.3).start()
    fake_chess = [sys.executable, "-c", "print('option name UCI_Variant type combo default chess var chess "
                  "var crazyhouse'); print('uciok'); import time; time.sleep(5)"]
    with pytest.raises(EngineStartError, match="cannot play Xiangqi"):
        UciEngine(fake_chess).start()


def test_host_answers_in_the_pikafish_dialect():
    lines = []
    host = UciHost(GreedyEngine(), lines.append)
    for command in ("uci", "setoption name Seed value 5", "isready", "ucinewgame",
                    "position startpos moves h2e2 h9g7", "go depth 1"):
        host.handle(command)
    host.handle("isready")  # waits for nothing; the search thread answers on its own
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while not any(line.startswith("bestmove") for line in lines) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lines[:5] == ["id name greedy", "id author xqdesk",
                         "option name Seed type spin default 0 min 0 max 2147483647", "uciok", "readyok"]
    best = next(line for line in lines if line.startswith("bestmove"))
    board = Board()
    board.push_iccs("h2e2")
    board.push_iccs("h9g7")
    assert board.is_legal(Move.from_iccs(best.split()[1]))
    host.handle("position startpos moves h2h8")
    host.handle("go")
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while lines[-1] != "bestmove 0000" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "info string error: bad position command: illegal move 'h2h8'" in " ".join(lines)


def test_engines_file_errors_name_the_entry(tmp_path):
    path = tmp_path / "engines.json"
    path.write_text('[{"name": "a", "command": "fsf --flag"}, {"name": "b"}]')
    with pytest.raises(EngineStartError, match="entry 2: 'kind' must be one of .* \\(or give a 'command'\\)"):
        load_engines_file(path)
    path.write_text('[{"name": "a", "command": "fsf --flag", "protocol": "xboard"}]')
    with pytest.raises(EngineStartError, match="protocol 'xboard' is not supported"):
        load_engines_file(path)
    path.write_text('[{"name": "a", "command": "fsf --flag", "options": {"Hash": 16}}]')
    assert load_engines_file(path)["a"].command == ("fsf", "--flag")
    assert load_engines_file(path)["a"].options == {"Hash": "16"}


CHESS_ENGINE = EngineSpec("chessy", (sys.executable, str(Path(__file__).parent / "players" / "uci_scripts"
                                                         / "chess_engine.py")), verify=True)


def test_a_chess_engine_is_refused_before_any_game():
    player = EnginePlayer(CHESS_ENGINE)
    with pytest.raises(EngineStartError, match="answered 'e2e4' in the Xiangqi start position: not a Xiangqi engine"):
        player.start()
    assert not live_process_groups()


@pytest.mark.parametrize("door", ["open", "seat", "fog seat", "reviewer", "analyse"])
def test_every_caller_starts_an_engine_through_the_same_checks(door, tmp_path, capsys):
    """The seat, the fog seat, the reviewer and ``xqdesk analyse`` all start engines through
    :meth:`EngineSpec.open`: the chess engine is refused the same way by each."""
    from xqdesk.cli import main
    from xqdesk.engines.analysis.reviewer import GameReviewer
    from xqdesk.engines.fog.referee import FogEnginePlayer

    starts = {"open": CHESS_ENGINE.open, "seat": EnginePlayer(CHESS_ENGINE).start,
              "fog seat": FogEnginePlayer(CHESS_ENGINE).start,
              "reviewer": GameReviewer(CHESS_ENGINE, SearchLimits(depth=1)).start}
    if door == "analyse":
        engines = tmp_path / "engines.json"
        engines.write_text(json.dumps([{"name": "chessy", "command": list(CHESS_ENGINE.command)}]))
        assert main(["analyse", "--engine", "chessy", "--engines", str(engines), "--depth", "1"]) == 2
        assert "answered 'e2e4' in the Xiangqi start position" in capsys.readouterr().err
    else:
        with pytest.raises(EngineStartError, match="answered 'e2e4' in the Xiangqi start position"):
            starts[door]()
    assert not live_process_groups()


@needs_fairy
def test_fairy_stockfish_passes_the_xiangqi_check():
    player = EnginePlayer(parse_spec(f"uci:{FAIRY}:Hash=8"))
    player.start()
    try:
        assert player.engine is not None and player.engine.is_alive()
    finally:
        player.close()


def test_engine_ends_when_its_referee_dies_without_cleaning_up():
    """A referee killed outright (no atexit, no finalizers) closes the engine's stdin; the host then
    leaves at once, even in the middle of a player's endless policy call."""
    loops = Path(__file__).parent / "players" / "loops"
    script = (
        "import os, sys, threading, time\n"
        "from xqdesk.board import Board\n"
        "from xqdesk.engines.play.engine_player import EnginePlayer\n"
        "from xqdesk.engines.spec import parse_spec\n"
        f"player = EnginePlayer(parse_spec({f'player:{loops}'!r}))\n"
        "player.start()\n"
        "player.new_game(True)\n"
        "threading.Thread(target=player.request_move, args=(Board(), None), daemon=True).start()\n"
        "time.sleep(0.5)\n"
        "print(player.engine.pid, flush=True)\n"
        "os._exit(9)\n")
    referee = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_GUARD,
                             env=parse_spec("random").env)
    assert referee.returncode == 9, referee.stderr
    host = int(referee.stdout.strip())
    deadline = time.monotonic() + 30.0  # a guard: waits only while it must
    while time.monotonic() < deadline and process_running(host):
        time.sleep(0.05)
    assert not process_running(host)


def process_running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


ECHO_SCRIPT = ("import sys\n"
               "for line in sys.stdin:\n"
               "    print('echo', line.strip(), flush=True)\n"
               "    print('note', line.strip(), file=sys.stderr, flush=True)\n")


def test_the_process_log_holds_every_line_sent_and_read_with_its_time():
    from xqdesk.engines.transport.process import Direction

    seen = []
    started = time.time()
    process = LineProcess([sys.executable, "-c", ECHO_SCRIPT], on_line=seen.append)
    try:
        for text in ("uci", "isready", "go depth 1"):
            assert process.send(text)
        replies = [process.read_line(60) for _ in range(3)]
        assert replies == ["echo uci", "echo isready", "echo go depth 1"]
        deadline = time.monotonic() + 30.0  # a guard: waits only while it must
        while sum(line.direction is Direction.STDERR for line in process.log()) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        log = process.log()
    finally:
        process.kill()
    by_direction = {direction: [line.text for line in log if line.direction is direction] for direction in Direction}
    assert by_direction == {Direction.SENT: ["uci", "isready", "go depth 1"],
                            Direction.RECEIVED: ["echo uci", "echo isready", "echo go depth 1"],
                            Direction.STDERR: ["note uci", "note isready", "note go depth 1"]}
    assert seen[:len(log)] == log  # the observer sees the lines in the log's order
    assert all(started <= line.time <= time.time() for line in log)
    sent_go = next(line for line in log if line.text == "go depth 1")
    read_go = next(line for line in log if line.text == "echo go depth 1")
    assert sent_go.time <= read_go.time and log.index(sent_go) < log.index(read_go)
    assert str(sent_go).endswith(" > go depth 1") and str(read_go).endswith(" < echo go depth 1")


def test_a_uci_engine_log_holds_exactly_the_lines_it_exchanged():
    script = Path(__file__).parent / "players" / "uci_scripts" / "chess_engine.py"
    engine = UciEngine([sys.executable, str(script)])
    try:
        engine.start()
        result = engine.search(STARTING_FEN, [Move.from_iccs("h2e2")], SearchLimits(depth=1), time.monotonic() + 10)
        assert result.best.text == "e2e4"
        log = [(line.direction.value, line.text) for line in engine.log()]
    finally:
        engine.quit()
    assert log == [(">", "uci"), ("<", "id name Chessy"), ("<", "option name Hash type spin default 16 min 1 max 1024"),
                   ("<", "uciok"), (">", "isready"), ("<", "readyok"),
                   (">", f"position fen {STARTING_FEN} moves h2e2"), (">", "go depth 1"), ("<", "bestmove e2e4")]


def test_course_limits_keep_the_search_to_moves_the_course_allows():
    from xqdesk.engines.play.engine_player import course_limits

    with COURSE_VECTORS.open(encoding="utf-8") as lines:
        vector = next(v for v in map(json.loads, lines) if v["banned"])
    board = Board.from_course(vector["board"], vector["side"], [tuple(h) for h in vector["history"]])
    limits = course_limits(board, SearchLimits(movetime=1.0))
    assert limits.searchmoves is not None and set(limits.searchmoves) == set(board.legal_moves)
    assert not set(limits.searchmoves) & set(board.banned_moves())
    assert limits.movetime == 1.0
    plain = SearchLimits(depth=3)
    assert course_limits(Board(), plain) is plain
