"""Reading XQF files (XQStudio; versions 0x0A to 0x12) into games.

:mod:`xqdesk.formats.xqf_binary` undoes the file layout; this module applies the rules: it sets up
the start position, replays every move of every variation and reports the first illegal move of
each line (the line is cut there; the rest of the game is kept).
"""
from __future__ import annotations

from pathlib import Path

from xqdesk.board import Board
from xqdesk.errors import InvalidFenError, RecordFormatError
from xqdesk.fen import format_fen
from xqdesk.formats.game_file import GameFile, GameReadError, file_error, source_name
from xqdesk.formats.outcome_text import outcome_from_result
from xqdesk.formats.record_file import MAX_RECORD_BYTES, RecordFileError, read_record_bytes
from xqdesk.formats.xqf_binary import XqfNode, XqfRecord, decode_xqf
from xqdesk.game import Game, GameNode, move_label
from xqdesk.move import Move
from xqdesk.pieces import BLACK, RED
from xqdesk.ruleset import STANDARD
from xqdesk.squares import SQUARE_COUNT


def read_xqf(path: str | Path, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Read one XQF file: a GameFile with one game (none when the header itself is unreadable)
    and the errors met."""
    source = source_name(path)
    result = GameFile(source, encoding="gb18030")
    try:
        data = read_record_bytes(path, max_bytes)
    except RecordFileError as error:
        result.errors.append(file_error(source, "whole file", error.reason))
        return result
    try:
        record = decode_xqf(data, source)
        game = _start_game(record, source)
    except (RecordFormatError, InvalidFenError) as error:
        result.errors.append(GameReadError(source, 1, "header", "", str(error)))
        return result
    board = game.start_board()
    errors: list[GameReadError] = []
    add_move_tree(game, record.root.children, board, source, errors)
    result.games.append(game)
    if record.error:
        errors.append(GameReadError(source, 1, "move tree", "", record.error))
    result.errors.extend(errors)
    return result


def _start_game(record: XqfRecord, source: str) -> Game:
    codes = [0] * SQUARE_COUNT
    for sq, piece in record.placement.items():
        codes[sq] = piece.code
    turn = RED if record.red_to_move else BLACK
    first_moves = record.root.children
    if first_moves and 0 <= first_moves[0].from_square and codes[first_moves[0].from_square]:
        turn = codes[first_moves[0].from_square] > 0  # the piece that moves first says whose turn it is
    fen = format_fen(codes, turn, 0, 1)
    Board(fen, ruleset=STANDARD)  # raises InvalidFenError for an impossible set-up
    headers = dict(record.headers)
    if record.result:
        headers["Result"] = record.result
    return Game(headers=headers, start_fen=fen, comment=record.root.comment,
                outcome=outcome_from_result(record.result) if record.result else None, ruleset=STANDARD)


def add_move_tree(game: Game, children: list[XqfNode], board: Board, source: str, errors: list[GameReadError],
                  game_number: int = 1) -> None:
    """Add a decoded move tree under ``game``, checking every move (an illegal one ends its
    line with an error naming game ``game_number``); ``children[0]`` starts the main line, the
    others are its variations. Iterative, so a tree thousands of moves deep is read like any other.
    Binary formats with the same tree (XQF, XiangQi Bridge's CBR) share it."""
    lines: list[tuple[GameNode, list[XqfNode], Board, str]] = [(game, children, board, "main line")]
    while lines:
        parent, siblings, position, line_name = lines.pop()
        while siblings:
            first, alternatives = siblings[0], siblings[1:]
            for number, alternative in reversed(list(enumerate(alternatives, start=1))):  # the first on top
                lines.append((parent, [alternative], position.copy(),
                              f"variation {number} at {move_label(position)} of the {line_name}"))
            move = _checked_move(first, position, source, line_name, errors, game_number)
            if move is None:
                break
            position.push(move)
            parent = parent.add_variation(move, first.comment)
            siblings = first.children


def _checked_move(node: XqfNode, board: Board, source: str, line_name: str,
                  errors: list[GameReadError], game_number: int) -> Move | None:
    where = f"{move_label(board)} of the {line_name}"
    if node.from_square < 0 or node.to_square < 0:
        errors.append(GameReadError(source, game_number, where, "", "a move record points off the board"))
        return None
    move = Move(node.from_square, node.to_square)
    if not board.is_legal(move):
        errors.append(GameReadError(source, game_number, where, move.iccs(),
                                    f"illegal in {board.fen()!r}: {board.why_illegal(move)}"))
        return None
    return move
