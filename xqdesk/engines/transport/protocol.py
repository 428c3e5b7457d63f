"""Which protocol an engine speaks, as one object of pure line functions the engine device uses.

:class:`UciProtocol` (in the Pikafish or the Fairy-Stockfish dialect) and :class:`UcciProtocol`
answer the same questions — the greeting and its answer, the lines that set an option, start a
game, give a position, start a search; how to read an option, an info line, the end of a search —
so :class:`~xqdesk.engines.transport.uci_engine.UciEngine` serves both without asking which it has. They do
no I/O.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from xqdesk.engines.search_types import SearchInfo, SearchLimits
from xqdesk.engines.transport import ucci, uci
from xqdesk.engines.transport.uci import BestMove, OptionValue, UciDialect, UciOption
from xqdesk.move import Move
from xqdesk.pieces import Color


class ProtocolName(enum.Enum):
    """What an engine spec asks for: UCI, UCCI, or AUTO (try UCI, then UCCI)."""

    UCI = "uci"
    UCCI = "ucci"
    AUTO = "auto"


@dataclass(frozen=True)
class UciProtocol:
    """UCI, in ``dialect`` (Pikafish: ranks 0–9 and its FEN limits; Fairy-Stockfish: ranks 1–10)."""

    dialect: UciDialect = UciDialect.PIKAFISH
    name: ProtocolName = ProtocolName.UCI
    hello: str = "uci"
    hello_ok: str = "uciok"

    @staticmethod
    def parse_option(line: str) -> UciOption:
        return uci.parse_option(line)

    def setup_lines(self, options: Iterable[UciOption]) -> list[str]:
        """What to send right after the handshake (the variant for Fairy-Stockfish)."""
        return [uci.format_setoption("UCI_Variant", "xiangqi")] if self.dialect is UciDialect.FAIRY else []

    @staticmethod
    def setoption_line(option: UciOption, value: OptionValue) -> str:
        text = option.validate(value)
        return uci.format_setoption(option.name, None if option.type == "button" else text)

    @staticmethod
    def new_game_lines(options: Iterable[UciOption]) -> list[str]:
        return ["ucinewgame"]

    def position_lines(self, start_fen: str, moves: Sequence[Move]) -> list[str]:
        """``position fen …`` with the whole history (Pikafish: its FEN rules; an impossible
        position raises EnginePositionError)."""
        fen = uci.pikafish_fen(start_fen, moves) if self.dialect is UciDialect.PIKAFISH else start_fen
        return [uci.format_position(fen, moves, self.dialect)]

    def go_lines(self, limits: SearchLimits, start_fen: str, moves: Sequence[Move], turn: Color) -> list[str]:
        return [uci.format_go(limits, self.dialect)]

    def parse_info(self, line: str, turn: Color) -> SearchInfo:
        return uci.parse_info(line, self.dialect, turn)

    @staticmethod
    def is_final(line: str) -> bool:
        return line.startswith("bestmove")

    def parse_bestmove(self, line: str) -> BestMove:
        return uci.parse_bestmove(line, self.dialect)

    @staticmethod
    def retry_lines(limits: SearchLimits, start_fen: str, moves: Sequence[Move], turn: Color) -> Optional[list[str]]:
        """UCI engines are never asked again (see :meth:`UcciProtocol.retry_lines`)."""
        return None


@dataclass(frozen=True)
class UcciProtocol:
    """UCCI; ``millisec`` when the engine declared ``usemillisec`` (it is then switched on)."""

    millisec: bool = False
    name: ProtocolName = ProtocolName.UCCI
    hello: str = ucci.HELLO
    hello_ok: str = ucci.HELLO_OK

    @staticmethod
    def parse_option(line: str) -> UciOption:
        return ucci.parse_option(line)

    def setup_lines(self, options: Iterable[UciOption]) -> list[str]:
        return [ucci.format_millisec()] if self.millisec else []

    @staticmethod
    def setoption_line(option: UciOption, value: OptionValue) -> str:
        return ucci.format_setoption(option, value)

    @staticmethod
    def new_game_lines(options: Iterable[UciOption]) -> list[str]:
        """``setoption newgame`` when the engine declares that button (UCCI has no other)."""
        for option in options:
            if option.name.lower() == ucci.NEWGAME_OPTION:
                return [ucci.format_setoption(option, None)]
        return []

    @staticmethod
    def position_lines(start_fen: str, moves: Sequence[Move]) -> list[str]:
        """The position after the last capture and the moves since, then ``banmoves`` for the
        moves the course's perpetual-check rule forbids (judged on the whole history)."""
        lines = [ucci.format_position(start_fen, moves)]
        banned = ucci.format_banmoves(ucci.replay(start_fen, moves).banned_moves())
        return lines + ([banned] if banned else [])

    def go_lines(self, limits: SearchLimits, start_fen: str, moves: Sequence[Move], turn: Color) -> list[str]:
        """``go``; ``searchmoves`` become ``banmoves`` of every other move (with the banned ones)."""
        lines: list[str] = []
        if limits.searchmoves is not None:
            board = ucci.replay(start_fen, moves)
            allowed = set(limits.searchmoves)
            others = [move for move in board.legal_moves if move not in allowed] + board.banned_moves()
            banned = ucci.format_banmoves(others)
            if banned:
                lines.append(banned)
        return lines + [ucci.format_go(limits, turn, self.millisec)]

    def parse_info(self, line: str, turn: Color) -> SearchInfo:
        return ucci.parse_info(line, turn)

    @staticmethod
    def is_final(line: str) -> bool:
        return ucci.is_final(line)

    @staticmethod
    def parse_bestmove(line: str) -> BestMove:
        return ucci.parse_bestmove(line)

    def retry_lines(self, limits: SearchLimits, start_fen: str, moves: Sequence[Move],
                    turn: Color) -> Optional[list[str]]:
        """After ``nobestmove``: the current position as a fresh FEN without its history (an
        engine such as ElephantEye answers ``nobestmove`` when it judges a repetition drawn, which
        the course does not), with the same bans and limits."""
        board = ucci.replay(start_fen, moves)
        lines = [ucci.format_position(board.fen(), [])]
        banned = ucci.format_banmoves(board.banned_moves())
        return lines + ([banned] if banned else []) + self.go_lines(limits, start_fen, moves, turn)


EngineProtocol = UciProtocol | UcciProtocol
"""Either protocol object."""


def parse_protocol_name(text: str, where: str) -> ProtocolName:
    """``uci``, ``ucci`` or ``auto`` (any case); ValueError naming ``where`` otherwise."""
    try:
        return ProtocolName(text.strip().lower())
    except ValueError:
        raise ValueError(f"{where}: protocol {text!r} is not supported (uci, ucci or auto)") from None


__all__ = ["ProtocolName", "UciProtocol", "UcciProtocol", "EngineProtocol", "parse_protocol_name"]
