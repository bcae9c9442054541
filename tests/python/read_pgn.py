"""python-chess reads the chess records of `catchess match`: every game
parses without errors (SAN that python-chess cannot resolve is an error),
has the Seven Tag Roster, a standard Termination, and ends as its Result and
TerminationDetails say.
Run by tests/match.rs.

Usage: python3 tests/python/read_pgn.py GAMES.pgn EXPECTED_GAME_COUNT
"""

import sys

import chess
import chess.pgn

from pgn_report import report

ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def check(game: chess.pgn.Game) -> str | None:
    """What is wrong with a game, or None."""
    if game.errors:
        return f"parse errors: {game.errors}"
    missing = [t for t in ROSTER if t not in game.headers]
    if missing:
        return f"missing tags {missing}"
    if list(game.headers.keys())[:7] != ROSTER:
        return f"tags out of order: {list(game.headers.keys())}"
    board = game.end().board()
    result = game.headers["Result"]
    standard = game.headers.get("Termination", "")
    if standard not in ("normal", "adjudication", "time forfeit", "rules infraction", "abandoned"):
        return f"Termination {standard!r} is not one of the PGN standard's values"
    termination = game.headers.get("TerminationDetails", "")
    if (standard == "normal") != (" by " not in termination and not termination.startswith("adjudication")):
        return f"Termination {standard!r} with details {termination!r}"
    if int(game.headers["PlyCount"]) != board.ply() - game.board().ply():
        return f"PlyCount {game.headers['PlyCount']} but {board.ply()} plies"
    if termination == "checkmate":
        want = "1-0" if board.turn == chess.BLACK else "0-1"
        if not board.is_checkmate() or result != want:
            return f"not a checkmate for {result}: {board.fen()}"
    elif termination == "stalemate":
        if not board.is_stalemate() or result != "1/2-1/2":
            return f"not a stalemate: {board.fen()}"
    elif termination == "threefold repetition":
        if not board.is_repetition(3) or result != "1/2-1/2":
            return f"not a threefold repetition: {board.fen()}"
    elif termination == "fifty-move rule":
        if board.halfmove_clock < 100 or result != "1/2-1/2":
            return f"not fifty moves: {board.fen()}"
    elif termination == "insufficient material":
        if not board.is_insufficient_material() or result != "1/2-1/2":
            return f"material is sufficient: {board.fen()}"
    elif " by " not in termination and not termination.startswith("adjudication"):
        return f"unknown termination {termination!r}"
    return None


def main() -> int:
    return report(check, lambda game: f"{game.headers['Result']} {game.headers.get('Termination')}")


if __name__ == "__main__":
    sys.exit(main())
