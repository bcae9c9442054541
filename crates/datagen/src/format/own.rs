//! The project's own training-data format, for every game but standard
//! chess (docs/datagen-format.md is its specification): a 32-byte header
//! that names the game and sizes the records, then fixed-size records, one
//! per position, little-endian. The board is read through the game's
//! `BoardView` (what the web page draws), so one layout serves every game:
//! the occupied squares as a set, then the FEN letter of each.

use catchess_game::view::BoardView;
use catchess_game::Seat;
use std::io::Read;

pub const MAGIC: [u8; 8] = *b"CATCHESS";
pub const VERSION: u16 = 1;
pub const HEADER_BYTES: usize = 32;
/// Bytes of a record besides its piece letters: the occupied set (16),
/// seat, winner, score, turn and game (10).
const FIXED_BYTES: usize = 26;
/// The most squares a board may have: the occupied set is 128 bits.
pub const MAX_SQUARES: usize = 128;
/// Bytes of the variant's name in the header.
const NAME_BYTES: usize = 16;

/// What the header says: the game, its board and how many piece letters
/// a record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: String,
    pub files: u8,
    pub ranks: u8,
    pub seats: u8,
    /// Piece letters per record: the most pieces a position of the game
    /// can hold ([`Pieces`]).
    pub pieces: u8,
}

/// How many pieces a game's positions can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pieces {
    /// No more than its start position: a move never adds a piece
    /// (captures remove one, a promotion replaces one). Chess, Cat Chess,
    /// xiangqi.
    AtMostAtStart,
    /// Any number up to one a square (10×10: a turn may put a mouse down,
    /// replenishment brings pieces back).
    AnyNumber,
}

impl Header {
    /// The header of game `G`'s data.
    pub fn of<G: BoardView>(pieces: Pieces) -> Result<Header, String> {
        let layout = G::layout();
        let start = match pieces {
            Pieces::AtMostAtStart => G::startpos().squares().iter().filter(|s| s.piece.is_some()).count(),
            Pieces::AnyNumber => usize::from(layout.files) * usize::from(layout.ranks),
        };
        let fit = |n: usize, what: &str| u8::try_from(n).map_err(|_| format!("{}: too many {what}", G::VARIANT));
        let header = Header {
            variant: G::VARIANT.to_string(),
            files: layout.files,
            ranks: layout.ranks,
            seats: fit(G::SEATS.len(), "seats")?,
            pieces: fit(start, "pieces")?,
        };
        if header.squares() > MAX_SQUARES || G::VARIANT.len() > NAME_BYTES {
            return Err(format!("{}: the board or the name does not fit the format", G::VARIANT));
        }
        Ok(header)
    }

    pub fn squares(&self) -> usize {
        usize::from(self.files) * usize::from(self.ranks)
    }

    pub fn record_bytes(&self) -> usize {
        FIXED_BYTES + usize::from(self.pieces)
    }

    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut out = [0u8; HEADER_BYTES];
        out[0..8].copy_from_slice(&MAGIC);
        out[8..10].copy_from_slice(&VERSION.to_le_bytes());
        out[10] = self.files;
        out[11] = self.ranks;
        out[12] = self.seats;
        out[13] = self.pieces;
        out[14..16].copy_from_slice(&(self.record_bytes() as u16).to_le_bytes());
        out[16..16 + self.variant.len()].copy_from_slice(self.variant.as_bytes());
        out
    }

    pub fn parse(bytes: &[u8]) -> Result<Header, String> {
        let bytes: &[u8; HEADER_BYTES] =
            bytes.get(..HEADER_BYTES).and_then(|b| b.try_into().ok()).ok_or("shorter than the 32-byte header")?;
        if bytes[0..8] != MAGIC {
            return Err("not catchess training data (no CATCHESS magic)".to_string());
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(format!("format version {version}; this build reads version {VERSION}"));
        }
        let name = &bytes[16..];
        let len = name.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES);
        let variant = std::str::from_utf8(&name[..len]).map_err(|_| "the variant's name is not text")?.to_string();
        let header = Header { variant, files: bytes[10], ranks: bytes[11], seats: bytes[12], pieces: bytes[13] };
        let record = u16::from_le_bytes([bytes[14], bytes[15]]) as usize;
        if record != header.record_bytes() || header.squares() > MAX_SQUARES || header.seats == 0 {
            return Err(format!("inconsistent header: {header:?}, records of {record} bytes"));
        }
        Ok(header)
    }
}

