"""The course's match folders: ``Player i VS Player j/`` with ``Game n.txt`` and ``summary.txt``.

A match is six games (1–3 with player i as Red, 4–6 with player j as Red) and, when the wins are
equal, a seventh with colours drawn at random in which a draw counts as a win for Black.
``summary.txt`` (Windows line endings, none after the last line) reads::

    Playing game: Player 1 VS Player 3
    Game 1: Draw: Both sides have not eaten in sixty rounds, draw!
    Game 4: Player 1 wins by taking black: Red loses the game. Black wins!
    Game 7: Player 3 wins by taking black(draw): Both sides have not eaten in sixty rounds, draw!
    Player 1 : Player 3 is 1 : 2
    Finally Player 3 wins and Player 1 loses!

``Game n.txt`` is the ``repr`` of the game's history list, with no newline.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from xqdesk.errors import RecordFormatError
from xqdesk.formats.atomic_write import write_bytes_atomically
from xqdesk.formats.course_history import (
    HistoryEntry,
    format_course_history,
    game_from_course_history,
    history_game,
    parse_course_history,
)
from xqdesk.formats.game_file import GameFile, GameReadError, file_error
from xqdesk.formats.outcome_text import outcome_from_text
from xqdesk.formats.record_file import MAX_RECORD_BYTES, RecordFileError, read_record_bytes
from xqdesk.game import Game
from xqdesk.outcome import Outcome, Termination
from xqdesk.pieces import BLACK, RED, Color

PLAYOFF_GAME = 7
SUMMARY_NAME = "summary.txt"
# Numbers are ASCII digits, at most 9 of them (no '²', no 5,000-digit id).
_N = r"([0-9]{1,9})"
_FOLDER = re.compile(rf"^Player {_N} VS Player {_N}$")
_HEAD_LINE = re.compile(rf"^Playing game: Player {_N} VS Player {_N}$")
_GAME_LINE = re.compile(rf"^Game {_N}: (?:Draw|Player {_N} wins by taking (red|black)(\(draw\))?): (.*)$")
_SCORE_LINE = re.compile(rf"^Player {_N} : Player {_N} is {_N} : {_N}$")
_FINAL_LINE = re.compile(rf"^Finally Player {_N} wins and Player {_N} loses!$")
_GAME_FILE = re.compile(rf"^Game {_N}\.txt$")
_PLAYER = re.compile(rf"^Player {_N}$")


@dataclass(frozen=True)
class CourseGameResult:
    """One game of a match: its number (1..7), who played which colour, the winner's colour
    (None for a draw), the course's result text and the history."""

    number: int
    red_id: int
    black_id: int
    winner: Color | None
    text: str
    history: tuple[HistoryEntry, ...]

    @property
    def counts_for(self) -> int | None:
        """The id of the player this game counts as a win for; a draw in the playoff game counts
        for Black, any other draw for nobody."""
        if self.winner is None:
            return self.black_id if self.number == PLAYOFF_GAME else None
        return self.red_id if self.winner == RED else self.black_id

    def summary_line(self) -> str:
        """This game's line of ``summary.txt``."""
        winner_id = self.counts_for
        if winner_id is None:
            return f"Game {self.number}: Draw: {self.text}"
        colour = "red" if winner_id == self.red_id else "black"
        playoff_draw = "(draw)" if self.winner is None else ""
        return f"Game {self.number}: Player {winner_id} wins by taking {colour}{playoff_draw}: {self.text}"


