"""The desktop window (PySide6). Nothing outside this package imports it except the application
layer (``xqdesk.cli``, ``xqdesk.compat``, ``main.py``)."""
