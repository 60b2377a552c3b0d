"""The perfect player of tic-tac-toe and its family (m,n,k-games, gravity,
misère): every position's value, remoteness and best move, from solved
tables or exact search. docs/python.md shows it in use."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

__version__: str

class TableError(Exception):
    """A table could not be opened or read."""

class MissingTableError(TableError):
    """No such table file, or no built-in table for the game."""

class DamagedTableError(TableError):
    """A table file that fails its checks, or changed while in use."""

class WrongGameError(TableError):
    """A table of another game or format, or a file that is no table."""

class SearchStopped(Exception):
    """A search that reached its node or time limit before its answer."""

class Move:
    """One legal move and what it leads to, for the side that moves."""
    cell: int  # row * width + column, row 0 at the top
    column: int
    value: str  # 'win', 'draw' or 'loss'
    remoteness: Optional[int]  # plies to the end; None if unknown
    def __eq__(self, other: object) -> bool: ...

class Result:
    """A position's answer, for the side to move."""
    position: str
    to_move: str  # 'X' or 'O'
    value: str  # 'win', 'draw' or 'loss'
    remoteness: Optional[int]  # 0 once the game is over; None if unknown
    best_move: Optional[int]  # None once the game is over
    moves: List[Move]  # every legal move in board order (gravity: columns)
    def __eq__(self, other: object) -> bool: ...

class Table:
    """A game's answers: its table, or the exact search after a book.
    Thread-safe; a `with` block closes it (a call running in another thread
    keeps it until it returns). Ctrl-C stops a search: KeyboardInterrupt."""
    def probe(self, position: str) -> Result: ...
    def probe_many(self, positions: List[str]) -> List[Result]: ...
    def analyse(self, position: str, max_nodes: int = 0,
                max_seconds: float = 0.0,
                best_only: bool = False) -> Result: ...
    # Level 1 plays at random, 10 perfectly (docs/python.md's table); the
    # same seed, level and position always give the same cell.
    def choose(self, position: str, level: int = 10,
               seed: Optional[int] = None, vary: bool = False,
               max_nodes: int = 0, max_seconds: float = 0.0) -> int: ...
    # The cells both sides play under perfect play to the end.
    def pv(self, position: str, max_nodes: int = 0,
           max_seconds: float = 0.0) -> List[int]: ...
    # The game tree to `depth` plies: nested dicts (cell, position,
    # to_move, value, remoteness, best, score, sign, children).
    def tree(self, position: str, depth: int = 1, max_nodes: int = 0,
             max_seconds: float = 0.0) -> Dict[str, Any]: ...
    game: "Game"
    def play_in_terminal(self, human_first: bool = True,
                         mark: str = "X") -> int: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Table": ...
    def __exit__(self, *args: object) -> None: ...

class Game:
    """An m,n,k-game: width, height, k in a row; gravity; misère."""
    width: int
    height: int
    k: int
    gravity: bool
    misere: bool
    def __init__(self, width: int = 3, height: int = 3, k: int = 3,
                 gravity: bool = False, misere: bool = False) -> None: ...
    def table(self, path: str = "", search_memory: int = 16 << 20,
              search_threads: int = 1) -> Table: ...
    def analyse(self, position: str, max_nodes: int = 0,
                max_seconds: float = 0.0,
                best_only: bool = False) -> Result: ...
    def choose(self, position: str, level: int = 10,
               seed: Optional[int] = None, vary: bool = False,
               max_nodes: int = 0, max_seconds: float = 0.0) -> int: ...
    def pv(self, position: str, max_nodes: int = 0,
           max_seconds: float = 0.0) -> List[int]: ...
    def tree(self, position: str, depth: int = 1, max_nodes: int = 0,
             max_seconds: float = 0.0) -> Dict[str, Any]: ...
    # The rules: ValueError saying why for a bad position or move.
    def legal_moves(self, position: str) -> List[int]: ...
    def play(self, position: str, cell: int) -> str: ...
    def drop(self, position: str, column: int) -> str: ...
    def is_over(self, position: str) -> bool: ...
    def winner(self, position: str) -> Optional[str]: ...
    def to_move(self, position: str) -> str: ...
    # notation: "cells" ("4 0 8"), "columns" ("3 3 4") or "digits"
    # ("4453", 1-based columns); a list is cells.
    def from_moves(self, moves: Union[str, Sequence[int]],
                   notation: str = "cells") -> str: ...
    def to_moves(self, position: str, notation: str = "cells") -> str: ...
    # A progress that raises stops the solve, which raises it; Ctrl-C
    # stops it too (KeyboardInterrupt). Nothing is written then.
    def solve(self, path: str,
              progress: Optional[Callable[[str, int, int, int], None]] = None,
              threads: int = 0, layout: str = "auto",
              remoteness: Optional[bool] = None, memory: int = 0,
              work_dir: str = "", resume: bool = False,
              tier_indices: int = 1048576) -> Dict[str, Any]: ...
    def estimate(self, layout: str = "auto",
                 remoteness: Optional[bool] = None, memory: int = 0,
                 threads: int = 0, work_dir: str = "") -> Dict[str, Any]: ...

def open_table(path: str) -> Table: ...
