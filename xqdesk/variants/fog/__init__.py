"""Fog-of-war Xiangqi: the :data:`~xqdesk.ruleset.FOG` ruleset (no check; capturing the general
wins) and what each side sees of the board (:mod:`.observation`). Qt-free core."""
from xqdesk.ruleset import FOG
from xqdesk.variants.fog.game import FogGameRecord, FogSeat, play_fog_game, start_board
from xqdesk.variants.fog.observation import (Cells, Observation, diagram, material, observe, seen_square_names,
                                           sight)

__all__ = ["FOG", "Cells", "Observation", "observe", "sight", "material", "seen_square_names", "diagram",
           "FogSeat", "FogGameRecord", "play_fog_game", "start_board"]
