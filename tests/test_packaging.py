"""What a wheel carries, and that the shipped files are found wherever the package is.

The wheel is built from this checkout (setuptools, no build isolation, nothing downloaded); its
``xqdesk`` folder is then zipped and imported from the zip by a fresh Python, the hardest of the
installs (``pip install --user`` and ``--target`` leave an ordinary folder).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hang_guard import HANG_GUARD

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("setuptools", minversion="77", reason="building the wheel needs setuptools >= 77")
    source = tmp_path_factory.mktemp("source")  # a copy, so the build leaves nothing in the checkout
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    for folder in ("xqdesk", "resources"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.nb[ic]"))
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "--no-index", "-v", "-w", str(out), str(source)],
                           capture_output=True, text=True, timeout=600, cwd=out)
    output = (built.stdout + built.stderr).lower()
    assert built.returncode == 0, output[-4000:]
    for warning in ("deprecat", "importable package", "setuptoolswarning"):  # setuptools' warnings (seen with -v)
        assert warning not in output, output[output.index(warning) - 1500:][:3000]
    (path,) = out.glob("xqdesk-*.whl")
    return path


def test_the_wheel_ships_resources_license_and_type_information(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in ("fonts/XqdeskKai-Bold.ttf", "fonts/XqdeskSans-Regular.otf", "fonts/OFL.txt",
                    "sounds/move.wav", "sounds/capture.wav", "sounds/check.wav", "sounds/game_end.wav",
                    "networks/zero.npz", "icons/xqdesk.svg", "icons/xqdesk.png"):
        assert f"xqdesk/resources/{shipped}" in names
    assert "xqdesk/py.typed" in names
    assert "xqdesk/engines/builtin/eval_weights.json" in names
    assert not [name for name in names if name.startswith("xqdesk/resources/") and name.endswith(".py")]
    info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
    assert f"{info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode()
    assert "License-Expression: MIT AND OFL-1.1" in metadata
    assert "Requires-Dist: numpy<3,>=2.4" in metadata  # a range, not a pin
    assert not any(".data/data/" in name for name in names)  # nothing outside the package


def test_a_zipped_package_reads_its_resources_and_weights(wheel, tmp_path):
    archive = tmp_path / "xqdesk.zip"
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(archive, "w") as target:
        for name in source.namelist():
            if name.startswith("xqdesk/"):
                target.writestr(name, source.read(name))
    script = (
        "import xqdesk, sys\n"
        "from xqdesk.resource_files import read_resource\n"
        "from xqdesk.engines.builtin.eval_tables import WEIGHTS\n"
        "from xqdesk.engines.zero.engine import load_shipped_network\n"
        "assert xqdesk.__file__.startswith(sys.argv[1]), xqdesk.__file__\n"
        "print(len(read_resource('fonts/XqdeskKai-Bold.ttf')), WEIGHTS.midgame.terms['tempo'],\n"
        "      load_shipped_network().channels)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(archive)}
    env.pop("XQDESK_RESOURCES", None)
    ran = subprocess.run([sys.executable, "-c", script, str(archive)], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=HANG_GUARD)
    assert ran.returncode == 0, ran.stderr
    font_bytes, tempo, channels = ran.stdout.split()
    assert int(tempo) >= 0
    assert int(font_bytes) == (ROOT / "resources" / "fonts" / "XqdeskKai-Bold.ttf").stat().st_size
    assert int(channels) == 32


def test_resources_are_found_from_the_checkout_or_an_override(tmp_path, monkeypatch):
    from xqdesk.resource_files import RESOURCES_ENV, read_resource, resource

    assert read_resource("fonts/XqdeskKai-Bold.ttf") == (ROOT / "resources/fonts/XqdeskKai-Bold.ttf").read_bytes()
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "XqdeskKai-Bold.ttf").write_bytes(b"x")
    monkeypatch.setenv(RESOURCES_ENV, str(tmp_path))
    assert resource("fonts/XqdeskKai-Bold.ttf") == tmp_path / "fonts" / "XqdeskKai-Bold.ttf"
    with pytest.raises(FileNotFoundError, match="no-such-font.ttf"):
        resource("fonts/no-such-font.ttf")


def test_the_version_is_the_package_version():
    from xqdesk import __version__

    shown = subprocess.run([sys.executable, "-m", "xqdesk", "--version"], capture_output=True, text=True,
                           timeout=HANG_GUARD, cwd=ROOT)
    assert shown.returncode == 0 and shown.stdout.strip() == f"xqdesk {__version__}"
