"""``python -m xqdesk COMMAND …``."""
import sys

from xqdesk.cli import main

sys.exit(main())
