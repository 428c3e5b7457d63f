"""Make the window's sound effects: small mono 16-bit WAV files, written beside this script.

    python resources/sounds/make_sounds.py

Every sound is synthesised here from sine waves and noise with fixed seeds, so running the script
again writes the same bytes: ``move.wav`` (a wooden click), ``capture.wav`` (a heavier double
knock), ``check.wav`` (two rising tones) and ``game_end.wav`` (a short falling chord).
"""
from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
HERE = Path(__file__).resolve().parent


def knock(duration: float, pitch: float, noise: float, seed: int, decay: float) -> list[float]:
    """A percussive knock: a decaying tone with a little noise at its start."""
    rng = random.Random(seed)
    samples = []
    for index in range(int(RATE * duration)):
        t = index / RATE
        envelope = math.exp(-t * decay)
        tone = math.sin(2 * math.pi * pitch * t) + 0.4 * math.sin(2 * math.pi * pitch * 2.7 * t)
        hiss = rng.uniform(-1.0, 1.0) * noise * math.exp(-t * decay * 4)
        samples.append(envelope * (0.6 * tone + hiss))
    return samples


def tones(parts: list[tuple[float, list[float]]], decay: float) -> list[float]:
    """Consecutive chords of sine tones, each ``(seconds, [frequencies])``, each fading out."""
    samples: list[float] = []
    for duration, frequencies in parts:
        for index in range(int(RATE * duration)):
            t = index / RATE
            envelope = min(1.0, t * 200) * math.exp(-t * decay)
            samples.append(envelope * sum(math.sin(2 * math.pi * f * t) for f in frequencies) / len(frequencies))
    return samples


def write(name: str, samples: list[float], volume: float = 0.7) -> Path:
    peak = max(abs(sample) for sample in samples) or 1.0
    frames = b"".join(struct.pack("<h", int(sample / peak * volume * 32767)) for sample in samples)
    path = HERE / name
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)
    return path


def main() -> None:
    write("move.wav", knock(0.12, 820.0, 0.5, seed=1, decay=45.0))
    write("capture.wav", knock(0.09, 560.0, 0.8, seed=2, decay=40.0) + knock(0.14, 470.0, 0.8, seed=3, decay=35.0))
    write("check.wav", tones([(0.12, [880.0]), (0.18, [1175.0])], decay=9.0), volume=0.55)
    write("game_end.wav", tones([(0.18, [784.0, 988.0]), (0.18, [659.0, 831.0]), (0.4, [523.0, 659.0, 784.0])],
                                decay=5.0), volume=0.55)


if __name__ == "__main__":
    main()
