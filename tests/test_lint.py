"""The code passes the linter configured in pyproject.toml (pyflakes, bugbear, import sorting):
unused imports, stale ``__all__`` entries, repeated dictionary keys and loop variables captured
late are caught here rather than by a user."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
