"""Fog-of-war Xiangqi: the :data:`~xqdesk.ruleset.FOG` ruleset (no check; capturing the general
wins) and what each side sees of the board (:mod:`.observation`). Qt-free core."""
from xqdesk.ruleset import FOG
from xqdesk.variants.fog.game import FogGameRecord, start_board, views
from xqdesk.variants.fog.observation import Cells, Observation, diagram, material, observe, seen_square_names, sight
from xqdesk.variants.fog.text import format_view, parse_view

__all__ = ["FOG", "Cells", "Observation", "observe", "sight", "material", "seen_square_names", "diagram",
           "FogGameRecord", "start_board", "views", "format_view", "parse_view"]
