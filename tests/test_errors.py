"""One error root: input errors are ValueErrors, an engine's failure is not, and both are XqdeskError."""
import pytest

from xqdesk.egtb.fileformat import TableFileError
from xqdesk.egtb.probe import MissingTableError
from xqdesk.egtb.signature import SignatureError
from xqdesk.engines.errors import (
    EngineCrashedError,
    EngineOptionError,
    EnginePositionError,
    EngineProtocolError,
    EngineStartError,
    EngineTimeoutError,
)
from xqdesk.engines.fog.agent import NotAnObservationError
from xqdesk.engines.hosted.course_player import PlayerMoveError
from xqdesk.engines.zero.network import NetworkFileError
from xqdesk.errors import IllegalMoveError, InputError, InvalidFenError, RecordFormatError, XqdeskError
from xqdesk.position_index import PositionIndexError

pytestmark = pytest.mark.engines


@pytest.mark.parametrize("error", [InvalidFenError, IllegalMoveError, RecordFormatError, PositionIndexError,
                                   SignatureError, TableFileError, NetworkFileError, EngineOptionError,
                                   EnginePositionError])
def test_input_errors_are_value_errors_under_the_root(error: type) -> None:
    assert issubclass(error, InputError) and issubclass(error, ValueError) and issubclass(error, XqdeskError)


@pytest.mark.parametrize("error", [EngineStartError, EngineProtocolError, EngineCrashedError, EngineTimeoutError,
                                   PlayerMoveError])
def test_an_engine_failure_is_no_input_error(error: type) -> None:
    assert issubclass(error, XqdeskError) and not issubclass(error, ValueError)


def test_the_other_errors_stand_under_the_root_too() -> None:
    assert issubclass(MissingTableError, XqdeskError) and issubclass(MissingTableError, LookupError)
    assert issubclass(NotAnObservationError, XqdeskError) and issubclass(NotAnObservationError, TypeError)
