"""Time controls and the clock that keeps them: per move (the course's 10 s), game time plus an
increment (15 min + 5 s), main time then byo-yomi (读秒: 20 min, then 30 s a move), or no clock.

:class:`SideClock` keeps one side's time. It never reads a clock itself: every call takes ``now``
(seconds from any monotonic source), so the rules of time are tested without waiting.

Text form (:meth:`TimeControl.parse`, the command line and the window): ``none``; ``10`` or ``10s``
(seconds per move); ``15m+5s`` or ``900+5`` (game time plus increment; ``15m`` alone has none);
``20m|30s`` (main time, then byo-yomi: each move after it must be made within 30 s). Units are
``h``, ``m`` and ``s`` (seconds when none is given).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Optional

_DURATION = re.compile(r"(?P<number>\d+(?:\.\d*)?|\.\d+)\s*(?P<unit>[hms]?)")
_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "": 1.0}


@dataclass(frozen=True)
class TimeControl:
    """How much time one side has. Every field is in seconds; ``None`` means "no such limit".

    ``move_time``: each move must be made within it. ``main_time``: the side's time for the whole
    game, to which ``increment`` is added after each move. ``byoyomi``: once the main time is spent,
    each move must be made within this period (the period starts afresh every move).
    """

    move_time: Optional[float] = None
    main_time: Optional[float] = None
    increment: float = 0.0
    byoyomi: Optional[float] = None

    def __post_init__(self) -> None:
        for name in ("move_time", "main_time", "increment", "byoyomi"):
            value = getattr(self, name)
            if value is not None and (not math.isfinite(value) or value < 0):
                raise ValueError(f"time control {name} must be a finite number of seconds >= 0, got {value!r}")
        if self.move_time is not None and self.move_time <= 0:
            raise ValueError(f"a time per move must be more than 0 seconds, got {self.move_time!r}")
        if self.main_time is None and (self.increment or self.byoyomi is not None):
            raise ValueError("an increment or a byo-yomi needs a main time")

    @classmethod
    def unlimited(cls) -> TimeControl:
        """No clock: the side may think as long as it likes."""
        return cls()

    @classmethod
    def per_move(cls, seconds: float) -> TimeControl:
        """``seconds`` for every move (the course: 10)."""
        return cls(move_time=seconds)

    @classmethod
    def game(cls, main: float, increment: float = 0.0) -> TimeControl:
        """``main`` seconds for the game, ``increment`` added after each move."""
        return cls(main_time=main, increment=increment)

    @classmethod
    def byo_yomi(cls, main: float, period: float) -> TimeControl:
        """``main`` seconds for the game, then ``period`` seconds for each further move."""
        return cls(main_time=main, byoyomi=period)

    @property
    def is_unlimited(self) -> bool:
        return self.move_time is None and self.main_time is None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The time control ``text`` spells (see the module docstring); ValueError says what is wrong."""
        spelled = text.strip().lower().replace(" ", "")
        if spelled in ("", "none", "-", "–", "unlimited"):
            return cls.unlimited()
        try:
            if "|" in spelled:
                main, period = spelled.split("|", 1)
                return cls.byo_yomi(_seconds(main), _seconds(period))
            if "+" in spelled:
                main, increment = spelled.split("+", 1)
                return cls.game(_seconds(main), _seconds(increment))
            if spelled.endswith(("m", "h")):
                return cls.game(_seconds(spelled))
            return cls.per_move(_seconds(spelled))
        except ValueError as error:
            raise ValueError(f"time control {text!r}: {error} (write e.g. 'none', '10s', '15m+5s' or "
                             f"'20m|30s')") from None

    def text(self) -> str:
        """The text form :meth:`parse` reads back (``'none'``, ``'10s'``, ``'15m+5s'``, ``'20m|30s'``)."""
        if self.is_unlimited:
            return "none"
        parts = []
        if self.main_time is not None:
            main = _duration_text(self.main_time)
            if self.byoyomi is not None:
                main += "|" + _duration_text(self.byoyomi)
            elif self.increment:
                main += "+" + _duration_text(self.increment)
            parts.append(main)
        if self.move_time is not None:
            parts.append(_duration_text(self.move_time))
        return ",".join(parts) if len(parts) > 1 else parts[0]

    def pgn_tag(self) -> str:
        """The PGN ``TimeControl`` tag as cutechess-cli writes it: ``1/move`` (a time a move),
        ``900+5`` (main time and increment), ``1200|30`` (main time, then byo-yomi), ``inf``."""
        if self.is_unlimited:
            return "inf"
        if self.main_time is None:
            return f"{self.move_time:g}/move"
        text = f"{self.main_time:g}"
        if self.byoyomi is not None:
            return f"{text}|{self.byoyomi:g}"
        return f"{text}+{self.increment:g}" if self.increment else text


def _seconds(text: str) -> float:
    """``'15m'`` → 900.0, ``'5'`` → 5.0; units may be combined (``'1m30s'``)."""
    position, total = 0, 0.0
    while position < len(text):
        match = _DURATION.match(text, position)
        if match is None:
            raise ValueError(f"{text[position:]!r} is not a duration")
        total += float(match.group("number")) * _UNITS[match.group("unit")]
        position = match.end()
    if position == 0:
        raise ValueError("a duration is missing")
    return total


def _duration_text(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)}m"
    return f"{seconds:g}s"


class SideClock:
    """One side's clock under a :class:`TimeControl`.

    :meth:`start` when the side is asked to move, :meth:`stop` when its move arrives (the time used
    is charged, the increment added). :meth:`allowance` is how long the current move may take in
    all, :meth:`time_left` how much of it remains; the side has lost on time once it is below zero.
    """

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.main_left: Optional[float] = control.main_time
        self._started_at: Optional[float] = None

    @property
    def running(self) -> bool:
        return self._started_at is not None

    def allowance(self) -> Optional[float]:
        """Seconds the move now asked for may take in all (None: no limit)."""
        limits = []
        if self.control.move_time is not None:
            limits.append(self.control.move_time)
        if self.main_left is not None:
            limits.append(max(0.0, self.main_left) + (self.control.byoyomi or 0.0))
        return min(limits) if limits else None

    def start(self, now: float) -> None:
        self._started_at = now

    def used(self, now: float) -> float:
        """Seconds used on the running move (0 when stopped)."""
        return 0.0 if self._started_at is None else max(0.0, now - self._started_at)

    def time_left(self, now: float) -> Optional[float]:
        """Seconds left for the running (or next) move; negative once the side has overstepped."""
        allowance = self.allowance()
        return None if allowance is None else allowance - self.used(now)

    def main_time_left(self, now: float) -> Optional[float]:
        """The game time left, the running move charged (None without a game clock)."""
        return None if self.main_left is None else self.main_left - self.used(now)

    def has_flagged(self, now: float) -> bool:
        left = self.time_left(now)
        return left is not None and left < 0

    def stop(self, now: float) -> float:
        """End the running move: charge it and add the increment. Returns the seconds it took."""
        used = self.used(now)
        self._started_at = None
        if self.main_left is not None:
            if self.control.byoyomi is not None and used > self.main_left:
                self.main_left = 0.0  # into byo-yomi: the period starts afresh every move
            else:
                self.main_left = self.main_left - used + self.control.increment
        return used
