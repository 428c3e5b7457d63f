"""The UCCI protocol (xqbase's "中国象棋通用引擎协议", UCCI 3.0) as pure functions over lines of text.

UCCI is what ElephantEye and most Chinese engines speak. Where it differs from UCI:

* ``ucci`` … ``ucciok``; options are declared without ``name`` (``option hashsize type spin min 16
  max 1024 default 16``) and set without ``name``/``value`` (``setoption hashsize 64``, a button is
  ``setoption newgame``); ``setoption usemillisec true`` makes times milliseconds (else seconds).
* ``position fen F moves …`` gives the position after the last capture and the moves since (the
  engine keeps no longer history); ``banmoves m …`` after it forbids moves (the course's
  perpetual-check ban reaches the engine this way — UCCI has no ``searchmoves``).
* ``go time T [movestogo N | increment I] [opptime T2 [oppmovestogo N2 | oppincrement I2]]``,
  ``go depth N``, ``go nodes N``, ``go infinite``; there is no ``movetime``: a fixed time a move
  is ``go time T`` alone.
* ``info depth D score S pv …`` (``S`` without ``cp``, from the side to move's view);
  ``bestmove M [ponder P] [draw | resign]`` or ``nobestmove``.

Moves are ICCS squares with ranks 0–9 (``h2e2``), as Pikafish's UCI. Everything an engine writes is
untrusted: parsers raise :class:`EngineProtocolError` with the line.
"""
from __future__ import annotations

from typing import Optional, Sequence

from xqdesk.board import Board
from xqdesk.engines.errors import EngineProtocolError
from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.transport.uci import (
    BestMove,
    OptionValue,
    UciDialect,
    UciOption,
    format_move,
    format_option_value,
    parse_move,
)
from xqdesk.engines.transport.uci import parse_info as parse_uci_info
from xqdesk.engines.transport.uci import parse_option as parse_uci_option
from xqdesk.move import Move
from xqdesk.pieces import RED, Color

HELLO = "ucci"
HELLO_OK = "ucciok"
MILLISEC_OPTION = "usemillisec"
"""The option that switches the engine's times to milliseconds."""
NEWGAME_OPTION = "newgame"
"""The button option that tells the engine a new game starts (UCCI's ``ucinewgame``)."""
NO_BEST_MOVE = "nobestmove"
OFFERS = ("draw", "resign")
MOVE_DIALECT = UciDialect.PIKAFISH
"""UCCI moves are ICCS squares, ranks 0–9."""


def replay(start_fen: str, moves: Sequence[Move]) -> Board:
    """The board after ``moves`` from ``start_fen`` (moves are played unchecked)."""
    board = Board(start_fen)
    for move in moves:
        board.push(move)
    return board


def position_after_last_capture(start_fen: str, moves: Sequence[Move]) -> tuple[str, list[Move]]:
    """The FEN right after the last capture of ``moves`` (``start_fen`` when there is none) and
    the moves since: what a UCCI ``position`` command carries."""
    board = Board(start_fen)
    fen, since = board.fen(), 0
    for index, move in enumerate(moves):
        capture = board.is_capture(move)
        board.push(move)
        if capture:
            fen, since = board.fen(), index + 1
    return fen, list(moves[since:])


def format_position(start_fen: str, moves: Sequence[Move]) -> str:
    """``position fen <FEN after the last capture> [moves …]``."""
    fen, since = position_after_last_capture(start_fen, moves)
    line = f"position fen {fen}"
    if since:
        line += " moves " + " ".join(format_move(move, MOVE_DIALECT) for move in since)
    return line


def format_banmoves(moves: Sequence[Move]) -> Optional[str]:
    """``banmoves m …`` for the forbidden moves (None when there are none)."""
    if not moves:
        return None
    return "banmoves " + " ".join(format_move(move, MOVE_DIALECT) for move in moves)


def _amount(seconds: float, millisec: bool, least: int = 1) -> int:
    """A time in the engine's unit: whole milliseconds, or whole seconds rounded down (never
    more than was given), at least ``least``."""
    return max(least, round(seconds * 1000) if millisec else int(seconds))


