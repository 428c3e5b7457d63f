"""Crafted record files that made readers take quadratic time or unbounded memory, each at a chosen
size, for the reader tests (``test_reader_bounds.py``) and ``bench/crafted_readers.py``.

Each maker takes ``n`` (how many times its repeated part is repeated) and returns the file's bytes;
:data:`CRAFTED` names them with the suffix the file is read under. A reader linear in its input
reads the ``4 n`` file in about four times the time of the ``n`` one.
"""
from __future__ import annotations

from typing import Callable

_HORSE_CYCLE = ("h0g2", "h9g7", "g2h0", "g7h9")


def _dhtmlxq_digits(iccs: str) -> str:
    """A move in DhtmlXQ's digits (file, rank from the top, twice)."""
    return "".join(f"{'abcdefghi'.index(iccs[i])}{9 - int(iccs[i + 1])}" for i in (0, 2))


def dhtmlxq_unclosed_tags(n: int) -> bytes:
    """A DhtmlXQ game followed by ``n`` field tags that never close, half of one name, half each
    of its own."""
    head = "[DhtmlXQ]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n"
    tags = "".join(f"[DhtmlXQ_title]t{i} [DhtmlXQ_comment{i}]c " for i in range(n // 2))
    return (head + tags + "\n[/DhtmlXQ]\n").encode("utf-8")


def dhtmlxq_chained_variations(n: int) -> bytes:
    """A DhtmlXQ game whose ``n`` variations hang each from the one before, each one move long
    (variation ``i`` continues line ``i - 1`` at ply ``i + 1``), with a comment on each."""
    fields = [f"[DhtmlXQ_movelist]{_dhtmlxq_digits(_HORSE_CYCLE[0])}[/DhtmlXQ_movelist]"]
    for i in range(1, n + 1):
        fields.append(f"[DhtmlXQ_move_{i - 1}_{i + 1}_{i}]{_dhtmlxq_digits(_HORSE_CYCLE[i % 4])}"
                      f"[/DhtmlXQ_move_{i - 1}_{i + 1}_{i}]")
        fields.append(f"[DhtmlXQ_comment{i}_{i + 1}]v{i}[/DhtmlXQ_comment{i}_{i + 1}]")
    return ("[DhtmlXQ]\n" + "\n".join(fields) + "\n[/DhtmlXQ]\n").encode("utf-8")


def playok_format_lines(n: int) -> bytes:
    """A PlayOK WXF file of ``n`` ``FORMAT WXF`` lines, the last one a real game."""
    game = "FORMAT WXF\nRED a ; 1 ;;\nBLACK b ; 2 ;;\nRESULT 1-0\nSTART{\n 1. C2.5 h8+7\n}END\n"
    return ("FORMAT WXF\n" * n + game).encode("utf-8")


def playok_blank_header(n: int) -> bytes:
    """A PlayOK WXF game whose header line holds a key, ``n`` spaces and a value."""
    return ("FORMAT WXF\nEVENT" + " " * n + "x\nSTART{\n 1. C2.5 h8+7\n}END\n").encode("utf-8")


_UNDECIDED_SAN_CYCLE = ("Cb6", "Ch4", "Cbb3", "Chh8")
"""Four SAN moves (ranks 1..10) back to the start position, each also a legal move when its ranks
are read 0..9, and none writing rank 0 or 10: nothing in them tells the two dialects apart."""


def pgn_san_undecided(n: int) -> bytes:
    """A WinBoard-style SAN game of ``n`` moves whose rank dialect nothing in it decides."""
    moves = [_UNDECIDED_SAN_CYCLE[i % 4] for i in range(n)]
    body = " ".join(f"{i // 2 + 1}. {text}" if i % 2 == 0 else text for i, text in enumerate(moves))
    return ('[Event "x"]\n[Variant "xiangqi"]\n\n' + body + " *\n").encode("utf-8")


def cbf_deep_unclosed(n: int) -> bytes:
    """A XiangQi Bridge XML record with ``n`` nested elements that never close."""
    return (b'<?xml version="1.0" encoding="utf-8"?>\n<ChineseChessRecord Version="1.0">'
            + b"<MoveList>" * n)


def cbf_many_moves(n: int) -> bytes:
    """A well-formed XiangQi Bridge XML record of ``n`` horse moves."""
    moves = "".join(f'<Move value="{_cbf_value(_HORSE_CYCLE[i % 4])}" />' for i in range(n))
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<ChineseChessRecord Version="1.0"><Head><Red>a</Red>'
            f'</Head><MoveList><Move value="00-00" />{moves}</MoveList></ChineseChessRecord>').encode("utf-8")


def _cbf_value(iccs: str) -> str:
    digits = _dhtmlxq_digits(iccs)
    return f"{digits[:2]}-{digits[2:]}"


CRAFTED: dict[str, tuple[str, Callable[[int], bytes], int]] = {
    "dhtmlxq-unclosed-tags": (".ubb", dhtmlxq_unclosed_tags, 2_000),
    "dhtmlxq-chained-variations": (".ubb", dhtmlxq_chained_variations, 1_000),
    "playok-format-lines": (".wxf", playok_format_lines, 5_000),
    "playok-blank-header": (".wxf", playok_blank_header, 20_000),
    "pgn-san-undecided": (".pgn", pgn_san_undecided, 300),
    "cbf-deep-unclosed": (".cbf", cbf_deep_unclosed, 20_000),
    "cbf-many-moves": (".cbf", cbf_many_moves, 2_000),
}
"""Name: (suffix, maker, a size ``n`` at which the file reads in a fraction of a second)."""
