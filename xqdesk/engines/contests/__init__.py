"""Many games: scheduled matches and the course match, round-robin tournaments, Elo arithmetic
for their results, and batches of work on a Ray cluster."""
