"""Time controls and one side's clock, with time passed in (no waiting)."""
import re

import pytest

from xqdesk.time_control import SideClock, TimeControl


def test_the_text_forms_parse_and_print_back() -> None:
    assert TimeControl.parse("none") == TimeControl.unlimited()
    assert TimeControl.parse("10") == TimeControl.parse("10s") == TimeControl.per_move(10)
    assert TimeControl.parse("15m+5s") == TimeControl.parse("900+5") == TimeControl.game(900, 5)
    assert TimeControl.parse("1h") == TimeControl.game(3600)
    assert TimeControl.parse("20m|30s") == TimeControl.byo_yomi(1200, 30)
    assert TimeControl.parse("1m30s") == TimeControl.per_move(90)
    for text in ("none", "10s", "15m+5s", "20m|30s", "1m"):
        assert TimeControl.parse(text).text() == text


@pytest.mark.parametrize("text", ["ten", "15m+", "|30s", "0", "-5", "15x"])
def test_a_bad_time_control_says_what_to_write(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"time control {text!r}") + r".*'15m\+5s'"):
        TimeControl.parse(text)


def test_per_move_gives_each_move_the_same_time() -> None:
    clock = SideClock(TimeControl.per_move(10))
    clock.start(100.0)
    assert clock.time_left(104.0) == 6.0 and not clock.has_flagged(110.0) and clock.has_flagged(110.01)
    assert clock.stop(109.0) == 9.0
    assert clock.allowance() == 10.0 and clock.time_left(500.0) == 10.0  # stopped: a fresh move


def test_game_time_is_charged_and_the_increment_added() -> None:
    clock = SideClock(TimeControl.game(60, 5))
    clock.start(0.0)
    clock.stop(20.0)
    assert clock.main_left == 45.0 and clock.allowance() == 45.0
    clock.start(0.0)
    assert clock.has_flagged(45.5)


def test_byo_yomi_starts_afresh_every_move_once_the_main_time_is_spent() -> None:
    clock = SideClock(TimeControl.byo_yomi(30, 10))
    clock.start(0.0)
    assert clock.allowance() == 40.0
    clock.stop(35.0)  # 5 s into the period
    assert clock.main_left == 0.0 and clock.allowance() == 10.0
    clock.start(0.0)
    clock.stop(9.5)
    assert clock.allowance() == 10.0
    clock.start(0.0)
    assert clock.has_flagged(10.5)


def test_a_move_time_caps_a_game_clock() -> None:
    clock = SideClock(TimeControl(move_time=10, main_time=600))
    assert clock.allowance() == 10.0
    clock.main_left = 4.0
    assert clock.allowance() == 4.0


def test_no_clock_never_flags() -> None:
    clock = SideClock(TimeControl.unlimited())
    clock.start(0.0)
    assert clock.allowance() is None and clock.time_left(1e9) is None and not clock.has_flagged(1e9)
