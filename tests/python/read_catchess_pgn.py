"""python-chess reads the Cat Chess records of `catchess match` as PGN:
python-chess knows neither the variant nor the cats, so the moves are
skipped, but every game must be found, with the Seven Tag Roster in order,
a Result python-chess takes as a result (`1-0`, `0-1`, `1/2-1/2`, `*`)
both in the tags and as the movetext's last token, and a Winner tag that
agrees with it (white 1-0, black 0-1, cats or draw 1/2-1/2).
Run by tests/python_client.rs.

Usage: python3 tests/python/read_catchess_pgn.py GAMES.pgn EXPECTED_GAME_COUNT
"""

import sys

import chess
import chess.pgn

from pgn_report import report

ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
RESULTS = {"white": "1-0", "black": "0-1", "cats": "1/2-1/2", "draw": "1/2-1/2"}


class CatHeaders(chess.pgn.Headers):
    """The record's tags, read as they are; only the board python-chess
    sets up from them is a standard one (it cannot hold the cats of the
    FEN tag, and would skip the whole movetext without a board)."""

    def get(self, key, default=None):
        return default if key == "FEN" else super().get(key, default)

    def variant(self):
        return chess.Board


class Reader(chess.pgn.BaseVisitor):
    """Keeps the headers, the result token and the errors; skips moves."""

    def begin_game(self):
        self.headers = CatHeaders({})
        self.result_token = None
        self.errors = []

    def begin_headers(self):
        return self.headers

    def visit_header(self, tagname, tagvalue):
        self.headers[tagname] = tagvalue

    def begin_parse_san(self, board, san):
        return chess.pgn.SKIP

    def visit_result(self, result):
        self.result_token = result

    def handle_error(self, error):
        self.errors.append(str(error))

    def result(self):
        return self


def check(game: Reader) -> str | None:
    if game.errors:
        return f"parse errors: {game.errors}"
    if list(game.headers.keys())[:7] != ROSTER:
        return f"tags out of order: {list(game.headers.keys())}"
    result = game.headers["Result"]
    if game.result_token != result:
        return f"result token {game.result_token!r}, Result tag {result!r}"
    winner = game.headers.get("Winner")
    if RESULTS.get(winner) != result:
        return f"Winner {winner!r} with Result {result!r}"
    return None


def main() -> int:
    return report(check, lambda game: f"{game.headers['Result']} {game.headers.get('Winner')}", visitor=Reader)


if __name__ == "__main__":
    sys.exit(main())
