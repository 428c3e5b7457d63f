"""``xqdesk play``: play a game at the terminal, a person against an engine (or two people, or two
engines), under the same game runner, clocks and verdicts as the window and ``xqdesk match``.

A person types moves in any notation (ICCS ``h2e2``, WXF ``C2.5``, Chinese ``炮二平五``); ``moves``
lists the legal ones, ``resign`` gives up; the end of the input resigns too. The built-in engine
opens from the master book xqdesk ships (``builtin:OwnBook=false`` turns that off).
"""
from __future__ import annotations

import argparse
import sys
import threading
from dataclasses import replace
from typing import TextIO

from xqdesk.board import Board
from xqdesk.cli import report_error
from xqdesk.cli.match import time_control_argument
from xqdesk.cli.protocol_log import add_log_argument
from xqdesk.engines.play.person_seat import PersonSeat
from xqdesk.engines.registry import BOOK_OPTION
from xqdesk.engines.spec import EngineSpec, spec_kind
from xqdesk.notation import Notation, format_move, parse_move
from xqdesk.pieces import BLACK, RED, Color, side_name
from xqdesk.terminal_text import printable
from xqdesk.time_control import TimeControl

PERSON = "person"
POLL_SECONDS = 0.05


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--red", default=PERSON, metavar="SPEC",
                        help=f"who plays Red: '{PERSON}' (default) or an engine SPEC as for 'xqdesk match'")
    parser.add_argument("--black", default="builtin", metavar="SPEC",
                        help=f"who plays Black: '{PERSON}' or an engine SPEC (default builtin)")
    parser.add_argument("--fen", default=None, help="the start position (default: the usual one)")
    parser.add_argument("--engine-tc", type=time_control_argument, default=TimeControl.per_move(10.0), metavar="TC",
                        help="an engine's clock: '10s' a move (default, the course's), '15m+5s', '20m|30s'")
    parser.add_argument("--person-tc", type=time_control_argument, default=TimeControl.unlimited(), metavar="TC",
                        help="a person's clock (default none)")
    parser.add_argument("--notation", choices=[n.value for n in Notation], default=Notation.ICCS.value,
                        help="how moves are printed (any notation is read)")
    parser.add_argument("--engines", default=None, metavar="FILE", help="JSON engines file for named engines")
    add_log_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Play the game, the referee guarded against its engines (see
    :mod:`~xqdesk.engines.transport.referee_guard`)."""
    from xqdesk.engines.transport.referee_guard import guard_referee

    with guard_referee():
        return _play(args)


def playing_spec(text: str, spec: EngineSpec) -> EngineSpec:
    """The engine as seated for a game: the built-in engine (``builtin[:…]``) opens from the master
    book it ships unless its options set ``OwnBook``."""
    if spec_kind(text) != "builtin" or BOOK_OPTION in spec.options:
        return spec
    return replace(spec, options={BOOK_OPTION: "true", **spec.options})


def _play(args: argparse.Namespace) -> int:
    from xqdesk.engines.errors import EngineError
    from xqdesk.engines.play.engine_player import EnginePlayer
    from xqdesk.engines.play.game_player import GamePlayer
    from xqdesk.engines.play.referee import play_game
    from xqdesk.engines.registry import engine_spec

    try:
        board = Board(args.fen) if args.fen else Board()
    except ValueError as error:
        report_error(str(error))
        return 2
    notation = Notation(args.notation)
    seats: dict[Color, GamePlayer] = {}
    people: dict[Color, PersonSeat] = {}
    controls: dict[Color, TimeControl] = {}
    try:
        for color, text in ((RED, args.red), (BLACK, args.black)):
            if text == PERSON:
                people[color] = PersonSeat()
                seats[color] = people[color]
                controls[color] = args.person_tc
            else:
                seats[color] = EnginePlayer(playing_spec(text, engine_spec(text, args.engines)), None)
                controls[color] = args.engine_tc
        for seat in seats.values():
            seat.start()
    except (EngineError, ValueError) as error:
        report_error(str(error))
        for seat in seats.values():
            seat.close()
        return 2
    done = threading.Event()
    if people:
        threading.Thread(target=_prompt_people, args=(people, notation, sys.stdin, sys.stdout, done),
                         name="xqdesk-play-input", daemon=True).start()

    def on_move(after: Board, move: object, seconds: float) -> None:
        played = after.copy()
        last = played.pop()
        print(f"{side_name(played.turn)}: {format_move(played, last, notation)}  ({seconds:.1f} s)", flush=True)

    try:
        record = play_game(seats[RED], seats[BLACK], board=board, time_controls=controls, on_move=on_move)
    finally:
        done.set()
        for seat in seats.values():
            seat.close()
    print(("\n" if people else "") + printable(record.outcome.text), flush=True)  # a prompt may be waiting
    return 0


def _prompt_people(people: dict[Color, PersonSeat], notation: Notation, source: TextIO, out: TextIO,
                   done: threading.Event) -> None:
    """Ask whichever person is to move for a move, check it against the position, offer it."""
    while not done.is_set():
        seat = next((s for s in people.values() if s.wait_until_asked(POLL_SECONDS)), None)
        board = seat.position() if seat is not None else None
        if seat is None or board is None:
            continue
        print(f"\n{board}\n{side_name(board.turn)} to move> ", end="", file=out, flush=True)
        line = source.readline()
        if seat.position() is None:
            continue  # the turn ended while the person typed (their time ran out)
        text = line.strip()
        if line and not source.isatty():
            print(text, file=out, flush=True)  # echo what was read from a file or a pipe
        if not line:
            print(f"(end of input: {side_name(board.turn)} resigns)", file=out, flush=True)
            seat.resign()
        elif text == "resign":
            seat.resign()
        elif text == "moves":
            print(" ".join(sorted(format_move(board, m, notation) for m in board.legal_moves)), file=out)
        elif text:
            try:
                seat.offer(parse_move(board, text))
            except ValueError as error:
                print(printable(f"not a move here: {error}"), file=out, flush=True)
