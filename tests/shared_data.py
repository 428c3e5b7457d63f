"""Where the shared test data lives: the ``shared/data`` folder beside the checkout (read-only)."""
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
COURSE_VECTORS = DATA / "course_legal_vectors.jsonl"
GAMES = DATA / "games"