@dataclass(frozen=True)
class CourseMatch:
    """A match between players ``player_i`` < ``player_j`` (ids as the course numbers groups)."""

    player_i: int
    player_j: int
    games: tuple[CourseGameResult, ...]

    @property
    def folder_name(self) -> str:
        low, high = sorted((self.player_i, self.player_j))
        return f"Player {low} VS Player {high}"

    def wins(self, player_id: int) -> int:
        """How many games count as won by ``player_id`` (the playoff draw counts for Black)."""
        return sum(1 for game in self.games if game.counts_for == player_id)

    @property
    def wins_i(self) -> int:
        return self.wins(self.player_i)

    @property
    def wins_j(self) -> int:
        return self.wins(self.player_j)

    @property
    def winner_id(self) -> int | None:
        """The player with more wins, or None while the wins are equal."""
        if self.wins_i == self.wins_j:
            return None
        return self.player_i if self.wins_i > self.wins_j else self.player_j

    @property
    def loser_id(self) -> int | None:
        winner = self.winner_id
        if winner is None:
            return None
        return self.player_j if winner == self.player_i else self.player_i

    def summary_text(self) -> str:
        """``summary.txt`` exactly as the course writes it (``\\r\\n``, no final line ending).
        Raises RecordFormatError when the match has no winner yet."""
        if self.winner_id is None:
            raise RecordFormatError(f"{self.folder_name}: the match is undecided at "
                                    f"{self.wins_i} : {self.wins_j}; the course writes only decided matches")
        lines = [f"Playing game: Player {self.player_i} VS Player {self.player_j}"]
        lines += [game.summary_line() for game in sorted(self.games, key=lambda game: game.number)]
        lines.append(f"Player {self.player_i} : Player {self.player_j} is {self.wins_i} : {self.wins_j}")
        lines.append(f"Finally Player {self.winner_id} wins and Player {self.loser_id} loses!")
        return "\r\n".join(lines)


def seat_ids(match_i: int, match_j: int, number: int) -> tuple[int, int]:
    """(Red's id, Black's id) for games 1–6: player i is Red in 1–3, player j in 4–6."""
    return (match_i, match_j) if number <= 3 else (match_j, match_i)


def write_course_match(parent_dir: str | Path, match: CourseMatch) -> Path:
    """Write ``Player i VS Player j/`` under ``parent_dir`` in the course's exact format; return
    the folder."""
    folder = Path(parent_dir) / match.folder_name
    summary = match.summary_text()
    folder.mkdir(parents=True, exist_ok=True)
    for game in match.games:
        write_bytes_atomically(folder / f"Game {game.number}.txt",
                               format_course_history(game.history).encode("ascii"))
    write_bytes_atomically(folder / SUMMARY_NAME, summary.encode("utf-8"))
    return folder


def parse_folder_name(name: str) -> tuple[int, int]:
    """The two ids in ``'Player i VS Player j'``; raises RecordFormatError otherwise."""
    match = _FOLDER.match(name.strip())
    if match is None:
        raise RecordFormatError(f"{name!r} is not a course match folder name like 'Player 1 VS Player 3'")
    return int(match.group(1)), int(match.group(2))


def parse_summary(text: str, source: str = SUMMARY_NAME) -> tuple[int, int, dict[int, tuple[int, int, Color | None, str]], tuple[int, int]]:
    """Parse a summary: (player i, player j, {game number: (red id, black id, winner, text)},
    (wins i, wins j) as the summary states them). Raises RecordFormatError naming the line."""
    summary = read_summary(text, source)
    if summary.problems:
        raise summary.problems[0]
    if summary.players is None or summary.stated_score is None:
        raise RecordFormatError(f"{source}: no 'Player i : Player j is a : b' line")
    return summary.players[0], summary.players[1], summary.games, summary.stated_score


@dataclass
class Summary:
    """What a ``summary.txt`` says, read line by line: a bad line is a problem, not the end.
    ``final`` is the winner and loser its "Finally" line names, with that line's number."""

    players: tuple[int, int] | None
    games: dict[int, tuple[int, int, Color | None, str]]
    stated_score: tuple[int, int] | None
    final: tuple[int, int, int] | None
    problems: list[RecordFormatError]


