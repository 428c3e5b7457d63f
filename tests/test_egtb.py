"""Endgame tablebases: signatures, the index, known results, consistency with the core rules,
the files and the ``xqdesk egtb`` command."""
import subprocess
import sys

import numpy as np
import pytest

from xqdesk.board import Board
from xqdesk.egtb import MissingTableError, Signature, SignatureError, Tablebase, TableValue, kernels
from xqdesk.egtb.fileformat import TableFileError, read_header, table_path
from xqdesk.egtb.layout import Layout
from xqdesk.egtb.signature import all_signatures, build_order
from xqdesk.egtb.verify import check_table, entry_fen

pytestmark = pytest.mark.engines


def test_signatures_read_fen_letters_and_name_the_stronger_side_red():
    assert Signature.parse("krkaaee").name() == "KRKAABB"
    assert Signature.parse("KNPKA").name() == "KHPKA"
    assert Signature.parse("KAABBKR").canonical() == (Signature.parse("KRKAABB"), True)
    assert Signature.parse("KRKR").canonical() == (Signature.parse("KRKR"), False)
    for bad, reason in (("KRAA", "two generals"), ("KXKA", "unknown piece letter 'X'"), ("KRRRK", "more than 2 R")):
        with pytest.raises(SignatureError, match=reason):
            Signature.parse(bad)
    order = [s.name() for s in build_order([Signature.parse("KHKAA")])]
    assert order.index("KHKA") < order.index("KHKAA") and order.index("KAAK") < order.index("KHKAA")
    assert len(all_signatures(1)) == 7 and all(s.is_canonical() for s in all_signatures(3))


def test_the_index_uses_only_squares_a_piece_can_stand_on():
    assert Layout(Signature.parse("KRKAABB")).size == 45 * 90 * 10 * 21
    assert Layout(Signature.parse("KPK")).size == 45 * 55
    assert Layout(Signature.parse("KPPPK")).size == 45 * 26235  # three pawns as one set of 55 squares


def test_every_entry_decodes_and_encodes_to_itself():
    layout = Layout(Signature.parse("KHKAB"))
    squares = np.zeros(3, np.int16)
    for index in range(0, layout.size, 7):
        red_king, black_king = kernels.decode(index, layout.group_first, layout.group_size, layout.group_stride,
                                              layout.group_sets, layout.king_stride, layout.group_total, squares)
        again = kernels.encode(red_king, black_king, squares, layout.group_first, layout.group_size,
                               layout.group_stride, layout.group_position, layout.king_stride, layout.group_total)
        assert again == index


def _red_to_move_values(tablebase: Tablebase, name: str) -> np.ndarray:
    values = tablebase._table(name, "").values[0]
    return values[values != kernels.ILLEGAL].astype(np.int64)


def test_a_chariot_wins_against_a_lone_general_from_every_position(egtb_dir):
    tablebase = Tablebase(egtb_dir)
    layout = Layout(Signature.parse("KRK"))
    red = _red_to_move_values(tablebase, "KRK")
    assert red.size > 0 and np.all((red - kernels.DTM_BASE) % 2 == 1), "Red to move always mates"
    for index in range(layout.size):  # Black to move: mated, or it takes the chariot (then a draw)
        code = int(tablebase._table("KRK", "").values[1, index])
        if code in (kernels.ILLEGAL,) or (code - kernels.DTM_BASE) % 2 == 0 and code >= kernels.DTM_BASE:
            continue
        board = Board(entry_fen(layout, index, 1))
        assert code == kernels.DRAW and any(board.is_capture(m) for m in board.legal_moves), board.fen()


def test_a_horse_alone_cannot_win_against_advisors_and_elephants(egtb_dir):
    tablebase = Tablebase(egtb_dir)
    red = _red_to_move_values(tablebase, "KHKAABB")
    wins = red[(red >= kernels.DTM_BASE) & ((red - kernels.DTM_BASE) % 2 == 1)]
    # It only wins where the defenders already smother their own general: mate in one.
    assert wins.size > 0 and set((wins - kernels.DTM_BASE).tolist()) == {1}
    assert np.count_nonzero(red == kernels.DRAW) > 100 * wins.size
    board = Board("2bakab2/9/9/9/9/9/9/9/4N4/3K5 w")
    assert tablebase.probe(board).is_draw
    # … while a horse does beat a single advisor from most positions.
    assert tablebase.probe(Board("4k4/4a4/9/9/9/9/9/9/4N4/3K5 w")).is_win