/// One position as the format keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Bit `rank × files + file` for each occupied square (rank 0 is the
    /// first seat's first rank, file 0 its left edge).
    pub occupied: u128,
    /// The FEN letter (ASCII) of each occupied square, lowest square
    /// first; see [`letters`](Self::letters).
    pieces: [u8; MAX_SQUARES],
    /// The seat to move.
    pub seat: Seat,
    /// The game's winner; `None` for a draw that rewards nobody (in Cat
    /// Chess every draw is the cats' win, so never `None` there).
    pub winner: Option<Seat>,
    /// The search's score in centipawns from the first seat's view (white,
    /// red), never a mate.
    pub score: i16,
    /// Turns played before this position (the random opening's included).
    pub turn: u16,
    /// The game's number in the run (`--seed`'s game index).
    pub game: u32,
}

impl Record {
    /// The record of `pos`.
    pub fn of<G: BoardView>(
        header: &Header,
        pos: &G,
        score: i16,
        winner: Option<Seat>,
        turn: u16,
        game: u32,
    ) -> Result<Record, String> {
        let mut squares: Vec<(usize, u8)> = Vec::with_capacity(header.squares());
        for sq in pos.squares() {
            let Some(letter) = sq.piece else { continue };
            if sq.file >= header.files || sq.rank >= header.ranks || !letter.is_ascii_graphic() {
                return Err(format!("{}: {letter:?} on {} does not fit the format", G::VARIANT, sq.square));
            }
            squares.push((usize::from(sq.rank) * usize::from(header.files) + usize::from(sq.file), letter as u8));
        }
        if squares.len() > usize::from(header.pieces) {
            // The game breaks what its `Pieces` says of it.
            return Err(format!(
                "{} holds {} pieces, more than a record's {}",
                pos.to_fen(),
                squares.len(),
                header.pieces
            ));
        }
        squares.sort_unstable();
        let mut record =
            Record { occupied: 0, pieces: [0; MAX_SQUARES], seat: pos.to_move(), winner, score, turn, game };
        for (i, &(square, letter)) in squares.iter().enumerate() {
            record.occupied |= 1 << square;
            record.pieces[i] = letter;
        }
        Ok(record)
    }

    /// The piece letters, lowest occupied square first.
    pub fn letters(&self) -> &[u8] {
        &self.pieces[..self.occupied.count_ones() as usize]
    }

    /// Each occupied square's index (`rank × files + file`) and letter.
    pub fn squares(&self) -> impl Iterator<Item = (usize, char)> + '_ {
        let mut rest = self.occupied;
        self.letters().iter().map(move |&letter| {
            let square = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            (square, char::from(letter))
        })
    }

    /// Appends the record's `header.record_bytes()` bytes.
    pub fn write(&self, header: &Header, out: &mut Vec<u8>) {
        out.extend(self.occupied.to_le_bytes());
        out.extend(&self.pieces[..usize::from(header.pieces)]);
        out.push(self.seat.index() as u8);
        out.push(self.winner.map_or(0, |s| 1 + s.index() as u8));
        out.extend(self.score.to_le_bytes());
        out.extend(self.turn.to_le_bytes());
        out.extend(self.game.to_le_bytes());
    }

    /// The record in `bytes` (`header.record_bytes()` of them), checked.
    pub fn parse(header: &Header, bytes: &[u8]) -> Result<Record, String> {
        if bytes.len() != header.record_bytes() {
            return Err(format!("a record is {} bytes, not {}", header.record_bytes(), bytes.len()));
        }
        let p = usize::from(header.pieces);
        let occupied = u128::from_le_bytes(bytes[0..16].try_into().expect("16 bytes"));
        let count = occupied.count_ones() as usize;
        let letters = &bytes[16..16 + p];
        if occupied >> header.squares() != 0 || count > p {
            return Err(format!("occupied set {occupied:#x} does not fit the board or the record"));
        }
        if letters[..count].iter().any(|b| !b.is_ascii_graphic()) || letters[count..].iter().any(|&b| b != 0) {
            return Err("piece letters do not match the occupied squares".to_string());
        }
        let rest = &bytes[16 + p..];
        let (seat, winner) = (rest[0], rest[1]);
        if seat >= header.seats || winner > header.seats {
            return Err(format!("seat {seat} or winner {winner} beyond the game's {} seats", header.seats));
        }
        let mut pieces = [0u8; MAX_SQUARES];
        pieces[..count].copy_from_slice(&letters[..count]);
        Ok(Record {
            occupied,
            pieces,
            seat: Seat::new(usize::from(seat)),
            winner: winner.checked_sub(1).map(|s| Seat::new(usize::from(s))),
            score: i16::from_le_bytes([rest[2], rest[3]]),
            turn: u16::from_le_bytes([rest[4], rest[5]]),
            game: u32::from_le_bytes(rest[6..10].try_into().expect("4 bytes")),
        })
    }
}