def format_go(limits: SearchLimits, turn: Color, millisec: bool) -> str:
    """The ``go`` command for ``limits`` when ``turn`` is to move; times in milliseconds when the
    engine was told ``usemillisec``, else in seconds.

    A time a move (``movetime``) is ``go time T``; under a game clock the side to move's time and
    increment come with ``opptime``/``oppincrement`` (an increment of 0 for sudden death, since
    ``go time T`` alone means "T for this move"); when a game clock also caps each move below the
    time left, the cap is sent as the move's time. ``searchmoves`` and ``multipv`` are not part of
    UCCI's ``go`` (see :func:`format_banmoves`).
    """
    if limits.infinite:
        return "go infinite"
    own, increment = limits.clock_for(turn == RED)
    opponent, opponent_increment = limits.clock_for(turn != RED)
    if own is not None and (limits.movetime is None or limits.movetime >= own):
        parts = [f"go time {_amount(own, millisec)} increment {_amount(increment, millisec, 0)}"]
        if opponent is not None:
            parts.append(f"opptime {_amount(opponent, millisec)} "
                         f"oppincrement {_amount(opponent_increment, millisec, 0)}")
        return " ".join(parts)
    if limits.movetime is not None:
        return f"go time {_amount(limits.movetime, millisec)}"
    if limits.depth is not None:
        return f"go depth {limits.depth}"
    if limits.nodes is not None:
        return f"go nodes {limits.nodes}"
    return "go infinite"


def format_setoption(option: UciOption, value: OptionValue) -> str:
    """``setoption <name> <value>`` (a button: ``setoption <name>``); ``value`` checked against the
    option's declaration (EngineOptionError otherwise)."""
    text = option.validate(value)
    if option.type == "button":
        return f"setoption {option.name}"
    return f"setoption {option.name} {text}".rstrip()


def format_millisec() -> str:
    """``setoption usemillisec true``: times in milliseconds from now on."""
    return f"setoption {MILLISEC_OPTION} {format_option_value(True)}"


def parse_option(line: str) -> UciOption:
    """Parse ``option hashsize type spin min 16 max 1024 default 16`` (also the UCI form with
    ``name``, which some UCCI engines write)."""
    tokens = line.split(None, 1)
    if len(tokens) < 2 or tokens[0] != "option":
        raise EngineProtocolError(f"not an option line: {line!r}")
    rest = tokens[1]
    if rest.split()[0] != "name":
        rest = "name " + rest
    return parse_uci_option("option " + rest)


def parse_info(line: str, turn: Color) -> SearchInfo:
    """Parse an ``info`` line of a search where ``turn`` is to move: ``score S`` is centipawns from
    that side's view (``score cp S`` and ``score mate M`` are read too)."""
    tokens = line.split()
    if not tokens or tokens[0] != "info":
        raise EngineProtocolError(f"not an info line: {line!r}")
    normal: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        normal.append(token)
        if token == "string":
            normal.extend(tokens[index + 1:])
            break
        if token == "score" and index + 1 < len(tokens) and tokens[index + 1] not in ("cp", "mate"):
            normal.append("cp")
        index += 1
    return parse_uci_info(" ".join(normal), MOVE_DIALECT, turn)


def is_final(line: str) -> bool:
    """Whether ``line`` ends a search (``bestmove …`` or ``nobestmove``)."""
    word = line.split(None, 1)[0] if line.strip() else ""
    return word in ("bestmove", NO_BEST_MOVE)


def parse_bestmove(line: str) -> BestMove:
    """Parse ``bestmove h2e2 [ponder h9g7] [draw|resign]`` or ``nobestmove`` (move None)."""
    tokens = line.split()
    if tokens == [NO_BEST_MOVE]:
        return BestMove(None, NO_BEST_MOVE)
    if not tokens or tokens[0] != "bestmove":
        raise EngineProtocolError(f"not a bestmove line: {line!r}")
    if len(tokens) < 2:
        raise EngineProtocolError(f"bestmove without a move: {line!r}")
    move = parse_move(tokens[1], MOVE_DIALECT)
    ponder: Optional[Move] = None
    offer: Optional[str] = None
    index = 2
    while index < len(tokens):
        word = tokens[index].lower()
        if word == "ponder" and index + 1 < len(tokens):
            try:
                ponder = parse_move(tokens[index + 1], MOVE_DIALECT)
            except EngineProtocolError:
                ponder = None
            index += 2
            continue
        if word in OFFERS:
            offer = word
        index += 1
    return BestMove(move, tokens[1], ponder, offer)


__all__ = ["HELLO", "HELLO_OK", "MILLISEC_OPTION", "NEWGAME_OPTION", "NO_BEST_MOVE", "OFFERS", "replay",
           "position_after_last_capture", "format_position", "format_banmoves", "format_go",
           "format_setoption", "format_millisec", "parse_option", "parse_info", "is_final", "parse_bestmove"]
