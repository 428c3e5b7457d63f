"""Finding the files xqdesk ships beside its code: fonts, sounds, the ``zero`` network, icons.

They live in the repository's top-level ``resources/`` folder; a wheel carries that folder inside
the package as ``xqdesk/resources/`` (``setup.py`` maps it), so they are read through
:mod:`importlib.resources` wherever the package is: a virtual environment, ``pip install --user``,
``pip install --target``, a zip file. A checkout run without installing (or an editable install)
reads ``resources/`` beside the ``xqdesk`` folder. The environment variable ``XQDESK_RESOURCES``
names a folder that is looked in first.
"""
from __future__ import annotations

import os
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

RESOURCES_ENV = "XQDESK_RESOURCES"
"""The environment variable naming a folder looked in before the shipped resources."""


def _roots() -> list[Traversable]:
    roots: list[Traversable] = []
    override = os.environ.get(RESOURCES_ENV)
    if override:
        roots.append(Path(override))
    package = resources.files("xqdesk")
    roots.append(package / "resources")  # an installed wheel (a folder or a zip file)
    if isinstance(package, Path):
        roots.append(package.parent / "resources")  # a checkout
    return roots


def resource(relative: str) -> Traversable:
    """The shipped file ``relative`` (like ``'fonts/XqdeskKai-Bold.ttf'``), to read with
    ``read_bytes()`` or to hand to :func:`importlib.resources.as_file` where a real path is
    needed. FileNotFoundError, naming every place looked in, when there is no such file."""
    tried = []
    for root in _roots():
        candidate = root
        for part in relative.split("/"):
            candidate = candidate / part
        if candidate.is_file():
            return candidate
        tried.append(str(candidate))
    raise FileNotFoundError(f"xqdesk resource {relative!r} not found; looked in: {', '.join(tried)}")


def read_resource(relative: str) -> bytes:
    """The contents of the shipped file ``relative`` (FileNotFoundError as :func:`resource`)."""
    return resource(relative).read_bytes()
