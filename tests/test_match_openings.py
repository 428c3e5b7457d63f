"""Opening files (FEN, EPD, PGN) and the schedules that play from them."""
import itertools
import random
from pathlib import Path

import pytest

from xqdesk.engines.contests.match import opening_schedule
from xqdesk.engines.contests.tournament import round_robin_schedule
from xqdesk.errors import RecordFormatError
from xqdesk.formats.openings import Opening, opening_sequence, parse_position_line, read_openings

OPENINGS = Path(__file__).parent / "data" / "openings"


def test_fen_file_with_comments_keeps_clocks_and_line_labels():
    openings = read_openings(OPENINGS / "six_balanced.fen")
    assert len(openings) == 6
    assert openings[0].start_fen == "r1bakabr1/9/1cn3nc1/p1p1p3p/6p2/9/P1P1P1P1P/2NCC1N2/9/R1BAKAB1R w - - 8 5"
    assert openings[0].label == "six_balanced.fen:2" and openings[0].moves == ()


def test_epd_operations_are_ignored_and_fen_lines_mix_in():
    openings = read_openings(OPENINGS / "mixed.epd")
    assert [opening.start_fen.split()[1] for opening in openings] == ["w", "b", "w"]
    assert openings[0].start_fen.endswith(" w - - 0 1")
    assert openings[1].start_fen.endswith(" b - - 1 1")
    assert openings[2].board().fen() == "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"


def test_pgn_games_give_their_moves_cut_to_plies():
    whole = read_openings(OPENINGS / "two_games.pgn")
    cut = read_openings(OPENINGS / "two_games.pgn", plies=8)
    assert len(whole) == len(cut) == 2 and len(whole[0].moves) == 65
    assert cut[0].moves == whole[0].moves[:8] and cut[0].label == "two_games.pgn, game 1"
    board = cut[0].board()
    assert board.ply() == 8 and board.move_stack == list(whole[0].moves[:8])


@pytest.mark.parametrize("text, where", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\nnot a position\n", "bad.fen:2"),
    ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n3k5/9/9/9/9/9/9/9/9/9 w - - 0 1\n", "bad.fen:2"),
])
def test_a_bad_line_names_the_file_and_line(tmp_path, text, where):
    path = tmp_path / "bad.fen"
    path.write_text(text)
    with pytest.raises(RecordFormatError, match=where):
        read_openings(path)


def test_an_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.epd"
    path.write_text("# nothing here\n\n")
    with pytest.raises(RecordFormatError, match="no opening"):
        read_openings(path)


def test_sequential_order_starts_where_asked_and_wraps():
    kings = ("9/4K4", "9/5K3", "4K4/9")  # Red's king on e0, f0 or e1; Black's on d9
    openings = [parse_position_line(f"3k5/9/9/9/9/9/9/9/{red} w", f"line {n}") for n, red in enumerate(kings)]
    taken = list(itertools.islice(opening_sequence(openings, start=2), 5))
    assert [opening.label for opening in taken] == ["line 1", "line 2", "line 0", "line 1", "line 2"]
    with pytest.raises(ValueError, match="start must be between 1 and 3"):
        next(opening_sequence(openings, start=4))


def test_random_order_plays_each_opening_once_before_any_again():
    openings = [Opening(label=str(n)) for n in range(10)]
    taken = [opening.label for opening in itertools.islice(opening_sequence(openings, "random", rng=random.Random(3)), 20)]
    assert sorted(taken[:10]) == sorted(taken[10:]) == [str(n) for n in range(10)]
    assert taken[:10] != [str(n) for n in range(10)]


def test_opening_schedule_plays_each_opening_twice_with_colours_swapped():
    openings = [Opening(label=name) for name in "abc"]
    games = list(opening_schedule(iter(openings), 5))
    assert [(g.number, g.red, g.black, g.opening.label, g.pair) for g in games] == [
        (1, 0, 1, "a", 0), (2, 1, 0, "a", 0), (3, 0, 1, "b", 1), (4, 1, 0, "b", 1), (5, 0, 1, "c", 2)]
    once = list(opening_schedule(iter(openings), 3, repeat=1))
    assert [(g.opening.label, g.pair) for g in once] == [("a", None), ("b", None), ("c", None)]
    endless = opening_schedule(itertools.cycle(openings), None)
    assert len(list(itertools.islice(endless, 100))) == 100


def test_round_robin_pairs_play_the_same_openings():
    openings = [Opening(label=name) for name in "abc"]
    schedule = round_robin_schedule(3, 4, iter(openings))
    by_pair = {}
    for game in schedule:
        by_pair.setdefault(frozenset((game.red, game.black)), []).append(game.opening.label)
    assert all(labels == ["a", "a", "b", "b"] for labels in by_pair.values())
