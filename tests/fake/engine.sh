#!/bin/sh
# A fake engine for the match runner's fault-injection tests
# (tests/match_faults.rs). It speaks just enough of the protocol to be
# started (uci, isready, ucinewgame, quit) and misbehaves as told at its
# first `go`:
#
#   crash     exits with code 3
#   hang      stops answering (sleeps)
#   illegal   answers `bestmove a1a1`
#   garbage   writes binary junk, then a junk bestmove
#   nouciok   answers `uci` only the first time it is started (the
#             arbiter's check before the match), never again
#   slow      answers `bestmove e2e4` after one second
#   longline  writes one 100 MB line without a newline, then sleeps
#   forkexit  starts a child that keeps its stdout open, then exits (3)
#   setsid    at start, puts a child in a new session (setsid) holding
#             its stdout; at go, exits (3)
#   unicode   answers `bestmove é2é4` (not ASCII: a parser must not cut
#             inside a character)
#   childhang at start, leaves a child sleeping; at go, stops answering
#
# $FAKE_STATE names a directory for state kept between starts (nouciok).
mode=$1
if [ "$mode" = setsid ]; then
    setsid sleep 600 </dev/null 2>/dev/null &
fi
if [ "$mode" = childhang ]; then
    sleep 600 </dev/null >/dev/null 2>&1 &
fi
while IFS= read -r line; do
    case "$line" in
    uci)
        if [ "$mode" = nouciok ]; then
            if [ -e "$FAKE_STATE/started" ]; then continue; fi
            mkdir -p "$FAKE_STATE" && : >"$FAKE_STATE/started"
        fi
        echo "id name fake $mode"
        echo "option name UCI_Variant type combo default chess var chess var catchess var xiangqi var catschess10"
        echo "uciok"
        ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
    go*)
        case "$mode" in
        crash) exit 3 ;;
        hang | childhang) exec sleep 600 ;;
        unicode) echo "bestmove é2é4" ;;
        illegal) echo "bestmove a1a1" ;;
        garbage)
            printf 'info \377\376\000\001 junk\r\n\033[31m%%s\n'
            printf 'bestmove \377\377\n'
            ;;
        slow) sleep 1; echo "bestmove e2e4" ;;
        longline) head -c 100000000 /dev/zero | tr '\0' x; exec sleep 600 ;;
        forkexit) sleep 600 & exit 3 ;;
        setsid) exit 3 ;;
        *) echo "bestmove e2e4" ;;
        esac
        ;;
    esac
done
