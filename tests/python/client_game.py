"""A real UCI client drives the engine: python-chess plays a complete chess
game between two engine processes, validating every move, then reads the
info lines through `analyse`. Run by .ci/run after `cargo build --release`.

Usage: python3 tests/python/client_game.py [path/to/catchess]
"""

import sys

import chess
import chess.engine

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/catchess"
MAX_PLIES = 600


def main() -> int:
    white = chess.engine.SimpleEngine.popen_uci(ENGINE)
    black = chess.engine.SimpleEngine.popen_uci(ENGINE)
    try:
        assert white.id["name"].startswith("catchess"), white.id
        assert "UCI_Variant" in white.options and "Hash" in white.options
        for engine in (white, black):
            # python-chess sets UCI_Variant itself from the board (chess).
            engine.configure({"Hash": 8})
        board = chess.Board()
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            engine = white if board.turn == chess.WHITE else black
            result = engine.play(board, chess.engine.Limit(depth=3, time=0.5))
            assert result.move is not None, f"no move in {board.fen()}"
            assert board.is_legal(result.move), f"illegal {result.move} in {board.fen()}"
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        assert outcome is not None, f"game unfinished after {board.ply()} plies: {board.fen()}"
        print(f"game over after {board.ply()} plies: {outcome.termination.name} {board.result(claim_draw=True)}")

        info = white.analyse(chess.Board(), chess.engine.Limit(depth=5))
        assert info["depth"] == 5, info
        assert "score" in info and info["score"].white() is not None, info
        assert info["pv"] and chess.Board().is_legal(info["pv"][0]), info
        assert info["nodes"] > 0 and "nps" in info and "time" in info, info
        print(f"analyse: depth {info['depth']} score {info['score'].white()} pv {info['pv'][:3]}")

        # A mate in one, found and scored as a mate.
        mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = white.analyse(mate, chess.engine.Limit(depth=3))
        assert info["pv"][0] == chess.Move.from_uci("a1a8"), info
        assert info["score"].white() == chess.engine.Mate(1), info

        # What once hung python-chess forever (no bestmove): searchmoves
        # through root_moves, and a mate limit.
        start = chess.Board()
        roots = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
        info = white.analyse(start, chess.engine.Limit(depth=4), root_moves=roots)
        assert info["pv"][0] in roots, info
        played = white.play(mate, chess.engine.Limit(mate=2))
        assert played.move == chess.Move.from_uci("a1a8"), played
        # Several lines at once, and win/draw/loss chances.
        white.configure({"UCI_ShowWDL": True})
        lines = white.analyse(start, chess.engine.Limit(depth=4), multipv=3)
        assert len(lines) == 3 and len({i["pv"][0] for i in lines}) == 3, lines
        assert all("wdl" in i for i in lines), lines
        # Pondering (python-chess sets Ponder itself): the engine ponders on
        # the expected reply after its move, and is stopped or hit by the
        # next play.
        pondered = white.play(start, chess.engine.Limit(time=0.2), ponder=True)
        assert pondered.move is not None and start.is_legal(pondered.move), pondered
        assert pondered.ponder is not None, pondered
        reply = start.copy()
        reply.push(pondered.move)
        reply.push(pondered.ponder)
        again = white.play(reply, chess.engine.Limit(time=0.2), ponder=True)
        assert again.move is not None and reply.is_legal(again.move), again
        print("1 passed, 0 failed")
        return 0
    finally:
        white.quit()
        black.quit()


if __name__ == "__main__":
    sys.exit(main())
