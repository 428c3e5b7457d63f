"""How long a test waits for something before it counts it as hung.

Every wait in a test is a guard against a hang: it returns as soon as the thing happens, so its
length costs nothing when all is well, and it must hold on a busy machine (CI runs the suite on two
cores shared with other jobs, where an engine that starts in a second on an idle machine can take a
minute). Speed is measured by the ``bench/`` scripts, never by a test.
"""

HANG_GUARD = 300.0
"""Seconds after which a wait counts as hung."""

HANG_GUARD_MS = int(HANG_GUARD * 1000)
"""The same in milliseconds, as pytest-qt's ``waitUntil``/``waitSignal`` take it."""
