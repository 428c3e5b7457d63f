"""Starting the window from ``python main.py`` and ``xqdesk`` without a command: Qt's own libraries
missing at import are said in words, as :mod:`xqdesk.ui.display` says a missing display."""
from __future__ import annotations

import sys
from typing import Optional, Sequence

from xqdesk.ui.display import EXIT_NO_WINDOW, INSTALL_HINT, WITHOUT_WINDOW_HINT


def start_window(argv: Optional[Sequence[str]] = None) -> int:
    """Open the window (:func:`xqdesk.ui.app.main`); when Qt's own libraries cannot be loaded,
    say which and what to install, and return :data:`EXIT_NO_WINDOW` instead of a traceback."""
    try:
        from xqdesk.ui.app import main
    except ImportError as error:
        if "cannot open shared object file" not in str(error):
            raise
        print(f"xqdesk: the window cannot open: a library Qt needs is not installed ({error}).\n{INSTALL_HINT}\n"
              f"{WITHOUT_WINDOW_HINT}", file=sys.stderr)
        return EXIT_NO_WINDOW
    return main(argv)
