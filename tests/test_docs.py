"""The documentation: the README stays a short guide whose links resolve, and the MkDocs site
builds in strict mode (a broken link, anchor or API reference fails), when the docs extra is
installed (``pip install -e ".[docs]"``; CI installs it)."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_a_short_guide_whose_links_resolve():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    targets = [target for target in LINK.findall(text) if "://" not in target]
    assert targets
    missing = [target for target in targets if not (ROOT / target).exists()]
    assert not missing, f"README links to missing files: {missing}"


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason='building the docs needs the docs extra: pip install -e ".[docs]"')
def test_the_site_builds_in_strict_mode(tmp_path):
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                            str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
                           capture_output=True, text=True, cwd=ROOT, env=env, timeout=900)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    core = (site / "api" / "core" / "index.html").read_text(encoding="utf-8")
    assert "push_iccs" in core and ":func:" not in core  # generated from the docstrings, roles made code
    assert (site / "engines" / "results" / "index.html").is_file()
    assert (site / "images" / "replay.png").is_file()
