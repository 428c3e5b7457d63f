"""One game between two seats: the seat interface (:mod:`.game_player`), the seats (an engine
process, a course player, a person), the one game runner under the rules and the clocks, and the
referee loop over it (also in a forked child)."""