/// Reads a file of the format record by record.
pub struct Reader<R> {
    header: Header,
    input: R,
    buffer: Vec<u8>,
    /// Set once the input is done or has failed.
    done: bool,
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header.
    pub fn new(mut input: R) -> Result<Reader<R>, String> {
        let mut bytes = [0u8; HEADER_BYTES];
        input.read_exact(&mut bytes).map_err(|e| format!("cannot read the header: {e}"))?;
        let header = Header::parse(&bytes)?;
        let buffer = vec![0; header.record_bytes()];
        Ok(Reader { header, input, buffer, done: false })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Fills the buffer: `Ok(false)` at a clean end of the input.
    fn fill(&mut self) -> Result<bool, String> {
        super::read_record(&mut self.input, &mut self.buffer)
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let record = match self.fill() {
            Ok(true) => Record::parse(&self.header, &self.buffer),
            Ok(false) => {
                self.done = true;
                return None;
            }
            Err(e) => Err(e),
        };
        self.done = record.is_err();
        Some(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::MoveList;
    use catchess_games::{CatChess, CatsChess10, Xiangqi};

    #[test]
    fn headers_size_each_game_s_records() {
        let cat = Header::of::<CatChess>(Pieces::AtMostAtStart).unwrap();
        assert_eq!((cat.files, cat.ranks, cat.seats, cat.pieces, cat.record_bytes()), (8, 8, 3, 34, 60));
        let xq = Header::of::<Xiangqi>(Pieces::AtMostAtStart).unwrap();
        assert_eq!((xq.files, xq.ranks, xq.seats, xq.pieces, xq.record_bytes()), (9, 10, 2, 32, 58));
        let z = Header::of::<CatsChess10>(Pieces::AnyNumber).unwrap();
        assert_eq!((z.files, z.ranks, z.seats, z.pieces, z.record_bytes()), (10, 10, 2, 100, 126));
        for h in [cat, xq, z] {
            let bytes = h.to_bytes();
            assert_eq!(&bytes[0..8], b"CATCHESS");
            assert_eq!(Header::parse(&bytes), Ok(h));
        }
    }

    #[test]
    fn bad_headers_are_refused_with_a_reason() {
        let good = Header::of::<Xiangqi>(Pieces::AtMostAtStart).unwrap().to_bytes();
        assert!(Header::parse(&good[..20]).unwrap_err().contains("shorter"));
        let mut b = good;
        b[0] = b'X';
        assert!(Header::parse(&b).unwrap_err().contains("magic"));
        let mut b = good;
        b[8] = 9;
        assert!(Header::parse(&b).unwrap_err().contains("version 9"));
        let mut b = good;
        b[14] = 1;
        assert!(Header::parse(&b).unwrap_err().contains("inconsistent"));
    }

    /// A few positions of `G` along the first legal moves, as records and
    /// back, each square's letter checked against the position itself.
    fn round_trip<G: catchess_games::Playable>(pieces: Pieces) {
        let header = Header::of::<G>(pieces).unwrap();
        let mut pos = G::startpos();
        let mut records = Vec::new();
        let mut bytes = header.to_bytes().to_vec();
        for turn in 0..6u16 {
            let winner = (turn % 3 != 2).then(|| Seat::new(usize::from(turn) % G::SEATS.len()));
            let record = Record::of(&header, &pos, -300 + 97 * turn as i16, winner, turn, 7 + u32::from(turn)).unwrap();
            let expected: Vec<(usize, char)> = pos
                .squares()
                .iter()
                .filter_map(|s| {
                    s.piece.map(|p| (usize::from(s.rank) * usize::from(header.files) + usize::from(s.file), p))
                })
                .collect();
            let mut got: Vec<(usize, char)> = record.squares().collect();
            got.sort();
            let mut expected_sorted = expected.clone();
            expected_sorted.sort();
            assert_eq!(got, expected_sorted, "{}", pos.to_fen());
            assert_eq!(record.seat, pos.to_move());
            record.write(&header, &mut bytes);
            records.push(record);
            let mut list = MoveList::default();
            pos.legal_moves(&mut list);
            pos = pos.play(list.as_slice()[list.len() / 2]);
        }
        assert_eq!(bytes.len(), HEADER_BYTES + records.len() * header.record_bytes());
        let reader = Reader::new(bytes.as_slice()).unwrap();
        assert_eq!(reader.header(), &header);
        let read: Vec<Record> = reader.collect::<Result<_, _>>().unwrap();
        assert_eq!(read, records);
        // A torn last record is an error, not a short read.
        let torn: Vec<Result<Record, String>> = Reader::new(&bytes[..bytes.len() - 3]).unwrap().collect();
        assert_eq!(torn.len(), records.len());
        assert!(torn.last().unwrap().as_ref().unwrap_err().contains("torn"));
    }

    #[test]
    fn records_round_trip_in_every_game_of_the_format() {
        round_trip::<CatChess>(Pieces::AtMostAtStart);
        round_trip::<Xiangqi>(Pieces::AtMostAtStart);
        round_trip::<CatsChess10>(Pieces::AnyNumber);
        // More pieces than the header allows is an error, not a short record.
        let header = Header { pieces: 40, ..Header::of::<CatsChess10>(Pieces::AnyNumber).unwrap() };
        let full = CatsChess10::startpos();
        assert!(Record::of(&header, &full, 0, None, 0, 0).unwrap_err().contains("more than a record's 40"));
    }

    #[test]
    fn the_cat_chess_start_record_has_the_documented_bytes() {
        let header = Header::of::<CatChess>(Pieces::AtMostAtStart).unwrap();
        let record = Record::of(&header, &CatChess::startpos(), 25, Some(Seat::new(2)), 0, 3).unwrap();
        let mut bytes = Vec::new();
        record.write(&header, &mut bytes);
        // Ranks 1, 2, 7, 8 full; the cats on a4 (bit 24) and h5 (bit 39).
        let occupied: u128 = 0xFFFF | 1 << 24 | 1 << 39 | 0xFFFF << 48;
        assert_eq!(&bytes[0..16], &occupied.to_le_bytes());
        assert_eq!(&bytes[16..50], b"RNBQKBNRPPPPPPPP**pppppppprnbqkbnr");
        // White to move, the cats won, +25, turn 0, game 3.
        assert_eq!(&bytes[50..], &[0, 3, 25, 0, 0, 0, 3, 0, 0, 0]);
    }

    #[test]
    fn malformed_records_are_refused() {
        let header = Header::of::<Xiangqi>(Pieces::AtMostAtStart).unwrap();
        let record = Record::of(&header, &Xiangqi::startpos(), 0, None, 0, 0).unwrap();
        let mut bytes = Vec::new();
        record.write(&header, &mut bytes);
        assert_eq!(Record::parse(&header, &bytes), Ok(record));
        let mut b = bytes.clone();
        b[16] = 0;
        assert!(Record::parse(&header, &b).unwrap_err().contains("letters"));
        let mut b = bytes.clone();
        b[15] = 0x80; // square 127: off the 90-point board
        assert!(Record::parse(&header, &b).unwrap_err().contains("does not fit"));
        let mut b = bytes.clone();
        b[16 + 32] = 2; // seat 2 of two
        assert!(Record::parse(&header, &b).unwrap_err().contains("seat 2"));
        assert!(Record::parse(&header, &bytes[1..]).is_err());
    }
}
