"""Arrows and circles drawn on the board, kept in a move's comment as ``[%cal]``/``[%csl]``."""
from __future__ import annotations

from pathlib import Path

from xqdesk.drawings import (
    Drawings,
    DrawnArrow,
    DrawnCircle,
    format_drawings,
    parse_drawings,
    strip_drawings,
    with_drawings,
)
from xqdesk.formats.pgn import format_pgn, parse_pgn, read_pgn, write_pgn
from xqdesk.game import Game
from xqdesk.move import Move
from xqdesk.review import strip_commands, with_text
from xqdesk.squares import parse_square

H2, E2, B0, C2, E4, A9 = (parse_square(name) for name in ("h2", "e2", "b0", "c2", "e4", "a9"))


def test_cal_and_csl_commands_parse_with_colours_and_iccs_squares() -> None:
    drawings = parse_drawings("[%cal Gh2e2,Rb0c2] nice [%csl Ge4,Ya9]")
    assert drawings.arrows == (DrawnArrow(H2, E2, "G"), DrawnArrow(B0, C2, "R"))
    assert drawings.circles == (DrawnCircle(E4, "G"), DrawnCircle(A9, "Y"))
    assert format_drawings(drawings) == "[%csl Ge4,Ya9] [%cal Gh2e2,Rb0c2]"
    assert parse_drawings(format_drawings(drawings)) == drawings


def test_bad_items_are_skipped_and_the_rest_kept() -> None:
    drawings = parse_drawings("[%cal Xh2e2,Gz9e2,Gh2e2] [%csl Gj4,Be4]")
    assert drawings == Drawings((DrawnArrow(H2, E2, "G"),), (DrawnCircle(E4, "B"),))
    assert not parse_drawings("no drawings here [%eval 0.35,12]")


def test_drawing_the_same_arrow_or_circle_again_removes_it_and_another_colour_recolours() -> None:
    arrow = DrawnArrow(H2, E2, "G")
    drawn = Drawings().toggled_arrow(arrow)
    assert drawn.arrows == (arrow,)
    assert drawn.toggled_arrow(DrawnArrow(H2, E2, "R")).arrows == (DrawnArrow(H2, E2, "R"),)
    assert not drawn.toggled_arrow(arrow)
    circled = Drawings().toggled_circle(DrawnCircle(E4))
    assert circled.circles == (DrawnCircle(E4),)
    assert not circled.toggled_circle(DrawnCircle(E4))


def test_with_drawings_replaces_the_commands_and_keeps_words_and_review_commands() -> None:
    comment = "[%eval 0.35,12] [%cal Rb0c2] a good plan"
    drawn = with_drawings(comment, Drawings((DrawnArrow(H2, E2),), (DrawnCircle(E4),)))
    assert drawn == "[%csl Ge4] [%cal Gh2e2] [%eval 0.35,12] a good plan"
    assert strip_drawings(drawn) == "[%eval 0.35,12] a good plan"
    assert with_drawings(drawn, Drawings()) == "[%eval 0.35,12] a good plan"
    # what a person reads and edits is the words; drawings stay when the words change
    assert strip_commands(drawn) == "a good plan"
    edited = with_text(drawn, "a better plan")
    assert parse_drawings(edited) == parse_drawings(drawn) and strip_commands(edited) == "a better plan"


def test_drawings_round_trip_through_a_pgn_file(tmp_path: Path) -> None:
    game = Game.from_moves([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
    drawings = Drawings((DrawnArrow(H2, E2, "G"), DrawnArrow(B0, C2, "R")), (DrawnCircle(E4, "Y"),))
    game.mainline()[0].comment = with_drawings("central cannon", drawings)
    game.comment = with_drawings("", Drawings(circles=(DrawnCircle(A9, "B"),)))
    path = tmp_path / "drawn.pgn"
    write_pgn(path, [game])
    assert "[%cal Gh2e2,Rb0c2]" in path.read_text(encoding="utf-8")
    again = read_pgn(path).games[0]
    assert parse_drawings(again.mainline()[0].comment) == drawings
    assert strip_commands(again.mainline()[0].comment) == "central cannon"
    assert parse_drawings(again.comment).circles == (DrawnCircle(A9, "B"),)
    assert format_pgn(parse_pgn(format_pgn(again)).games[0]) == format_pgn(again)


def test_writing_a_review_keeps_the_drawings_of_a_move() -> None:
    from xqdesk.review import _with_commands
    drawn = with_drawings("plan", Drawings((DrawnArrow(H2, E2),)))
    reviewed = _with_commands(drawn, "[%eval 0.20,10]")
    assert parse_drawings(reviewed).arrows == (DrawnArrow(H2, E2),)
    assert strip_commands(reviewed) == "plan" and "[%eval 0.20,10]" in reviewed
