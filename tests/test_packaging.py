"""What a wheel carries, and that the shipped files are found wherever the package is.

The wheel is built from this checkout (setuptools, no build isolation, nothing downloaded); it is
then installed with ``pip install --target`` and ``--user`` (into a temporary folder) and its
``xqdesk`` folder zipped, and a fresh Python imports xqdesk from each of them, not from here.
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
                    "networks/zero.npz", "icons/xqdesk.svg", "icons/xqdesk.png", "book/masters.npz", "book/PROVENANCE.md"):
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


SHIPPED_FILES_SCRIPT = (
    "import xqdesk, sys\n"
    "from xqdesk.resource_files import read_resource\n"
    "from xqdesk.engines.builtin.eval_tables import WEIGHTS\n"
    "from xqdesk.engines.zero.engine import load_shipped_network\n"
    "assert xqdesk.__file__.startswith(sys.argv[1]), xqdesk.__file__\n"
    "print(len(read_resource('fonts/XqdeskKai-Bold.ttf')), WEIGHTS.midgame.terms['tempo'],\n"
    "      load_shipped_network().channels)\n"
)
"""Run with the installed package's location: checks that xqdesk comes from there and prints what
it read of its shipped files (a font's size, an evaluation weight, the ``zero`` network's width)."""


def installed_environment(tmp_path: Path, **changes: str) -> dict[str, str]:
    """This environment for a process that must import an installed xqdesk, not this checkout:
    no checkout on ``PYTHONPATH``, no resource override, numba's user cache in ``tmp_path``."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), **changes}
    for name in ("XQDESK_RESOURCES", "PYTHONNOUSERSITE", *([] if "PYTHONPATH" in changes else ["PYTHONPATH"])):
        env.pop(name, None)
    return env


def check_shipped_files(location: Path, env: dict[str, str], cwd: Path) -> None:
    ran = subprocess.run([sys.executable, "-c", SHIPPED_FILES_SCRIPT, str(location)], capture_output=True,
                         text=True, env=env, cwd=cwd, timeout=HANG_GUARD)
    assert ran.returncode == 0, ran.stderr
    font_bytes, tempo, channels = ran.stdout.split()
    assert int(tempo) >= 0
    assert int(font_bytes) == (ROOT / "resources" / "fonts" / "XqdeskKai-Bold.ttf").stat().st_size
    assert int(channels) == 32


def test_a_zipped_package_reads_its_resources_and_weights(wheel, tmp_path):
    archive = tmp_path / "xqdesk.zip"  # numba caches compiled code from an archive named *.zip only
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(archive, "w") as target:
        for name in source.namelist():
            if name.startswith("xqdesk/"):
                target.writestr(name, source.read(name))
    check_shipped_files(archive, installed_environment(tmp_path, PYTHONPATH=str(archive)), tmp_path)


@pytest.mark.parametrize("how", ["--target", "--user"])
def test_a_target_or_user_install_reads_its_files_and_opens_the_window(wheel, tmp_path, how):
    if how == "--user" and sys.prefix != sys.base_prefix:
        pytest.skip("pip does not install --user from a virtual environment (it hides the user site)")
    folder = tmp_path / "installed"
    env = installed_environment(tmp_path, **({"PYTHONPATH": str(folder)} if how == "--target"
                                             else {"PYTHONUSERBASE": str(folder)}))
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                                *([how, str(folder)] if how == "--target" else [how]), str(wheel)],
                               capture_output=True, text=True, timeout=600, cwd=tmp_path,
                               env={**env, "PIP_BREAK_SYSTEM_PACKAGES": "1"})  # a system Python's pip asks for it
    assert installed.returncode == 0, installed.stdout + installed.stderr
    check_shipped_files(folder, env, tmp_path)

    # the window, started as the command starts it, on a record (its fonts and icon from the install)
    record = ROOT / "tests" / "data" / "games" / "xqf" / "cchess_030-黄松轩先胜冯敬如.XQF"
    shown = subprocess.run([sys.executable, "-m", "xqdesk", "--screenshot", "window.png", str(record)],
                           capture_output=True, text=True, env={**env, "QT_QPA_PLATFORM": "offscreen"},
                           cwd=tmp_path, timeout=HANG_GUARD)
    assert shown.returncode == 0, shown.stderr
    assert (tmp_path / "window.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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
