"""Sound effects for moves, captures, checks and the end of a game, with mute.

The WAV files are made by ``resources/sounds/make_sounds.py`` and played with miniaudio (a small
library bundling its own C audio code; PySide6-Essentials has no QtMultimedia). The sound device is
opened on the first sound; a machine without one (a server, CI) plays nothing and says why in
:attr:`SoundPlayer.unavailable_reason`, and everything else goes on as usual. ALSA's own error
messages (some forty lines on stderr when it finds no sound card) are silenced: the reason is kept
in ``unavailable_reason`` instead.
"""
from __future__ import annotations

import ctypes
import enum
import sys
from collections.abc import Generator, Sequence

import miniaudio

from xqdesk.board import Board
from xqdesk.move import Move
from xqdesk.resource_files import read_resource

SAMPLE_RATE = 22050

_ALSA_ERROR_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                       ctypes.c_char_p)
_quiet_alsa_handler: object | None = None
"""The installed no-op handler (kept alive: ALSA holds a pointer to it)."""


def silence_alsa() -> bool:
    """Give ALSA's library a no-op error handler, so a missing sound card does not fill stderr
    (Linux only; whether a handler was installed)."""
    global _quiet_alsa_handler
    if _quiet_alsa_handler is not None:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        alsa = ctypes.CDLL("libasound.so.2")
    except OSError:
        return False
    handler = _ALSA_ERROR_HANDLER(lambda *_ignored: None)
    alsa.snd_lib_error_set_handler(handler)
    _quiet_alsa_handler = handler
    return True


class SoundEvent(enum.Enum):
    """What a sound tells; the value is its file's name in ``resources/sounds``."""

    MOVE = "move"
    CAPTURE = "capture"
    CHECK = "check"
    GAME_END = "game_end"


def event_for_move(after: Board, move: Move) -> SoundEvent:
    """The sound of ``move``, given the position ``after`` it (whose last move it is): check
    before capture before a plain move."""
    if after.is_check():
        return SoundEvent.CHECK
    before = after.copy()
    before.pop()
    return SoundEvent.CAPTURE if before.code_at(move.to_square) else SoundEvent.MOVE


def _stream(samples: memoryview) -> Generator[bytes, int, None]:
    """Feeds a playback device: each request for ``frames`` gets that many samples, then silence."""
    frames = yield b""
    position = 0
    while True:
        if position >= len(samples):
            frames = yield b"\0\0" * frames
            continue
        chunk = samples[position:position + frames]
        position += frames
        frames = yield chunk.tobytes()


class SoundPlayer:
    """Plays :class:`SoundEvent` sounds unless muted. ``backends`` chooses miniaudio's backends
    (None: the platform's usual ones; the null backend plays into nothing, which the tests use)."""

    def __init__(self, muted: bool = False, backends: Sequence[miniaudio.Backend] | None = None) -> None:
        self.muted = muted
        self._backends = list(backends) if backends is not None else None
        self._device: miniaudio.PlaybackDevice | None = None
        self._samples: dict[SoundEvent, memoryview] = {}
        self.unavailable_reason = ""
        """Why no sound can be played here ('' while none has failed)."""
        self.played: list[SoundEvent] = []
        """The sounds started, oldest first (the last 50)."""

    def samples(self, event: SoundEvent) -> memoryview:
        """The decoded 16-bit mono samples of ``event``'s sound (read once)."""
        found = self._samples.get(event)
        if found is None:
            decoded = miniaudio.decode(read_resource(f"sounds/{event.value}.wav"),
                                       output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1,
                                       sample_rate=SAMPLE_RATE)
            found = memoryview(decoded.samples)
            self._samples[event] = found
        return found

    def play(self, event: SoundEvent) -> bool:
        """Start ``event``'s sound (cutting off the one playing); False when muted or no device."""
        if self.muted or self.unavailable_reason:
            return False
        try:
            samples = self.samples(event)
            if self._device is None:
                silence_alsa()
                self._device = miniaudio.PlaybackDevice(
                    output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1, sample_rate=SAMPLE_RATE,
                    backends=self._backends)
            stream = _stream(samples)
            next(stream)
            self._device.stop()
            self._device.start(stream)
        except (miniaudio.MiniaudioError, OSError) as error:  # no sound device, no file: stay silent
            self.unavailable_reason = str(error)
            self.close()
            return False
        self.played = (self.played + [event])[-50:]
        return True

    def close(self) -> None:
        """Stop playing and release the device."""
        if self._device is not None:
            self._device.close()
            self._device = None
