"""The desktop window (PySide6). Nothing outside this package imports it except the application
layer (``xqdesk.cli``, ``xqdesk.compat``, ``main.py``)."""
from xqdesk.ui import pyside_fixes  # noqa: F401  (guards signal emits against PySide6 6.12's refcount bug)
