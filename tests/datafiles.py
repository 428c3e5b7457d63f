"""Where the test data lives: ``tests/data`` inside the repository, so a clone alone passes its tests."""
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
COURSE_VECTORS = DATA / "course_legal_vectors.jsonl"
GAMES = DATA / "games"