@pytest.mark.parametrize("name, sample", [("KRK", None), ("KPKB", 1500), ("KRKA", 1500), ("KHKAA", 1500)])
def test_each_value_is_the_best_over_the_moves(egtb_dir, name, sample):
    checked, faults = check_table(Tablebase(egtb_dir), Signature.parse(name), sample=sample)
    assert checked >= min(sample or 0, 1500) and faults == []


def test_mirrored_and_colour_swapped_positions_have_the_same_value(egtb_dir):
    tablebase = Tablebase(egtb_dir)
    value = tablebase.probe(Board("5a3/7R1/4k4/9/9/9/9/9/3K5/9 w"))
    assert value == TableValue(5)
    assert tablebase.probe(Board("3a5/1R7/4k4/9/9/9/9/9/5K3/9 w")) == value  # mirrored
    assert tablebase.probe(Board("9/3k5/9/9/9/9/9/4K4/7r1/5A3 b")) == value  # colours swapped
    assert str(value) == "win in 5" and str(value.before_move()) == "loss in 6" and str(TableValue(None)) == "draw"


def test_best_moves_lead_to_mate_in_exactly_the_promised_plies(egtb_dir):
    tablebase = Tablebase(egtb_dir)
    board = Board("3a1k3/9/9/9/9/9/9/3K5/9/8R b")
    dtm = tablebase.probe(board).dtm
    assert dtm == 6
    for _ in range(dtm):
        board.push(tablebase.best_moves(board)[0][0])
    assert not board.legal_moves


def test_tables_are_read_only_when_needed_and_bad_files_are_refused(egtb_dir, tmp_path):
    tablebase = Tablebase(egtb_dir)
    assert "KRKA" in tablebase.signatures() and tablebase._tables == {}
    assert tablebase.covers(Board("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w"))
    assert not tablebase.covers(Board("4k4/4a4/9/9/9/9/9/9/4RR3/3K5 w"))
    header = read_header(table_path(egtb_dir, "KRKA"))
    assert header.signature == "KRKA" and header.entries == Layout(Signature.parse("KRKA")).size
    assert sum(header.counts.values()) == 2 * header.entries
    tablebase.probe(Board("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w"))
    assert set(tablebase._tables) == {"KRKA"}
    (tmp_path / "KRK.xqtb").write_bytes(b"not a table")
    with pytest.raises(TableFileError, match="bad magic"):
        Tablebase(tmp_path).probe(Board("4k4/9/9/9/9/9/9/9/3R5/3K5 w"))
    with pytest.raises(MissingTableError, match="no table KRRKA .* xqdesk egtb build KRRKA"):
        Tablebase(egtb_dir).probe(Board("4k4/4a4/9/9/9/9/9/9/4RR3/3K5 w"))


def _xqdesk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xqdesk", "egtb", *args], capture_output=True, text=True,
                          timeout=300)


def test_probe_command_prints_moves_and_the_value_last(egtb_dir):
    done = _xqdesk("probe", "--dir", str(egtb_dir), "--fen", "5a3/7R1/4k4/9/9/9/9/9/3K5/9 w")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "h8h9 win in 5" and lines[-1] == "win in 5"
    drawn = _xqdesk("probe", "--dir", str(egtb_dir), "--fen", "2bakab2/9/9/9/9/9/9/9/4N4/3K5 w")
    assert drawn.stdout.splitlines()[-1] == "draw"
    missing = _xqdesk("probe", "--dir", str(egtb_dir), "--fen", "3k5/9/9/9/9/9/9/9/4C4/4KC3 w")
    assert missing.returncode == 2 and "no table KCCK" in missing.stderr


