"""What running every engine in its own process costs: start-up, per-move round trip, games/s.

Run: ``python bench/engine_overhead.py``. Prints the start-up time of an engine host process (UCI
handshake included), the referee's round trip per move with an engine that answers at once (the
``greedy`` baseline: position + isready + go + bestmove, legality check included), and the plies
per second of whole greedy-vs-random games. Targets: start-up well under 1 s, round trip well
under 10 ms, so the 10 s course clock is spent thinking, not talking.
"""
from __future__ import annotations

import statistics
import time

from xqdesk.board import Board
from xqdesk.engines.play.engine_player import EnginePlayer
from xqdesk.engines.play.referee import play_game
from xqdesk.engines.search_types import SearchLimits
from xqdesk.engines.spec import parse_spec


def main() -> None:
    starts = []
    for _ in range(3):
        started = time.perf_counter()
        player = EnginePlayer(parse_spec("greedy"), SearchLimits(depth=1))
        player.start()
        starts.append(time.perf_counter() - started)
        player.close()
    print(f"engine host start-up (handshake included): median {statistics.median(starts) * 1000:.0f} ms")

    player = EnginePlayer(parse_spec("greedy:Seed=1"), SearchLimits(depth=1))
    player.start()
    board = Board()
    round_trips = []
    for _ in range(40):
        started = time.perf_counter()
        reply = player.request_move(board.copy(), 10.0)
        round_trips.append(time.perf_counter() - started)
        if reply.move is None or board.outcome() is not None:
            break
        board.push(reply.move)
        if board.outcome() is not None:
            break
    player.close()
    print(f"per-move round trip with an instant engine: median {statistics.median(round_trips) * 1000:.2f} ms "
          f"over {len(round_trips)} moves")

    red, black = EnginePlayer(parse_spec("greedy:Seed=2"), SearchLimits(depth=1)), EnginePlayer(parse_spec("random:Seed=3"))
    red.start()
    black.start()
    plies, started = 0, time.perf_counter()
    for _ in range(3):
        plies += len(play_game(red, black).moves)
    seconds = time.perf_counter() - started
    red.close()
    black.close()
    print(f"greedy vs random, 3 whole games: {plies} plies in {seconds:.2f} s = {plies / seconds:.0f} plies/s")


if __name__ == "__main__":
    main()
