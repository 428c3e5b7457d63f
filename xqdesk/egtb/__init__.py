"""Endgame tablebases: every position of small endgames solved by retrograde analysis.

``build`` writes tables, :class:`Tablebase` reads them. See :mod:`xqdesk.egtb.generate` for the
method and what the tables assume, :mod:`xqdesk.egtb.fileformat` for the files.
"""
from xqdesk.egtb.generate import BuildReport, build
from xqdesk.egtb.probe import MissingTableError, Tablebase, TableValue
from xqdesk.egtb.signature import Signature, SignatureError

__all__ = ["BuildReport", "MissingTableError", "Signature", "SignatureError", "TableValue", "Tablebase", "build"]
