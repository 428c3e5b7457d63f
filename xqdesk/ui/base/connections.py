"""Signal connections made for one game, seat or engine, kept in one place and undone together.

A widget that connects to an object it does not own for a while (the worker of an engine seat, a
game's objects) records the connections here and disconnects them all when that while ends, so a
kept engine never reports twice after a few new games.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QMetaObject, QObject, SignalInstance


class SignalConnections:
    """Connections to undo together; :meth:`disconnect_all` leaves it empty and reusable."""

    def __init__(self) -> None:
        self._connections: list[QMetaObject.Connection] = []

    def connect(self, signal: SignalInstance, slot: Callable[..., object]) -> None:
        """Connect ``signal`` to ``slot`` and remember the connection."""
        self._connections.append(signal.connect(slot))

    def disconnect_all(self) -> None:
        """Undo every remembered connection (one whose sender is gone is skipped)."""
        connections, self._connections = self._connections, []
        for connection in connections:
            QObject.disconnect(connection)

    def __len__(self) -> int:
        """How many connections are remembered."""
        return len(self._connections)
