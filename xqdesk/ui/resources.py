"""Finding the files xqdesk ships beside its code (fonts, icons).

In a checkout (or an editable install) they live in ``resources/`` at the top of the repository;
an installed wheel puts them under ``<prefix>/share/xqdesk/`` (see ``pyproject.toml``). The
environment variable ``XQDESK_RESOURCES`` overrides both.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

RESOURCES_ENV = "XQDESK_RESOURCES"


def _candidate_roots() -> list[Path]:
    roots = []
    override = os.environ.get(RESOURCES_ENV)
    if override:
        roots.append(Path(override))
    package_dir = Path(__file__).resolve().parent.parent  # .../xqdesk
    roots.append(package_dir.parent / "resources")  # checkout
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        roots.append(Path(prefix) / "share" / "xqdesk")  # installed data files
    return roots


def resource_path(relative: str) -> Path:
    """The path of the shipped resource ``relative`` (like ``'fonts/XqdeskKai-Bold.ttf'``).

    Raises FileNotFoundError, naming every place looked in, when no root holds it.
    """
    tried = []
    for root in _candidate_roots():
        candidate = root / relative
        if candidate.is_file():
            return candidate
        tried.append(str(candidate))
    raise FileNotFoundError(f"xqdesk resource {relative!r} not found; looked in: {', '.join(tried)}")
