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

use super::own;
use bulletformat::ChessBoard;
use catchess_core::{Bitboard, Color, Square};
use catchess_game::view::BoardView;
use catchess_game::Seat;
use catchess_games::chess::{Piece, Role, Side};
use catchess_games::Chess;
use std::io::Read;

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

/// The records of a file, one at a time (the file is never held whole:
/// 10 M positions are 320 MB). The first is refused if the file is of the
/// project's own format (its `CATCHESS` header), and the last if it is torn
/// off; after an error the reader ends.
pub struct Reader<R> {
    input: R,
    done: bool,
    /// Whether the first record is still to come (the header check).
    first: bool,
}

impl<R: Read> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader { input, done: false, first: true }
    }

    fn read(&mut self) -> Result<Option<ChessBoard>, String> {
        let mut bytes = [0u8; RECORD_BYTES];
        if !super::read_record(&mut self.input, &mut bytes)? {
            return Ok(None);
        }
        if std::mem::take(&mut self.first) && bytes[..8] == own::MAGIC {
            let what = match own::Header::parse(&bytes) {
                Ok(header) => format!("the project's own format, of {}", header.variant),
                Err(e) => format!("the project's own format ({e})"),
            };
            return Err(format!("{what}, not bulletformat: standard chess's data is bulletformat ChessBoard"));
        }
        Ok(Some(from_bytes(&bytes)))
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<ChessBoard, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let record = self.read().transpose();
        self.done = !matches!(record, Some(Ok(_)));
        record
    }
}

/// What a record holds, checked: its board as a chess position **seen from
/// the side to move**, who is white in it and to move (the format keeps no
/// side to move, castling rights or en passant square: the position has
/// none), the search's score in centipawns and the game's result, both from
/// that side's view.
#[derive(Clone, Debug)]
pub struct Decoded {
    pub pos: Chess,
    pub score: i16,
    pub result: Outcome,
}

/// A game's result for the side to move, as the format's `result` byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Outcome {
    /// The side to move's share of the points: 0, 1/2 or 1.
    pub fn points(self) -> f64 {
        f64::from(self as u8) / 2.0
    }
}

