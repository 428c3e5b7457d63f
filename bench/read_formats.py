"""Reading speed of every record format xqdesk reads, on the real samples in tests/data: plies read
(every move checked for legality, variations included) per second, best of N runs.

    python bench/read_formats.py [--repeat N]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from xqdesk.formats import read_games

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "games"
SAMPLES = (
    "pgn_san/elephantchess_wang_tianyi_cao_yanlei.pgn",
    "pgn_san/winboard_ranks_0_9.pgn",
    "dpxq/yilin_xinbian_variations.ubb",
    "dpxq/liu_yongfu_vs_zhang_yongsheng.html",
    "dpxq/liu_yongfu_vs_zhang_yongsheng.txt",
    "playok/tmt6838g_vs_computerhuang.wxf",
    "ccbridge/huang_danqing_lecture_004.cbr",
    "ccbridge/1956_national_championship_first5.cbl",
    "ccbridge/first_game_ancient_manual.cbf",
    "xqf/cchess_030-黄松轩先胜冯敬如.XQF",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'file':48} {'format':32} {'games':>5} {'plies':>6} {'best ms':>8} {'plies/s':>9}")
    for name in SAMPLES:
        path = GAMES / name
        best = float("inf")
        record = None
        for _ in range(args.repeat):
            started = time.perf_counter()
            record = read_games(path)
            best = min(best, time.perf_counter() - started)
        assert record is not None
        plies = sum(sum(1 for _ in game.walk()) - 1 for game in record.games)
        print(f"{path.name[:48]:48} {record.format or '?':32} {len(record.games):5d} {plies:6d} "
              f"{best * 1000:8.1f} {plies / best:9,.0f}{'  ERRORS' if record.errors else ''}")


if __name__ == "__main__":
    main()
