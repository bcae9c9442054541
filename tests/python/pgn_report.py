"""The loop both record readers share: read every game of a PGN file with
python-chess, check each, print a line per game and the closing
'N passed, N failed', and fail when the count of games is not the one
expected (argv: PGN file, expected number of games)."""

import sys

import chess.pgn


def report(check, describe, visitor=chess.pgn.GameBuilder) -> int:
    path, expected = sys.argv[1], int(sys.argv[2])
    passed = failed = 0
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f, Visitor=visitor)) is not None:
            problem = check(game)
            name = f"game {game.headers.get('Round')}"
            if problem:
                failed += 1
                print(f"FAIL {name}: {problem}")
            else:
                passed += 1
                print(f"ok   {name}: {describe(game)}")
    if passed + failed != expected:
        print(f"FAIL expected {expected} games, read {passed + failed}")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
