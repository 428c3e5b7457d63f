"""Start the xqdesk window: ``python main.py [FILE] [--screenshot OUT.png] [--language zh_CN]``."""
import sys

from xqdesk.ui.start import start_window

if __name__ == "__main__":
    sys.exit(start_window())
