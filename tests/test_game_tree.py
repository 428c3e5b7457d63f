"""The game tree without Qt: parent links, variations, promotion, cutting, boards and plies."""
from xqdesk.fen import STARTING_FEN
from xqdesk.formats.pgn import format_pgn, parse_pgn
from xqdesk.game import ChildNode, Game
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
