"""The layers hold: core never imports Qt or engines; engines never import the UI."""
import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPLICATION_LAYER = {"ui", "engines", "engine", "cli", "compat", "__init__", "__main__"}


def core_module_names() -> set[str]:
    """Every top-level module and package of xqdesk that belongs to the core."""
    names = set()
    for path in (ROOT / "xqdesk").iterdir():
        name = path.stem if path.suffix == ".py" else path.name
        if (path.suffix == ".py" or (path / "__init__.py").exists()) and name not in APPLICATION_LAYER:
            names.add(f"xqdesk.{name}")
    return names


def test_every_core_module_is_under_the_import_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contract = config["tool"]["importlinter"]["contracts"][0]
    assert core_module_names() <= set(contract["source_modules"]), "add new core modules to pyproject.toml"


def test_import_contracts_are_kept():
    result = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_importing_core_and_engines_loads_no_qt():
    code = ("import sys, xqdesk, xqdesk.engines, xqdesk.compat; "
            "import xqdesk.board, xqdesk.fen, xqdesk.notation; "
            "print(sorted(m for m in sys.modules if m.startswith('PySide6')))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_only_the_ui_imports_qt():
    """Qt is the UI's: the command line reaches it only through xqdesk.ui (lazily, per command)."""
    offenders = []
    for path in sorted((ROOT / "xqdesk").rglob("*.py")):
        if (ROOT / "xqdesk" / "ui") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "PySide6" or name.startswith("PySide6.") for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_the_import_graph_has_no_circle():
    """No module imports, directly or through others, a module that imports it (imports made
    only for type checking aside): every room can be read, tested and moved from the bottom up."""
    import grimp

    graph = grimp.build_graph("xqdesk", exclude_type_checking_imports=True)
    circles = sorted({(module, imported) for module in graph.modules
                      for imported in graph.find_modules_directly_imported_by(module)
                      if imported.startswith("xqdesk") and imported != module
                      and module in graph.find_upstream_modules(imported)})
    assert not circles, f"imports that close a circle (module, imported): {circles}"


@pytest.mark.parametrize("container", ["engines", "ui"])
def test_every_room_is_in_its_layers_contract(container):
    """Each module and package directly under ``xqdesk.engines`` and ``xqdesk.ui`` stands in a
    layer, so a new room (or a module of the window's shell) cannot import upwards unnoticed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contract = next(contract for contract in config["tool"]["importlinter"]["contracts"]
                    if contract.get("containers") == [f"xqdesk.{container}"])
    layered = {name.strip() for layer in contract["layers"] for name in re.split(r"[:|]", layer)}
    rooms = {path.stem if path.suffix == ".py" else path.name for path in (ROOT / "xqdesk" / container).iterdir()
             if (path.suffix == ".py" or (path / "__init__.py").exists()) and path.stem != "__init__"}
    assert rooms <= layered, f"add to the {container} layers contract in pyproject.toml: {sorted(rooms - layered)}"


def test_the_window_keeps_its_modules_in_rooms():
    """Only the shell (the window, its start and menus) sits at the top of ``xqdesk/ui``; every
    feature's module lives in a room of its own."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contract = next(contract for contract in config["tool"]["importlinter"]["contracts"]
                    if contract.get("containers") == ["xqdesk.ui"])
    shell = {name.strip() for name in re.split(r"[:|]", contract["layers"][0])}
    top = {path.stem for path in (ROOT / "xqdesk" / "ui").glob("*.py")} - {"__init__"}
    assert top == shell, f"a module at the top of xqdesk/ui that is not the shell: {sorted(top - shell)}"
    rooms = [path for path in (ROOT / "xqdesk" / "ui").iterdir() if (path / "__init__.py").exists()]
    assert all(not any(child.is_dir() and child.name != "__pycache__" for child in room.iterdir()) for room in rooms), \
        "rooms are one level deep"


def test_the_window_reaches_engine_processes_only_through_the_play_layer():
    """The engine worker and the live game's room ask the play layer's engine seat for moves and
    analyses (``EnginePlayer.think``, ``EnginePlayer.analyse``): none of them imports the
    transport, not even for type checking."""
    offenders = []
    paths = [ROOT / "xqdesk" / "ui" / "engines" / "engine_worker.py", *sorted((ROOT / "xqdesk" / "ui" / "game").glob("*.py"))]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "xqdesk.engines.transport" or name.startswith("xqdesk.engines.transport.") for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
    import grimp

    graph = grimp.build_graph("xqdesk")
    imported = graph.find_modules_directly_imported_by("xqdesk.ui.engines.engine_worker")
    assert "xqdesk.engines.play.engine_player" in imported
    assert not {module for module in imported if module.startswith("xqdesk.engines.transport")}