def read_summary(text: str, source: str = SUMMARY_NAME) -> Summary:
    """Every line of a summary that can be read, and a problem (naming the line) for each that cannot."""
    summary = Summary(None, {}, None, None, [])
    numbered = [(number, line.strip()) for number, line in
                enumerate(text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n"), start=1) if line.strip()]
    if not numbered:
        summary.problems.append(RecordFormatError(f"{source}: empty summary"))
        return summary
    first_number, first = numbered[0]
    head = _HEAD_LINE.match(first)
    if head is None:
        summary.problems.append(RecordFormatError(f"{source}, line {first_number}: {_clip(first)!r} is not "
                                                  f"'Playing game: Player i VS Player j'"))
        return summary
    player_i, player_j = int(head.group(1)), int(head.group(2))
    summary.players = (player_i, player_j)
    for line_number, line in numbered[1:]:
        try:
            if game_match := _GAME_LINE.match(line):
                number = int(game_match.group(1))
                winner_id, colour, playoff_draw, result_text = (game_match.group(2), game_match.group(3),
                                                                game_match.group(4), game_match.group(5))
                summary.games[number] = _seats_from_line(player_i, player_j, number, winner_id, colour,
                                                         bool(playoff_draw), result_text, f"{source}, line {line_number}")
            elif score := _SCORE_LINE.match(line):
                summary.stated_score = (int(score.group(3)), int(score.group(4)))
            elif final := _FINAL_LINE.match(line):
                summary.final = (int(final.group(1)), int(final.group(2)), line_number)
            else:
                raise RecordFormatError(f"{source}, line {line_number}: unexpected line {_clip(line)!r}")
        except RecordFormatError as problem:
            summary.problems.append(problem)
    return summary


def _clip(text: str, size: int = 60) -> str:
    return text if len(text) <= size else text[:size] + "…"


def _seats_from_line(player_i: int, player_j: int, number: int, winner_id: str | None, colour: str | None,
                     playoff_draw: bool, text: str, where: str) -> tuple[int, int, Color | None, str]:
    if winner_id is None:
        if number == PLAYOFF_GAME:
            raise RecordFormatError(f"{where}: game 7 cannot be a plain draw (a draw counts for Black)")
        red_id, black_id = seat_ids(player_i, player_j, number)
        return red_id, black_id, None, text
    winner = int(winner_id)
    if winner not in (player_i, player_j):
        raise RecordFormatError(f"{where}: player {winner} does not play in this match")
    other = player_j if winner == player_i else player_i
    red_id, black_id = (winner, other) if colour == "red" else (other, winner)
    if number != PLAYOFF_GAME and (red_id, black_id) != seat_ids(player_i, player_j, number):
        raise RecordFormatError(f"{where}: player {winner} cannot have played {colour} in game {number}")
    if playoff_draw:
        return red_id, black_id, None, text
    return red_id, black_id, (RED if colour == "red" else BLACK), text


def read_course_match(folder: str | Path) -> CourseMatch:
    """Read a match folder. Raises RecordFormatError when the summary is malformed, a game file is
    missing or unparsable, or the stated score disagrees with the game lines."""
    folder = Path(folder)
    summary_path = folder / SUMMARY_NAME
    if not summary_path.is_file():
        raise RecordFormatError(f"{folder.name}: no {SUMMARY_NAME} in the match folder")
    source = f"{folder.name}/{SUMMARY_NAME}"
    player_i, player_j, lines, stated_score = parse_summary(
        summary_path.read_bytes().decode("utf-8", errors="replace"), source)
    numbers = set(lines) | {int(m.group(1)) for path in folder.iterdir() if (m := _GAME_FILE.match(path.name))}
    games = []
    for number in sorted(numbers):
        game_path = folder / f"Game {number}.txt"
        if number not in lines:
            raise RecordFormatError(f"{folder.name}: {game_path.name} has no line in {SUMMARY_NAME}")
        if not game_path.is_file():
            raise RecordFormatError(f"{folder.name}: {SUMMARY_NAME} lists game {number} but {game_path.name} is missing")
        try:
            history = parse_course_history(game_path.read_bytes().decode("utf-8", errors="replace"))
        except RecordFormatError as error:
            raise RecordFormatError(f"{folder.name}/{game_path.name}: {error}") from None
        red_id, black_id, winner, text = lines[number]
        games.append(CourseGameResult(number, red_id, black_id, winner, text, tuple(history)))
    match = CourseMatch(player_i, player_j, tuple(games))
    if (match.wins_i, match.wins_j) != stated_score:
        raise RecordFormatError(f"{source}: the summary states {stated_score[0]} : {stated_score[1]} but its "
                                f"game lines give {match.wins_i} : {match.wins_j}")
    return match


def is_course_match_folder(path: str | Path) -> bool:
    """True for a folder holding a course ``summary.txt``."""
    return Path(path).is_dir() and (Path(path) / SUMMARY_NAME).is_file()


def match_games(match: CourseMatch, source: str | None = None) -> GameFile:
    """The games of a match as game records (headers Event, Round, Red, Black, Result; the outcome
    the summary states), each history replayed and checked under the course's rules."""
    source = source or match.folder_name
    result = GameFile(source, encoding="utf-8")
    for game_result in sorted(match.games, key=lambda game: game.number):
        game, error = game_from_course_history(game_result.history, f"{source}/Game {game_result.number}.txt",
                                               game_result.number)
        outcome = outcome_from_text(game_result.text) or Outcome(Termination.ADJUDICATION, game_result.winner,
                                                                 game_result.text)
        game.headers = {"Event": match.folder_name, "Round": str(game_result.number),
                        "Red": f"Player {game_result.red_id}", "Black": f"Player {game_result.black_id}",
                        "Result": outcome.result()}
        game.outcome = outcome
        result.games.append(game)
        if error is not None:
            result.errors.append(error)
    return result


def read_match_games(folder: str | Path, max_bytes: int = MAX_RECORD_BYTES) -> GameFile:
    """Read a match folder as games, game by game: an unreadable ``Game n.txt`` costs only that game
    (a history damaged part way keeps its moves up to the damage), and a problem in ``summary.txt``
    (a bad line, a score or a "Finally" line that disagrees with the games) is reported without
    losing a game. Each game gets headers Event, Round, Red, Black and Result from the summary."""
    folder = Path(folder)
    name = folder.name
    result = GameFile(name, encoding="utf-8")
    summary_source = f"{name}/{SUMMARY_NAME}"
    try:
        summary_text = read_record_bytes(folder / SUMMARY_NAME, max_bytes).decode("utf-8", errors="replace")
    except RecordFileError as error:
        result.errors.append(file_error(name, SUMMARY_NAME, error.reason))
        summary_text = ""
    summary = read_summary(summary_text, summary_source) if summary_text else Summary(None, {}, None, None, [])
    result.errors.extend(file_error(name, SUMMARY_NAME, _after(str(problem), summary_source))
                         for problem in summary.problems)
    try:
        files = {int(m.group(1)) for path in folder.iterdir() if (m := _GAME_FILE.match(path.name))}
    except OSError as error:
        result.errors.append(file_error(name, "whole folder", f"cannot list the folder: {error.strerror or error}"))
        files = set()
    players = summary.players or _folder_players(name)
    won: list[CourseGameResult] = []
    for number in sorted(set(summary.games) | files):
        file_name = f"Game {number}.txt"
        line = summary.games.get(number)
        if number not in files:
            result.errors.append(file_error(name, file_name, f"{SUMMARY_NAME} lists game {number} but {file_name} "
                                                             f"is missing"))
            continue
        index = len(result.games) + 1
        try:
            text = read_record_bytes(folder / file_name, max_bytes).decode("utf-8", errors="replace")
        except RecordFileError as error:
            result.errors.append(GameReadError(name, index, file_name, "", error.reason))
            continue
        game, problem = history_game(text, f"{name}/{file_name}", index)
        if problem is not None:
            result.errors.append(problem)
        if line is None:
            result.errors.append(GameReadError(name, index, file_name, "", f"game {number} has no line in "
                                                                            f"{SUMMARY_NAME}"))
            red_id, black_id = seat_ids(*players, number) if players else (0, 0)
            game.headers = {"Event": name, "Round": str(number)}
            if players:
                game.headers.update({"Red": f"Player {red_id}", "Black": f"Player {black_id}"})
        else:
            red_id, black_id, winner, outcome_text = line
            outcome = outcome_from_text(outcome_text) or Outcome(Termination.ADJUDICATION, winner, outcome_text)
            game.headers = {"Event": name, "Round": str(number), "Red": f"Player {red_id}",
                            "Black": f"Player {black_id}", "Result": outcome.result()}
            game.outcome = outcome
            won.append(CourseGameResult(number, red_id, black_id, winner, outcome_text, ()))
        result.games.append(game)
    if summary.players is not None:
        _check_totals(CourseMatch(summary.players[0], summary.players[1], tuple(won)), summary, name, result)
    return result


def _check_totals(match: CourseMatch, summary: Summary, name: str, result: GameFile) -> None:
    """Report a stated score or "Finally" line that the summary's own game lines contradict."""
    if summary.stated_score is None:
        result.errors.append(file_error(name, SUMMARY_NAME, "no 'Player i : Player j is a : b' line"))
    elif (match.wins_i, match.wins_j) != summary.stated_score:
        result.errors.append(file_error(name, SUMMARY_NAME, f"the summary states {summary.stated_score[0]} : "
                                        f"{summary.stated_score[1]} but its game lines give {match.wins_i} : {match.wins_j}"))
    if summary.final is None:
        result.errors.append(file_error(name, SUMMARY_NAME, "no 'Finally Player i wins and Player j loses!' line"))
        return
    winner, loser, line_number = summary.final
    if (winner, loser) != (match.winner_id, match.loser_id):
        expected = (f"Player {match.winner_id} wins and Player {match.loser_id} loses" if match.winner_id is not None
                    else f"no winner ({match.wins_i} : {match.wins_j})")
        result.errors.append(file_error(name, f"{SUMMARY_NAME}, line {line_number}",
                                        f"says Player {winner} wins and Player {loser} loses, but the game lines "
                                        f"give {expected}"))


def _folder_players(name: str) -> tuple[int, int] | None:
    try:
        return parse_folder_name(name)
    except RecordFormatError:
        return None


def _after(message: str, prefix: str) -> str:
    return message.removeprefix(prefix).removeprefix(", ").removeprefix(": ")


def match_from_games(games: Sequence[Game]) -> CourseMatch:
    """The match whose games these are: each needs headers Red and Black ``'Player N'``, Round (the
    game number) and an outcome. Raises RecordFormatError when one is missing."""
    results = []
    players: set[int] = set()
    for index, game in enumerate(games, start=1):
        red = _PLAYER.match(game.headers.get("Red", ""))
        black = _PLAYER.match(game.headers.get("Black", ""))
        number = game.headers.get("Round", "")
        if red is None or black is None or not (number.isascii() and number.isdigit() and len(number) <= 9):
            raise RecordFormatError(f"game {index} cannot go in a course match folder: it needs headers "
                                    f"Red and Black like 'Player 3' and Round (the game number), has "
                                    f"{game.headers!r}")
        red_id, black_id = int(red.group(1)), int(black.group(1))
        if game.outcome is None:
            raise RecordFormatError(f"game {index} (round {number}) cannot go in a course match folder: no outcome")
        players |= {red_id, black_id}
        results.append(CourseGameResult(int(number), red_id, black_id, game.outcome.winner, game.outcome.text,
                                        tuple(game.course_history())))
    if len(players) != 2:
        raise RecordFormatError(f"a course match is between two players; these games have {sorted(players)!r}")
    low, high = sorted(players)
    return CourseMatch(low, high, tuple(results))
