//! Standard chess in bullet's `ChessBoard` (crate `bulletformat`), the
//! 32-byte record the NNUE community's trainers read (bullet reads it as
//! is): no file header, one record per position, little-endian.
//!
//! The crate's [`ChessBoard::from_raw`] does the layout's conventions: the
//! board is seen from the side to move (for black to move it is flipped
//! rank for rank and the colours swapped), so the score and the result are
//! the side to move's; `result` is 2 for a win, 1 a draw, 0 a loss; `ksq`
//! is the side to move's king square and `opp_ksq` the other king's,
//! flipped. The bytes are written field by field ([`to_bytes`]), so the file
//! is the same on any machine, and read the same way ([`from_bytes`]).

use bulletformat::ChessBoard;
use catchess_game::view::BoardView;
use catchess_game::Seat;

/// Bytes per position.
pub const RECORD_BYTES: usize = 32;

/// The record of `pos` (two seats, an 8×8 board of the letters `PNBRQK`
/// and `pnbrqk`), its search score `score` in centipawns from white's
/// view, and its game's winner (`None`: a draw).
pub fn board<G: BoardView>(pos: &G, score: i16, winner: Option<Seat>) -> Result<ChessBoard, String> {
    // White, black, then pawn to king: `from_raw`'s order.
    let mut bbs = [0u64; 8];
    for sq in pos.squares() {
        let Some(letter) = sq.piece else { continue };
        let role = "pnbrqk".find(letter.to_ascii_lowercase()).ok_or_else(|| format!("{letter:?} is no chess piece"))?;
        if sq.file >= 8 || sq.rank >= 8 {
            return Err(format!("square {} is off an 8x8 board", sq.square));
        }
        let bit = 1u64 << (sq.rank * 8 + sq.file);
        bbs[usize::from(letter.is_ascii_lowercase())] |= bit;
        bbs[2 + role] |= bit;
    }
    let stm = pos.to_move().index();
    if stm > 1 {
        return Err(format!("seat {stm} to move: the format has two sides"));
    }
    let white_result = match winner.map(Seat::index) {
        Some(0) => 1.0,
        Some(1) => 0.0,
        Some(s) => return Err(format!("seat {s} won: the format has two sides")),
        None => 0.5,
    };
    ChessBoard::from_raw(bbs, stm, score, white_result)
}

/// The record's 32 bytes, as bullet lays them out.
pub fn to_bytes(b: &ChessBoard) -> [u8; RECORD_BYTES] {
    let mut out = [0u8; RECORD_BYTES];
    out[0..8].copy_from_slice(&b.occ.to_le_bytes());
    out[8..24].copy_from_slice(&b.pcs);
    out[24..26].copy_from_slice(&b.score.to_le_bytes());
    out[26] = b.result;
    out[27] = b.ksq;
    out[28] = b.opp_ksq;
    out[29..32].copy_from_slice(&b.extra);
    out
}

/// The record written by [`to_bytes`].
pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> ChessBoard {
    let mut pcs = [0u8; 16];
    pcs.copy_from_slice(&bytes[8..24]);
    ChessBoard {
        occ: u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes")),
        pcs,
        score: i16::from_le_bytes([bytes[24], bytes[25]]),
        result: bytes[26],
        ksq: bytes[27],
        opp_ksq: bytes[28],
        extra: [bytes[29], bytes[30], bytes[31]],
    }
}

/// Every record of a file's bytes; an error if a record is torn off.
pub fn read_all(bytes: &[u8]) -> Result<Vec<ChessBoard>, String> {
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        return Err(format!("{} bytes: not a whole number of {RECORD_BYTES}-byte records", bytes.len()));
    }
    Ok(bytes.chunks_exact(RECORD_BYTES).map(|c| from_bytes(c.try_into().expect("a whole record"))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bulletformat::BulletFormat;
    use catchess_games::Chess;

    const WHITE: Seat = Seat::new(0);
    const BLACK: Seat = Seat::new(1);

    fn chess(fen: &str) -> Chess {
        Chess::from_fen(fen).unwrap()
    }

    #[test]
    fn the_start_position_has_the_published_bytes() {
        // bulletformat's layout, by hand: occupancy a1 = bit 0; one nibble
        // per piece in square order, colour << 3 | pawn 0 .. king 5 (white
        // to move: white is colour 0); score, result, king squares.
        let b = board(&Chess::startpos(), 35, None).unwrap();
        let mut expected = Vec::new();
        expected.extend(0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        // R N B Q K B N R, P×8 (nibble pairs, low nibble first), then black.
        expected.extend([0x13, 0x42, 0x25, 0x31, 0x00, 0x00, 0x00, 0x00]);
        expected.extend([0x88, 0x88, 0x88, 0x88, 0x9B, 0xCA, 0xAD, 0xB9]);
        expected.extend(35i16.to_le_bytes());
        expected.extend([1, 4, 4, 0, 0, 0]);
        assert_eq!(to_bytes(&b).to_vec(), expected);
    }

    #[test]
    fn records_match_the_crate_s_own_text_reader_and_bytes() {
        // Black to move: the crate flips the board and the score and result
        // become black's.
        for (fen, score, winner, result) in [
            ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 40, Some(WHITE), "1.0"),
            ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3", -120, Some(BLACK), "0.0"),
            ("8/8/4k3/8/2K5/8/3P4/8 b - - 0 50", 0, None, "0.5"),
        ] {
            let ours = board(&chess(fen), score, winner).unwrap();
            let theirs: ChessBoard = format!("{fen} | {score} | {result}").parse().unwrap();
            assert_eq!(ours, theirs, "{fen}");
            // The bytes as the crate itself lays them in memory (this
            // machine is little-endian, as bullet assumes).
            assert_eq!(to_bytes(&ours).as_slice(), ChessBoard::as_bytes_slice(&[ours]));
            assert_eq!(from_bytes(&to_bytes(&ours)), ours);
        }
        let b = board(&chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3"), -120, Some(BLACK))
            .unwrap();
        assert_eq!((b.score, b.result), (120, 2), "the side to move's view: black won");
    }

    #[test]
    fn files_are_read_back_whole_or_refused() {
        let records: Vec<ChessBoard> =
            [0, 7, -9].iter().map(|&s| board(&Chess::startpos(), s, Some(WHITE)).unwrap()).collect();
        let bytes: Vec<u8> = records.iter().flat_map(to_bytes).collect();
        assert_eq!(read_all(&bytes).unwrap(), records);
        assert!(read_all(&bytes[..40]).unwrap_err().contains("not a whole number"));
    }
}
