"""The game tree without Qt: parent links, variations, promotion, cutting, boards and plies."""
from xqdesk.board import Board
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.pgn import format_pgn, parse_pgn
from xqdesk.game import ChildNode, Game
from xqdesk.game_visitor import GameVisitor
from xqdesk.move import Move


def m(text: str) -> Move:
    return Move.from_iccs(text)


def sample() -> tuple[Game, ChildNode, ChildNode, ChildNode]:
    game = Game.from_moves([m("h2e2"), m("h9g7"), m("h0g2")])
    first, reply, third = game.mainline()
    return game, first, reply, third


def test_nodes_know_their_parent_ply_board_and_line() -> None:
    game, first, reply, third = sample()
    assert third.parent is reply and reply.parent is first and first.parent is game
    assert [third.ply(), game.ply()] == [3, 0]
    assert third.path() == [first, reply, third] and third.moves() == [m("h2e2"), m("h9g7"), m("h0g2")]
    assert third.board().fen() == game.end_board().fen() and game.board().fen() == STARTING_FEN
    assert third.game() is game and game.end() is third and first.next() is reply
    assert game.mainline_moves() == [m("h2e2"), m("h9g7"), m("h0g2")]


def test_variations_are_added_promoted_demoted_and_removed() -> None:
    game, first, reply, _third = sample()
    side = first.add_variation(m("b9c7"))
    other = first.add_variation(m("h7e7"))
    assert side.starts_variation() and not reply.starts_variation() and not side.is_main_variation()
    assert first.variation(m("b9c7")) is side
    first.promote(other)
    assert first.variations == [reply, other, side]
    first.demote(reply)
    assert first.variations == [other, reply, side]
    first.promote_to_main(side)
    assert first.next() is side and side.is_main_variation()
    assert game.mainline_moves() == [m("h2e2"), m("b9c7")]
    first.remove_variation(side)
    assert first.variations == [other, reply]
    main = first.add_main_variation(m("c6c5"))
    assert first.next() is main


def test_cutting_removes_everything_after_a_node() -> None:
    game, first, _reply, _third = sample()
    first.add_variation(m("b9c7"))
    first.cut()
    assert first.variations == [] and len(game) == 1


def test_walks_and_equality_survive_very_deep_trees() -> None:
    game = Game()
    node = game
    moves = [m("h0g2"), m("h9g7"), m("g2h0"), m("g7h9")]
    for index in range(4000):  # a 4,000-ply line, each ply with a side variation
        node.add_variation(m("b0c2") if index % 4 == 0 else m("b9c7") if index % 4 == 1 else moves[index % 4])
        node = node.add_main_variation(moves[index % 4])
    assert len(game) == 4000 and sum(1 for _ in game.walk()) == 8001
    copy = parse_pgn(format_pgn(game)).games[0]
    assert copy.mainline_moves() == game.mainline_moves()


def test_nags_and_starting_comments_read_and_write_in_pgn() -> None:
    text = '[Event "x"]\n\n1. h2e2 $1 {good} ({or} 1. c3c4 $5) 1... h9g7 ?! *\n'
    game = parse_pgn(text).games[0]
    first = game.next()
    assert first is not None and first.nags == {1} and first.comment == "good"
    alternative = game.variations[1]
    assert alternative.starting_comment == "or" and alternative.nags == {5}
    again = parse_pgn(format_pgn(game)).games[0]
    assert again == game


class Recorder(GameVisitor[list[str]]):
    """Every call, as text: what a writer sees of a game."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def begin_game(self, game: Game) -> None:
        self.calls.append("begin")

    def visit_comment(self, text: str) -> None:
        self.calls.append("{" + text + "}")

    def visit_move(self, board: Board, move: Move) -> None:
        assert board.is_legal(move)  # the position before the move comes with it
        self.calls.append(move.iccs())

    def visit_nag(self, nag: int) -> None:
        self.calls.append(f"${nag}")

    def begin_variation(self) -> None:
        self.calls.append("(")

    def end_variation(self) -> None:
        self.calls.append(")")

    def end_game(self, game: Game) -> None:
        self.calls.append("end")

    def result(self) -> list[str]:
        return self.calls


def test_a_visitor_sees_the_game_in_record_order() -> None:
    text = ('{start} 1. h2e2 $1 {good} ({or} 1. c3c4 $5 1... c6c5 (1... h9g7) 2. b0c2) (1. b2e2) '
            '1... h9g7 2. h0g2 *\n')
    game = parse_pgn(text).games[0]
    assert game.accept(Recorder()) == [
        "begin", "{start}", "h2e2", "$1", "{good}",
        "(", "{or}", "c3c4", "$5", "c6c5", "(", "h9g7", ")", "b0c2", ")",
        "(", "b2e2", ")",
        "h9g7", "h0g2", "end"]


def test_a_visitor_walks_very_deep_nesting() -> None:
    game = Game()
    node = game
    cycle = [m("h0g2"), m("h9g7"), m("g2h0"), m("g7h9")]
    for index in range(3000):  # each alternative opens inside the one before it
        node.add_variation(m("a0a1") if index % 2 == 0 else m("a9a8"))
        node = node.add_variation(cycle[index % 4])
    calls = game.accept(Recorder())
    assert calls.count("(") == calls.count(")") == 3000


def test_a_long_game_with_variations_pickles_flat() -> None:
    import pickle

    from xqdesk.game import Game
    from xqdesk.move import Move

    game = Game.from_moves([Move.from_iccs(("h2e2", "h9g7", "e2h2", "g7h9")[ply % 4]) for ply in range(5000)],
                           headers={"Red": "a"})
    game.mainline()[5].comment = "a comment"
    game.mainline()[5].add_nag(2)
    game.mainline()[7].seconds = 1.5
    game.mainline()[2].add_variation(Move.from_iccs("b0c2"), "a variation").add_variation(Move.from_iccs("b9c7"))
    back = pickle.loads(pickle.dumps(game))  # thousands of moves deep: no recursion limit in the way
    assert back == game and back.mainline()[7].seconds == 1.5 and back.mainline()[5].nags == {2}
    assert [node.move.iccs() for node in back.mainline()[2].variations] == ["g7h9", "b0c2"]
