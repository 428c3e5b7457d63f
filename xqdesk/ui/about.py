"""*Help → About xqdesk*: the version, the licences, and the credit owed to the data the shipped
opening book, the built-in engine's evaluation weights and the zero network were built from."""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from xqdesk import __version__
from xqdesk.opening_book import SHIPPED_ATTRIBUTION, shipped_book
from xqdesk.ui.base.i18n import tr

DATASET_URL = "https://github.com/Yvonne761/Chinese-Chess-Practical-Dataset"
LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"


def about_text() -> str:
    """The About box's text (rich text): what xqdesk is, its licence, and the source of the data
    the opening book, the evaluation weights and the zero network learned from."""
    book = shipped_book()
    lines = [f"<h3>xqdesk {escape(__version__)}</h3>",
             "<p>" + escape(tr("Xiangqi (Chinese chess): play, analyse and replay.")) + "</p>",
             "<p>" + escape(tr("MIT licence; the bundled fonts under the SIL Open Font License.")) + "</p>"]
    if book is not None:
        lines.append("<p>" + escape(tr("Opening book: {games} master games, built from").format(
            games=book.meta.get("games", "?"))) + f" <a href='{DATASET_URL}'>{escape(SHIPPED_ATTRIBUTION)}</a>"
            f" (<a href='{LICENCE_URL}'>CC BY 4.0</a>).</p>")
        lines.append("<p>" + escape(tr("The built-in engine's evaluation weights and the zero engine's network "
                                       "learned from the same collection's games and results.")) + "</p>")
    return "\n".join(lines)


def show_about(parent: QWidget) -> QMessageBox:
    """Open the About box (not modal: the window goes on) and return it."""
    box = QMessageBox(QMessageBox.Icon.Information, tr("About xqdesk"), about_text(),
                      QMessageBox.StandardButton.Close, parent)
    box.setTextFormat(Qt.TextFormat.RichText)
    box.open()
    return box
