"""A big annotated game tree for the window's latency figures: the first games of the 1,391-game
collection merged into one tree (games that share an opening become its variations), with a
comment on every third move — about the size of the big XQStudio trees players open (a 130 kB
``.xqf`` of some 10,000 moves). ``python bench/big_tree.py OUT.xqf`` writes it."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xqdesk.formats import read_games, write_games  # noqa: E402
from xqdesk.game import Game, GameNode  # noqa: E402

COLLECTION = ROOT / "tests" / "data" / "games" / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn"


def big_tree(games: int = 50) -> Game:
    """One game whose tree holds the first ``games`` games of the collection, annotated."""
    tree = Game(headers={"Event": "Big annotated tree", "Red": "Many", "Black": "Many"})
    count = 0
    for source in read_games(COLLECTION).games[:games]:
        node: GameNode = tree
        for move in source.mainline_moves():
            known = node.variation(move)
            if known is None:
                known = node.add_variation(move)
                count += 1
                if count % 3 == 0:
                    known.comment = f"Note {count}: the move most played here by the masters of this collection."
            node = known
    return tree


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "big_tree.xqf")
    write_games(target, [big_tree()])
    print(f"{target}: {target.stat().st_size} bytes")
