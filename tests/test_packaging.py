"""What a wheel carries, and that the shipped files are found wherever the package is.

The wheel is built from this checkout (setuptools, no build isolation, nothing downloaded); it is
then installed with ``pip install --target`` and ``--user`` (into a temporary folder) and its
``xqdesk`` folder zipped, and a fresh Python imports xqdesk from each of them, not from here.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hang_guard import HANG_GUARD

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("setuptools", minversion="77", reason="building the wheel needs setuptools >= 77")
    source = tmp_path_factory.mktemp("source")  # a copy, so the build leaves nothing in the checkout
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "MANIFEST.in"):
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
    with np.load(ROOT / "resources" / "networks" / "zero.npz", allow_pickle=False) as shipped:
        assert int(channels) == int(shipped["channels"])  # the package's network is the checkout's


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


SOURCE_PARTS = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "MANIFEST.in", "main.py", "mkdocs.yml",
                "constraints.txt", "CHANGELOG.md", ".ci", "xqdesk", "resources", "tests", "docs", "bench")
"""What a clean checkout holds (a copy of it is built into the source archive)."""
BUILD_LEFTOVERS = shutil.ignore_patterns("__pycache__", "*.nb[ic]", "*.py[cod]", "*.egg-info", ".pytest_cache")


def copy_of_the_source(folder: Path) -> Path:
    """``folder``, made to hold the checkout's :data:`SOURCE_PARTS` (without build leftovers)."""
    folder.mkdir()
    for name in SOURCE_PARTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, folder / name, ignore=BUILD_LEFTOVERS)
        else:
            shutil.copy2(ROOT / name, folder / name)
    return folder


def test_the_source_archive_holds_the_tests_with_their_data_and_they_run_from_it(tmp_path):
    pytest.importorskip("setuptools", minversion="77", reason="building the sdist needs setuptools >= 77")
    source = copy_of_the_source(tmp_path / "source")
    built = subprocess.run([sys.executable, "-c", "import sys\nfrom setuptools import build_meta\n"
                            "print(build_meta.build_sdist(sys.argv[1]))", str(tmp_path / "dist")],
                           capture_output=True, text=True, cwd=source, timeout=HANG_GUARD)
    assert built.returncode == 0, built.stderr[-4000:]
    archive = tmp_path / "dist" / built.stdout.split()[-1]
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        tar.extractall(tmp_path / "unpacked", filter="data")
    data = {str(path.relative_to(ROOT)) for path in (ROOT / "tests" / "data").rglob("*") if path.is_file()}
    assert data and data <= names, sorted(data - names)[:5]
    for needed in ("tests/conftest.py", "tests/hang_guard.py", "tests/datafiles.py", "docs/index.md", "mkdocs.yml",
                   "main.py", "constraints.txt", "xqdesk/cli/__init__.py", "resources/fonts/OFL.txt"):
        assert needed in names
    assert not [name for name in names if "__pycache__" in name or name.endswith((".pyc", ".nbi", ".nbc"))]
    # a test that reads tests/data, run from the unpacked archive (with this checkout's package, whose
    # engines are compiled already: the archive's own would compile for minutes first)
    unpacked = next((tmp_path / "unpacked").iterdir())
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(unpacked),
                          f"{unpacked}/tests/test_formats_xqf.py::test_full_game_with_headers_comments_and_result"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=HANG_GUARD,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert "1 passed" in ran.stdout and "preparing the compiled code" not in ran.stdout


def readme_commands() -> tuple[str, str]:
    """The README's two commands: install and start the window; install the test tools and test."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text[text.index("## The two commands"):].split("```sh\n", 1)[1].split("```", 1)[0]
    install, test = block.strip().splitlines()
    return install, test


def test_the_readme_commands_make_a_virtual_environment_and_need_no_python_command():
    """Debian and Ubuntu have ``python3`` but no ``python``, and refuse ``pip install`` outside a
    virtual environment (PEP 668): each command makes ``.venv`` with ``python3`` and runs the rest
    from it; the install command prepares the engines before it starts the window."""
    for command in readme_commands():
        steps = [shlex.split(step) for step in command.split("&&")]
        assert steps[0] == ["python3", "-m", "venv", ".venv"], command
        assert all(step[0].startswith(".venv/bin/") for step in steps[1:]), command
        assert not [word for step in steps for word in step if word in ("python", "--user")], command
    install, test = readme_commands()
    assert [step.strip() for step in install.split("&&")][-2:] == [".venv/bin/xqdesk prepare", ".venv/bin/python main.py"]
    assert test.endswith(".venv/bin/python -m pytest")
    # the install page says the same, and CI runs exactly the README's test command
    assert f"{install}\n{test}\n" in (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == test
    assert "PEP 668" in (ROOT / "docs" / "install.md").read_text(encoding="utf-8")


@pytest.mark.skipif(not os.environ.get("XQDESK_README_INSTALL"),
                    reason="installs into a new virtual environment from the package index (minutes): "
                           "set XQDESK_README_INSTALL=1")
def test_the_readme_install_command_runs_as_written_without_a_python_command(tmp_path):
    """The README's install command, step by step up to the window, in a copy of the checkout, with a
    ``PATH`` that has ``python3`` and no ``python`` (as on Debian); then the first engine move."""
    checkout = copy_of_the_source(tmp_path / "xqdesk")
    commands = tmp_path / "bin"
    commands.mkdir()
    base_python = Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    (commands / "python3").symlink_to(base_python if base_python.exists() else Path(sys.executable))
    env = installed_environment(tmp_path, PATH=f"{commands}{os.pathsep}/usr/bin{os.pathsep}/bin")
    env.pop("VIRTUAL_ENV", None)
    assert subprocess.run(["sh", "-c", "command -v python"], env=env, capture_output=True).returncode != 0
    install, _ = readme_commands()
    for step in install.split("&&"):
        if "main.py" in step:  # the window waits for a person; the display check stands in for it
            step = step.replace("main.py", "main.py --screenshot window.png")
        done = subprocess.run(step, shell=True, cwd=checkout, env=env, capture_output=True, text=True, timeout=1800)
        assert done.returncode == 0, (step, done.stdout[-2000:], done.stderr[-4000:])
    moved = subprocess.run([".venv/bin/xqdesk", "analyse", "--engine", "builtin", "--depth", "1"], cwd=checkout,
                           env=env, capture_output=True, text=True, timeout=HANG_GUARD)
    assert moved.returncode == 0 and "Best move:" in moved.stdout
    assert "Preparing" not in moved.stderr  # xqdesk prepare left it ready
