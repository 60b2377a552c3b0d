"""The perfect player of tic-tac-toe and its family (m,n,k-games, gravity,
misère): every position's value, remoteness and best move, from solved
tables or exact search. docs/python.md shows it in use.

    import mnk
    with mnk.Game(3, 3, 3).table() as t:
        t.probe("X.O/X.X/OO.").best_move     # 4
"""

from ._mnk import (DamagedTableError, Game, MissingTableError, Move, Result,
                   SearchStopped, Table, TableError, WrongGameError,
                   __version__, open_table)

__all__ = [
    "DamagedTableError", "Game", "MissingTableError", "Move", "Result",
    "SearchStopped", "Table", "TableError", "WrongGameError", "__version__",
    "open_table",
]

# The classes are the extension's; they are named as the package's.
for _class in (Game, Move, Result, Table):
    _class.__module__ = __name__
del _class