/// The position, score and result of a record; an error saying what is
/// wrong with one no writer of the format makes (a piece code that is no
/// piece, more pieces than nibbles or codes past the pieces, a king square that disagrees with the
/// board, a result other than 0, 1 or 2, or a board the rules refuse).
pub fn decode(b: &ChessBoard) -> Result<Decoded, String> {
    let result = match b.result {
        0 => Outcome::Loss,
        1 => Outcome::Draw,
        2 => Outcome::Win,
        r => return Err(format!("result {r}: the format's results are 0 (loss), 1 (draw) and 2 (win)")),
    };
    if b.occ.count_ones() > 32 {
        return Err(format!("{} occupied squares: the format holds 32 pieces at most", b.occ.count_ones()));
    }
    let mut men = Vec::with_capacity(32);
    let mut bits = b.occ;
    let mut kings = [None; 2];
    for i in 0..b.occ.count_ones() as usize {
        let square = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let code = (b.pcs[i / 2] >> (4 * (i % 2))) & 15;
        let role = *Role::ALL
            .get(usize::from(code & 7))
            .ok_or_else(|| format!("piece code {code} on square {square}: no chess piece"))?;
        let color = if code & 8 == 0 { Color::White } else { Color::Black };
        let square = Square::new(square).expect("a bit of a u64");
        if role == Role::King {
            kings[color as usize] = Some(square.index() as u8);
        }
        men.push((square, Piece { color, role }));
    }
    let count = b.occ.count_ones() as usize;
    if (count..32).any(|i| (b.pcs[i / 2] >> (4 * (i % 2))) & 15 != 0) {
        return Err(format!("piece codes past the {count} pieces of the board"));
    }
    // `ksq` is the mover's king; `opp_ksq` the other's, turned round again.
    if kings != [Some(b.ksq), Some(b.opp_ksq ^ 56)] {
        return Err(format!(
            "king squares {} and {} disagree with the board's kings ({kings:?})",
            b.ksq,
            b.opp_ksq ^ 56
        ));
    }
    let pos = Chess::from_parts(&men, Bitboard::EMPTY, Side::White).map_err(|e| e.to_string())?;
    Ok(Decoded { pos, score: b.score, result })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bulletformat::BulletFormat;

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
        let read = |bytes: &[u8]| Reader::new(bytes).collect::<Result<Vec<_>, _>>();
        assert_eq!(read(&bytes).unwrap(), records);
        assert_eq!(read(&[]).unwrap(), []);
        assert_eq!(read(&bytes[..40]).unwrap_err(), "the last record is torn: 8 of 32 bytes");
        // The records before the torn one come first, then the error, then nothing.
        let mut reader = Reader::new(&bytes[..72]);
        assert!(reader.next().unwrap().is_ok() && reader.next().unwrap().is_ok());
        assert!(reader.next().unwrap().is_err() && reader.next().is_none());
    }

    #[test]
    fn a_record_decodes_to_the_board_the_side_to_move_sees() {
        // White to move: the board as it is, white's score and result.
        let fen = "r3k2r/ppp2ppp/2n5/3qp3/4P3/2N2N2/PPP2PPP/R2QK2R w - - 0 9";
        let d = decode(&board(&chess(fen), 55, Some(WHITE)).unwrap()).unwrap();
        assert_eq!(d.pos.to_fen(), "r3k2r/ppp2ppp/2n5/3qp3/4P3/2N2N2/PPP2PPP/R2QK2R w - - 0 1");
        assert_eq!((d.score, d.result, d.result.points()), (55, Outcome::Win, 1.0));
        // Black to move, white's score −80 and white won: the board turned
        // round with the colours swapped, so that black is white and to
        // move; its score +80 and its result a loss.
        let fen = "r3k2r/ppp2ppp/2n5/3qp3/4P3/2N2N2/PPP2PPP/R2QK2R b - - 0 9";
        let d = decode(&board(&chess(fen), -80, Some(WHITE)).unwrap()).unwrap();
        assert_eq!(d.pos.to_fen(), "r2qk2r/ppp2ppp/2n2n2/4p3/3QP3/2N5/PPP2PPP/R3K2R w - - 0 1");
        assert_eq!((d.score, d.result, d.result.points()), (80, Outcome::Loss, 0.0));
        let d = decode(&board(&chess("8/8/4k3/8/2K5/8/3P4/8 b - - 0 50"), 3, None).unwrap()).unwrap();
        assert_eq!(d.pos.to_fen(), "8/3p4/8/2k5/8/4K3/8/8 w - - 0 1");
        assert_eq!((d.score, d.result.points()), (-3, 0.5), "white's +3 is black's −3");
    }

    #[test]
    fn records_no_writer_makes_are_refused_with_a_reason() {
        let good = board(&Chess::startpos(), 0, None).unwrap();
        let err = |change: &dyn Fn(&mut ChessBoard)| {
            let mut b = good;
            change(&mut b);
            decode(&b).unwrap_err()
        };
        assert!(err(&|b| b.result = 3).contains("result 3"));
        // A pawn's code 0 turned into 6 and 7, which are no piece.
        assert!(err(&|b| b.pcs[4] = 0x66).contains("piece code 6 on square 8"));
        assert!(err(&|b| b.pcs[4] = 0x07).contains("piece code 7 on square 8"));
        assert!(err(&|b| b.ksq = 3).contains("king squares 3 and 60 disagree"));
        assert!(err(&|b| b.opp_ksq = 0).contains("king squares 4 and 56 disagree"));
        // a1's rook and a2's pawn swapped: a pawn on the first rank.
        let pawn_on_a1 = err(&|b| {
            b.pcs[0] = 0x10;
            b.pcs[4] = 0x03;
        });
        assert!(pawn_on_a1.contains("pawns never stand on rank 1"), "{pawn_on_a1}");
        let two_pieces = ChessBoard::from_raw([1 << 4, 1 << 60, 0, 0, 0, 0, 0, 1 << 4 | 1 << 60], 0, 0, 0.5).unwrap();
        let mut padded = two_pieces;
        padded.pcs[1] = 1;
        assert!(decode(&padded).unwrap_err().contains("piece codes past the 2 pieces"));
        assert!(decode(&two_pieces).is_ok());
        // 33 occupied squares.
        assert!(err(&|b| b.occ |= 1 << 20).contains("33 occupied squares"));
        // Two white kings (the queen's code becomes a king's).
        let two_kings = err(&|b| b.pcs[1] = 0x55);
        assert!(two_kings.contains("disagree") || two_kings.contains("kings"), "{two_kings}");
        // The side that just moved left its king in check: white (the
        // mover) has a rook on e2 against black's king on e8.
        let (e1, e2, e8) = (1u64 << 4, 1u64 << 12, 1u64 << 60);
        let in_check = ChessBoard::from_raw([e1 | e2, e8, 0, 0, 0, e2, 0, e1 | e8], 0, 0, 0.5).unwrap();
        assert!(decode(&in_check).unwrap_err().contains("in check but has just moved"));
        assert!(decode(&board(&chess("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), 0, None).unwrap()).is_ok());
    }

    #[test]
    fn a_file_of_the_own_format_is_refused_for_chess() {
        let header = own::Header::of::<catchess_games::Xiangqi>(own::Pieces::AtMostAtStart).unwrap();
        let mut bytes = header.to_bytes().to_vec();
        bytes.extend([0u8; 64]);
        let e = Reader::new(&bytes[..]).next().unwrap().unwrap_err();
        assert!(e.contains("the project's own format, of xiangqi, not bulletformat"), "{e}");
    }
}
