"""The layers hold: core never imports Qt or engines; engines never import the UI."""
import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPLICATION_LAYER = {"ui", "engines", "cli", "compat", "__init__", "__main__"}


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
