"""The package type-checks: mypy, configured in pyproject.toml, reports no error."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_error() -> None:
    checked = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, f"mypy reports:\n{checked.stdout}{checked.stderr}"
