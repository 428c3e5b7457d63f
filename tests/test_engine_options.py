"""Engine options: declared once as UciOption values, checked by one function, with errors that
name the option, the value and what it takes (no Qt, no processes except the host's own code)."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from xqdesk.board import Board
from xqdesk.engines.errors import EngineOptionError
from xqdesk.engines.host import UciHost
from xqdesk.engines.hosted.baselines import SEED_OPTION, GreedyEngine, RandomEngine
from xqdesk.engines.hosted.course_player import CoursePlayerEngine
from xqdesk.engines.hosted.in_process import apply_option
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.transport.uci import UciOption, find_option, format_option, parse_option

pytestmark = pytest.mark.engines

PLAYERS = Path(__file__).parent / "players"

SPIN = UciOption("Hash", "spin", default="16", min=1, max=1024)
CHECK = UciOption("Ponder", "check", default="false")
COMBO = UciOption("Analysis Contempt", "combo", default="Both", choices=("Both", "Off", "White"))
BUTTON = UciOption("Clear Hash", "button")
STRING = UciOption("SyzygyPath", "string", default="")


def test_each_type_takes_its_values_typed():
    assert SPIN.parse_value("16") == 16 and SPIN.parse_value(" 1024 ") == 1024 and SPIN.parse_value(1) == 1
    assert CHECK.parse_value("TRUE") is True and CHECK.parse_value("false") is False and CHECK.parse_value(True) is True
    assert COMBO.parse_value("off") == "Off"
    assert BUTTON.parse_value(None) is None and BUTTON.parse_value("") is None
    assert STRING.parse_value("/tmp/tb") == "/tmp/tb" and STRING.parse_value("") == ""


def test_the_wire_text_is_the_checked_value():
    assert SPIN.validate(" 16") == "16" and CHECK.validate("True") == "true" and COMBO.validate("WHITE") == "White"
    assert BUTTON.validate(None) == ""


@pytest.mark.parametrize(("option", "value", "message"), [
    (SPIN, "0", "option 'Hash' takes 1..1024, got '0'"),
    (SPIN, "1025", "option 'Hash' takes 1..1024, got '1025'"),
    (SPIN, "abc", "option 'Hash' takes 1..1024, got 'abc'"),
    (SPIN, "", "option 'Hash' takes 1..1024, got ''"),
    (SPIN, True, "option 'Hash' takes 1..1024, got True"),
    (UciOption("Skill", "spin", min=0), "-1", "option 'Skill' takes an integer from 0, got '-1'"),
    (CHECK, "yes", "option 'Ponder' takes true or false, got 'yes'"),
    (COMBO, "Purple", "option 'Analysis Contempt' takes one of ['Both', 'Off', 'White'], got 'Purple'"),
    (BUTTON, "now", "option 'Clear Hash' takes no value (it is a button), got 'now'"),
    (STRING, "a\nquit", "option 'SyzygyPath' takes one line of text, got 'a\\nquit'"),
])
def test_a_bad_value_names_the_option_the_value_and_what_it_takes(option, value, message):
    with pytest.raises(EngineOptionError) as raised:
        option.parse_value(value)
    assert str(raised.value) == message
    assert isinstance(raised.value, ValueError)


def test_declarations_write_and_read_back_as_option_lines():
    for option in (SPIN, CHECK, COMBO, BUTTON, STRING, SEED_OPTION):
        assert parse_option(format_option(option)) == option
    assert format_option(STRING) == "option name SyzygyPath type string default <empty>"
    assert format_option(COMBO) == "option name Analysis Contempt type combo default Both var Both var Off var White"


def test_options_are_found_by_name_whatever_the_case():
    assert find_option((SPIN, BUTTON), " clear hash ", "engine") is BUTTON
    with pytest.raises(EngineOptionError, match=r"^engine 'x' has no option 'Threads' \(it has: Hash, Clear Hash\)$"):
        find_option((SPIN, BUTTON), "Threads", "engine 'x'")


def test_baselines_take_their_seed_through_the_one_check():
    first, second = RandomEngine(), RandomEngine()
    apply_option(first, "seed", "7")
    apply_option(second, "Seed", 7)
    moves = [engine.search(Board(), SearchLimits(), threading.Event(), lambda info: None) for engine in (first, second)]
    assert moves[0] == moves[1]
    with pytest.raises(EngineOptionError, match=r"option 'Seed' takes 0\.\.2147483647, got '-3'"):
        apply_option(GreedyEngine(), "Seed", "-3")
    with pytest.raises(EngineOptionError, match="greedy has no option 'Hash'"):
        apply_option(GreedyEngine(), "Hash", "16")


def test_a_course_player_has_no_options():
    player = CoursePlayerEngine(PLAYERS / "ordinary")
    assert player.uci_options() == ()
    with pytest.raises(EngineOptionError, match="has no option 'Hash' \\(it has: none\\)"):
        apply_option(player, "Hash", "16")


def test_the_host_declares_the_options_and_reports_a_bad_value_on_the_protocol():
    lines: list[str] = []
    host = UciHost(RandomEngine(), lines.append)
    for command in ("uci", "setoption name Seed value many", "setoption name Colour value red",
                    "setoption name Seed value 3"):
        host.handle(command)
    assert "option name Seed type spin default 0 min 0 max 2147483647" in lines
    assert "info string error: option 'Seed' takes 0..2147483647, got 'many'" in lines
    assert "info string error: random has no option 'Colour' (it has: Seed)" in lines
    assert sum(line.startswith("info string error") for line in lines) == 2


def test_fog_agents_declare_uci_options_and_check_them_the_same_way():
    from xqdesk.engines.fog import make_agent
    from xqdesk.engines.fog.hosted import HostedFogAgent

    greedy = make_agent("fog-greedy", {"Conservative": "TRUE", "Seed": "5"})
    assert greedy.options["Conservative"] == 1 and greedy.options["Seed"] == 5
    assert all(isinstance(option, UciOption) for option in greedy.uci_options())
    with pytest.raises(EngineOptionError, match=r"^option 'Conservative' takes true or false, got 'maybe'$"):
        make_agent("fog-greedy", {"Conservative": "maybe"})
    with pytest.raises(EngineOptionError, match=r"^option 'Particles' takes 1\.\.4096, got '0'$"):
        make_agent("fog-pbsa", {"Particles": "0"})
    hosted = HostedFogAgent("fog-random")
    apply_option(hosted, "seed", "9")
    assert hosted.agent.options["Seed"] == 9
    with pytest.raises(EngineOptionError, match="fog-random has no option 'Hash'"):
        apply_option(hosted, "Hash", "16")
