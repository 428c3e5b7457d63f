"""A Griffe extension for the API pages: the docstrings are written in reStructuredText habits
(``:func:`name``` roles, ``::`` before an example, simple tables between ``====`` rules), which the
Markdown renderer would print as they are. This turns roles into code spans, ``::`` into ``:``, and
puts each simple table in a preformatted block, so it keeps its columns."""
from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const|ref|term):`(~?)([^`]+)`")
RULE = re.compile(r"^\s*=+(\s+=+)+\s*$")


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def markdown_docstring(text: str) -> str:
    """``text`` with its reStructuredText habits made Markdown (see the module docstring)."""
    text = ROLE.sub(_role, text)
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        rules = [number for number in range(index, len(lines)) if RULE.match(lines[number])][:3]
        if RULE.match(line) and len(rules) == 3:
            out += ["```text", *lines[rules[0]:rules[2] + 1], "```"]
            index = rules[2] + 1
            continue
        out.append(line[:-1] if line.endswith("::") and not line.strip() == "::" else line)
        index += 1
    return "\n".join(out)


class RestructuredTextHabits(Extension):
    """Rewrites every docstring with :func:`markdown_docstring` when Griffe reads it."""

    def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
