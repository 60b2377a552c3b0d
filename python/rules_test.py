"""The rules calls, levels of play and the principal variation (pytest):
whole games played through the module's calls alone, no string splicing,
and each bad move's exception and message."""

import pytest

import mnk

TTT = mnk.Game(3, 3, 3)
C4 = mnk.Game(7, 6, 4, gravity=True)
G4 = mnk.Game(4, 4, 4, gravity=True)


def play_game(game, table, levels, seed):
    """A game from the empty board, X at levels[0] and O at levels[1], by
    the rules calls: its winner and its moves."""
    position = game.from_moves("")
    moves = []
    while not game.is_over(position):
        level = levels[0 if game.to_move(position) == "X" else 1]
        cell = table.choose(position, level=level, seed=seed)
        assert cell in game.legal_moves(position)
        position = game.play(position, cell)
        moves.append(cell)
    assert game.legal_moves(position) == []
    return game.winner(position), moves


def test_rules_of_a_position():
    assert TTT.to_move("X../.O./...") == "X"
    assert TTT.legal_moves("X../.O./...") == [1, 2, 3, 5, 6, 7, 8]
    assert TTT.play("X../.O./...", 8) == "X../.O./..X"
    assert not TTT.is_over("X../.O./...")
    assert TTT.winner("X../.O./...") is None
    assert TTT.winner("XXX/OO./...") == "X"
    assert TTT.winner("XOX/XOO/OXX") == "draw"
    assert mnk.Game(3, 3, 3, misere=True).winner("XXX/OO./...") == "O"
    assert TTT.from_moves([4, 0, 8]) == "O../.X./..X"
    assert TTT.from_moves("4, 0, 8") == "O../.X./..X"
    assert TTT.to_moves("O../.X./..X") == "4 0 8"


def test_gravity_moves_and_notations():
    p = C4.from_moves("4453", notation="digits")
    assert p == "......./......./......./......./...O.../..OXX.."
    assert C4.from_moves("3 3 4 2", notation="columns") == p
    assert C4.to_moves(p, notation="digits") == "4453"
    assert C4.legal_moves(p) == [35, 36, 30, 24, 32, 40, 41]
    assert C4.drop(p, 3) == C4.play(p, 24)


@pytest.mark.parametrize("call, message", [
    (lambda: TTT.play("X../.O./...", 4), "cell 4 is taken"),
    (lambda: TTT.play("X../.O./...", 9),
     "cell 9 is off the board: expected 0 to 8"),
    (lambda: TTT.play("XXX/OO./...", 8),
     "the game is over (X won): no move is legal"),
    (lambda: TTT.play("XX", 8),
     "position 'XX': position has 2 cells: a 3x3 board has 9"),
    (lambda: C4.play(C4.from_moves(""), 31),
     "cell 31 is not playable: with gravity a stone goes to the lowest "
     "empty cell of its column (column 3's is cell 38)"),
    (lambda: C4.from_moves("4448", notation="digits"),
     "move 4 is '8': expected a column from 1 to 7"),
    (lambda: TTT.from_moves("123", notation="digits"),
     "the digits notation names moves by column, which only a game with "
     "gravity does: give cells"),
    (lambda: TTT.from_moves([4], notation="pons"),
     "notation 'pons': expected cells, columns or digits"),
    (lambda: TTT.drop(".........", 0),
     "the columns notation names moves by column, which only a game with "
     "gravity does: give cells"),
    (lambda: TTT.choose(".........", level=0),
     "level 0: expected a level from 1 (random) to 10 (perfect)"),
    (lambda: TTT.choose(".........", seed=-1),
     "seed: expected None or a whole number from 0 to 2**64 - 1"),
    (lambda: TTT.choose("XXX/OO./..."),
     "position 'XXX/OO./...': the game is over, so there is no move"),
])
def test_bad_moves_say_why(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert str(error.value) == message


def test_levels_in_whole_games():
    with TTT.table() as t:
        winner, moves = play_game(TTT, t, (10, 10), seed=1)
        assert winner == "draw"
        assert moves == t.pv(".........")
        results = [play_game(TTT, t, (10, 1), seed)[0] for seed in range(100)]
        assert "O" not in results
        assert results.count("X") > 80
        results = [play_game(TTT, t, (5, 10), seed)[0] for seed in range(100)]
        assert "X" not in results
        assert results.count("O") > 10
        # The same seed, the same game.
        assert (play_game(TTT, t, (3, 3), seed=7) ==
                play_game(TTT, t, (3, 3), seed=7))
    with G4.table() as t:
        start = t.probe(G4.from_moves(""))
        for seed in range(20):
            winner, _ = play_game(G4, t, (10, 3), seed)
            assert start.value != "draw" or winner != "O"


def test_vary_opens_anywhere_at_level_10():
    with TTT.table() as t:
        assert t.choose(".........") == 0
        openings = {t.choose(".........", vary=True, seed=s)
                    for s in range(200)}
        assert openings == set(range(9))


def test_pv_replays_to_the_tables_value():
    with TTT.table() as t:
        for position in [".........", "X.O/X.X/OO.", "XO./.../..."]:
            answer = t.probe(position)
            line = t.pv(position)
            assert len(line) == answer.remoteness
            end = position
            for cell in line:
                end = TTT.play(end, cell)
            winner = TTT.winner(end)
            expected = {"win": answer.to_move, "draw": "draw",
                        "loss": "O" if answer.to_move == "X" else "X"}
            assert winner == expected[answer.value]
        assert t.game.winner("XXX/OO./...") == "X"


def test_connect_four_pv_from_the_book_is_cut_by_its_limits():
    line = C4.pv(C4.from_moves(""), max_nodes=1)
    assert line[0] == 38
    assert C4.choose(C4.from_moves("")) == 38


def test_tree_scores_as_the_seeds_do():
    with TTT.table() as t:
        root = t.tree("O.X/X.X/.OO", depth=2)
        assert (root["value"], root["score"], root["sign"]) == ("win", 9, 1)
        assert [(c["cell"], c["score"], c["best"]) for c in root["children"]] \
            == [(1, -8, False), (4, 9, True), (6, -8, False)]
        assert [c["cell"] for c in root["children"][0]["children"]] == [4, 6]
        with pytest.raises(ValueError, match="depth -1: expected 0"):
            t.tree(".........", depth=-1)
        with pytest.raises(MemoryError, match="more than 100000 nodes"):
            t.tree(".........", depth=9)
    # Connect-style 4x4: 17 - plies, a win above 0 however long.
    with G4.table() as t:
        root = t.tree("..../..../..../....", depth=0)
        assert (root["value"], root["remoteness"]) == ("draw", 16)
        assert root["score"] == 0
        # O to move wins in 13 plies: 17 - 13 = +4, where 10 - 13 would
        # score the win below a draw.
        root = t.tree(G4.from_moves("343", notation="digits"), depth=1)
        assert (root["value"], root["remoteness"], root["score"]) == \
            ("win", 13, 4)
        assert max(c["score"] for c in root["children"]) == 4

