"""The real Pikafish (UCI, Pikafish dialect), when ``XQDESK_PIKAFISH`` names its executable: it
ends on a FEN whose rule60 counter passes 119 or whose position is impossible, so xqdesk sends the
counter clamped and refuses impossible positions itself; without its network file it dies on
``go``, and the error says the network file is missing. (No network file is needed for these.)"""
from __future__ import annotations

import os
import time

import pytest

from xqdesk.engines.errors import EngineCrashedError, EnginePositionError
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.transport.uci import UciDialect
from xqdesk.engines.transport.uci_engine import UciEngine
from xqdesk.fen import STARTING_FEN
from xqdesk.move import Move

PIKAFISH = os.environ.get("XQDESK_PIKAFISH", "")
pytestmark = pytest.mark.skipif(not (PIKAFISH and os.access(PIKAFISH, os.X_OK)),
                                reason="no Pikafish: set XQDESK_PIKAFISH to a Pikafish executable")


@pytest.fixture
def pikafish():
    engine = UciEngine([PIKAFISH], protocol="auto")
    engine.start()
    yield engine
    engine.kill()


def test_pikafish_is_detected_as_uci_in_its_own_dialect(pikafish):
    assert pikafish.identity.protocol_name == "UCI" and pikafish.identity.dialect is UciDialect.PIKAFISH


def test_a_rule60_counter_past_119_is_clamped_and_the_engine_lives(pikafish):
    pikafish.position("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 150 90", [Move.from_iccs("f0f1"), Move.from_iccs("e9e8")])
    pikafish.wait_ready(5.0)
    assert pikafish.is_alive()
    assert any(line.text.startswith("position fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 117 90 moves f0f1 e9e8")
               for line in pikafish.log())


def test_an_impossible_position_is_refused_before_it_is_sent(pikafish):
    with pytest.raises(EnginePositionError, match="impossible"):
        pikafish.position("4k4/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", [])  # Red to move, Black's king in check
    pikafish.wait_ready(5.0)
    assert pikafish.is_alive()


def test_without_its_network_file_the_error_says_so(pikafish):
    if os.path.exists(os.path.join(os.path.dirname(PIKAFISH), "pikafish.nnue")):
        pytest.skip("this Pikafish has its network file")
    with pytest.raises(EngineCrashedError, match="network file is missing.*pikafish.nnue"):
        pikafish.search(STARTING_FEN, [], SearchLimits(depth=1), time.monotonic() + 10)
