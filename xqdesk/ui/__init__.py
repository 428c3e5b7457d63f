"""The desktop window (PySide6). Nothing outside this package imports it except the application
layer (``xqdesk.cli``, ``xqdesk.compat``, ``main.py``).

PySide6-Essentials is pinned to 6.11.3: the 6.12.0 build drops a reference to ``True`` on every
signal emit and to ``None`` on every call of a ``void`` method, which aborts CPython 3.11 after a
few hundred calls (``tests/test_ui_pyside_refcounts.py`` guards against that coming back).
"""