def test_build_command_builds_what_a_table_captures_into(tmp_path):
    done = _xqdesk("build", "KCK", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["KK", "KCK"]
    assert "longest mate 0 plies" in done.stdout.splitlines()[-1]  # a cannon alone never mates
    again = _xqdesk("build", "KCK", "--out", str(tmp_path))
    assert "kept" in again.stdout
    bad = _xqdesk("build", "KZK", "--out", str(tmp_path))
    assert bad.returncode == 2 and "unknown piece letter 'Z'" in bad.stderr
    too_many = _xqdesk("build", "KPPPPK", "--out", str(tmp_path))
    assert too_many.returncode == 2 and "more than 3 like pieces" in too_many.stderr


# --- damaged and hostile table files ---------------------------------------------------------------
def _table_parts(egtb_dir):
    """The KRK table's header (as JSON) and its compressed values."""
    import json
    import struct

    data = table_path(egtb_dir, "KRK").read_bytes()
    (length,) = struct.unpack("<I", data[8:12])
    return json.loads(data[12:12 + length]), data[12 + length:]


def _write_table(path, header, payload, raw_header=None):
    import json
    import struct

    text = raw_header if raw_header is not None else json.dumps(header).encode()
    path.write_bytes(b"XQTB\x00\x01\r\n" + struct.pack("<I", len(text)) + text + payload)


def test_a_table_that_would_inflate_past_its_size_is_refused_before_it_is_inflated(egtb_dir, tmp_path):
    import tracemalloc
    import zlib

    header, _payload = _table_parts(egtb_dir)
    bomb = zlib.compress(bytes(8_000_000), 9)  # no bigger than the table's own values, a thousand times theirs inflated
    assert len(bomb) < 2 * header["entries"]
    _write_table(tmp_path / "KRK.xqtb", header, bomb)
    tracemalloc.start()
    with pytest.raises(TableFileError, match="inflate to more than"):
        Tablebase(tmp_path).probe(Board("4k4/9/9/9/9/9/9/9/3R5/3K5 w"))
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 3_000_000  # a read chunk and the table's own size, never the 8 MB
    _write_table(tmp_path / "KRK.xqtb", header, bomb + bytes(2 * header["entries"] + 10_000))
    with pytest.raises(TableFileError, match="compressed values for"):  # too big to be this table at all
        Tablebase(tmp_path).probe(Board("4k4/9/9/9/9/9/9/9/3R5/3K5 w"))
    header["entries"] = 10 ** 12
    _write_table(tmp_path / "KRK.xqtb", header, bomb)
    with pytest.raises(TableFileError, match="entries, expected"):  # the header is checked first
        Tablebase(tmp_path).probe(Board("4k4/9/9/9/9/9/9/9/3R5/3K5 w"))


@pytest.mark.parametrize("raw", [b'{"signature": "KRK", "entries": Infinity}', b'{"entries": NaN}', b"[1, 2]",
                                 b'{"signature": "KRK", "entries": 1e400, "value_bytes": 1}', b"\xff\xfe",
                                 b"[" * 100_000])
def test_a_table_header_with_infinity_nan_or_junk_is_refused_with_a_message(egtb_dir, tmp_path, raw):
    header, payload = _table_parts(egtb_dir)
    _write_table(tmp_path / "KRK.xqtb", header, payload, raw_header=raw)
    with pytest.raises(TableFileError, match="KRK.xqtb: (bad header|a header of)"):
        read_header(tmp_path / "KRK.xqtb")
    for key, value in (("seconds", float("inf")), ("entries", 2.5), ("max_dtm", -1), ("entries", True)):
        changed = dict(header, **{key: value})
        _write_table(tmp_path / "KRK.xqtb", changed, payload)
        with pytest.raises(TableFileError, match="bad header"):
            read_header(tmp_path / "KRK.xqtb")


def test_a_folder_or_fifo_named_like_a_table_is_refused_without_opening_it(tmp_path):
    import os
    import signal

    (tmp_path / "KRK.xqtb").mkdir()
    os.mkfifo(tmp_path / "KCK.xqtb")
    tablebase = Tablebase(tmp_path)
    assert tablebase.signatures() == []
    assert not tablebase.covers(Board("4k4/9/9/9/9/9/9/9/3R5/3K5 w"))
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("reading a FIFO named like a table hung"))
    signal.alarm(30)
    try:
        with pytest.raises(TableFileError, match="not a table file but a folder"):
            tablebase.probe(Board("4k4/9/9/9/9/9/9/9/3R5/3K5 w"))
        with pytest.raises(TableFileError, match="not a table file but a FIFO"):
            tablebase.probe(Board("4k4/9/9/9/9/9/9/9/3C5/3K5 w"))
        with pytest.raises(TableFileError, match="not a table file but a FIFO"):
            read_header(tmp_path / "KCK.xqtb")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
