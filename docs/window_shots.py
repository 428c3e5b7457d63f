"""Screenshots of the window's analysis views for the user guide, made by the app itself offscreen:
the variation tree, the evaluation bar beside an analysed position, the review summary after a
whole-game review, an engine tournament in progress, the opening explorer with the masters'
book (its moves drawn on the board), and two engines analysing on laptop screens (a 1366×768 one
leaves the window about 1366×700, a 1024×600 one about 1024×540).

    python docs/window_shots.py docs/images        # writes the seven PNGs there (about three minutes)
    python docs/window_shots.py docs/images laptop book_explorer   # only the ones named

It drives the real window as a user would (the engines really run), so the pictures show what a
user sees; it needs no display.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GAMES = ROOT / "tests" / "data" / "games"
SIZE = (1280, 860)


def wait(app, condition, seconds: float) -> bool:
    """Run the event loop until ``condition()`` holds (or ``seconds`` pass)."""
    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        loop = QEventLoop()
        QTimer.singleShot(50, loop.quit)
        loop.exec()
    return condition()


def new_window(app, size: tuple[int, int] = SIZE):
    from xqdesk.ui.base.settings import open_store
    from xqdesk.ui.main_window import MainWindow

    scratch = tempfile.mkdtemp(prefix="xqdesk-shots-")
    window = MainWindow(settings_store=open_store(scratch + "/settings.ini"), autosave_path=scratch + "/autosave.pgn")
    window.resize(*size)
    window.show()
    wait(app, lambda: False, 0.5)
    return window


def save(widget, path: Path) -> None:
    if not widget.grab().save(str(path), "PNG"):
        raise OSError(f"could not write {path}")
    print(path)


def variation_tree(app, out: Path) -> None:
    window = new_window(app)
    window.files.open_path(GAMES / "dpxq" / "yilin_xinbian_variations.ubb")
    wait(app, lambda: not window.files.is_loading(), 60)
    window.moves_tabs.setCurrentWidget(window.variation_tree)
    game = window.controller.game()
    branching = next(node for node in game.mainline() if len(node.parent.variations) > 1)
    window.controller.view_node(branching.parent.variations[1].end())
    wait(app, lambda: False, 0.5)
    save(window, out / "variation_tree.png")
    window.shutdown()


def evaluation_bar(app, out: Path) -> None:
    from xqdesk.formats import read_games
    from xqdesk.ui.game.game_controller import Mode

    window = new_window(app)
    game = read_games(GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn").games[3]
    window.controller.load_game(game, Mode.ANALYSIS, ply=30)
    window.analysis.start(window.analysis.engines())
    wait(app, lambda: window.eval_bar.score() is not None, 60)
    wait(app, lambda: False, 4)
    save(window, out / "evaluation_bar.png")
    window.shutdown()


def review_summary(app, out: Path) -> None:
    from xqdesk.engines.analysis.reviewer import review_limits
    from xqdesk.formats import read_games
    from xqdesk.ui.base.settings import EngineKind, EngineProfile

    window = new_window(app)
    game = read_games(GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn").games[7]
    window.controller.load_game(game)
    window.start_review(EngineProfile("Built-in", EngineKind.BUILTIN, level=20), review_limits(movetime=0.2))
    wait(app, lambda: window.review_worker is None, 600)
    errors = window.review.errors() if window.review is not None else []
    window.controller.go_to(errors[0].ply if errors else 20)
    wait(app, lambda: False, 0.5)
    save(window, out / "review_summary.png")
    window.shutdown()


def tournament(app, out: Path) -> None:
    from xqdesk.ui.base.settings import EngineKind, EngineProfile

    window = new_window(app)
    engines = (EngineProfile("Built-in level 5", EngineKind.BUILTIN, level=5),
               EngineProfile("Built-in level 3", EngineKind.BUILTIN, level=3),
               EngineProfile("Greedy", EngineKind.COMMAND, sys.executable,
                             arguments=("-m", "xqdesk.engines.host", "greedy")))
    view = window.open_tournament_window()
    view.set_engines(engines)
    view.set_chosen([profile.name for profile in engines])
    view.clock_box.setCurrentText("0.5s")
    view.games_box.setValue(2)
    view.pgn_edit.setText(str(Path(tempfile.mkdtemp()) / "tournament.pgn"))
    view.resize(1280, 760)
    view.start()
    wait(app, lambda: view.games_view.rowCount() >= 3 and len(view.board_view.board().move_stack) >= 12, 900)
    save(view, out / "tournament.png")
    view.stop()
    window.shutdown()


def book_explorer(app, out: Path) -> None:
    from xqdesk.move import Move

    window = new_window(app)
    window.action("Opening explorer").trigger()
    for move in ("h2e2", "h9g7", "h0g2"):
        window.explorer.play_move(Move.from_iccs(move))
    window.action("Show book moves").trigger()
    panel = window.explorer_panel
    wait(app, lambda: not panel.is_looking_up() and bool(window.board_view.book_arrows()), 30)
    wait(app, lambda: False, 0.5)
    save(window, out / "book_explorer.png")
    window.shutdown()
    window.close()


def laptop(app, out: Path) -> None:
    """Two engines analysing three lines each of a master game's middle game, at 1366×700 and
    1024×540."""
    from xqdesk.formats import read_games
    from xqdesk.ui.base.settings import EngineKind, EngineProfile
    from xqdesk.ui.game.game_controller import Mode

    game = read_games(GAMES / "iccs" / "Hu_Ronghua_1391_UCI_games.pgn").games[3]
    engines = [EngineProfile("Built-in level 20", EngineKind.BUILTIN, level=20),
               EngineProfile("Built-in level 8", EngineKind.BUILTIN, level=8)]
    for size, name in (((1366, 700), "laptop_1366.png"), ((1024, 540), "laptop_1024.png")):
        window = new_window(app, size)
        window.controller.load_game(game, Mode.ANALYSIS, ply=24)
        window.engine_panel.set_lines(3)
        window.analysis.start(engines)
        views = window.engine_panel.views
        wait(app, lambda: all(len(view.row_texts()) >= 3 for view in views), 60)  # noqa: B023 (waited for here)
        wait(app, lambda: False, 3)
        save(window, out / name)
        window.shutdown()


def main() -> None:
    from xqdesk.ui.app import ensure_application

    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "images")
    out.mkdir(parents=True, exist_ok=True)
    app = ensure_application()
    shots = (variation_tree, evaluation_bar, review_summary, tournament, book_explorer, laptop)
    named = set(sys.argv[2:])
    for make in shots:
        if not named or make.__name__ in named:
            make(app, out)


if __name__ == "__main__":
    main()
