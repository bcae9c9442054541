//! The files `catchess datagen` writes: standard chess in bullet's
//! `ChessBoard` ([`bullet`]), which the NNUE community's trainers read; every
//! other game in the project's own format ([`own`], docs/datagen-format.md),
//! since no community format knows cats, xiangqi's points or the 10×10
//! board. [`Encoder`] turns a played game's positions into either.

pub mod bullet;
pub mod own;

use super::play::Sample;
use catchess_game::Seat;
use catchess_games::{Playable, VariantKind};
use own::Pieces;
use std::io::Read;

/// A file format of training data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// bulletformat's 32-byte `ChessBoard`, no header.
    Bullet,
    /// The project's own: a header, then fixed-size records holding as
    /// many pieces as the game's positions can.
    Own(Pieces),
}

impl Format {
    /// The format a game's data is written in.
    pub fn of(variant: VariantKind) -> Format {
        match variant {
            VariantKind::Chess => Format::Bullet,
            VariantKind::CatChess | VariantKind::Xiangqi => Format::Own(Pieces::AtMostAtStart),
            VariantKind::CatsChess10 => Format::Own(Pieces::AnyNumber),
        }
    }

    /// The format's name and version, for the summary and the state file.
    pub fn name(self) -> String {
        match self {
            Format::Bullet => "bulletformat ChessBoard".to_string(),
            Format::Own(_) => format!("catchess data v{}", own::VERSION),
        }
    }
}

/// Writes the positions of one game's data in its format.
#[derive(Clone, Debug)]
pub struct Encoder {
    format: Format,
    /// The own format's header (`None` for bulletformat).
    header: Option<own::Header>,
}

impl Encoder {
    /// The encoder of game `G`'s data in `format`; an error if the game
    /// does not fit the format.
    pub fn new<G: Playable>(format: Format) -> Result<Encoder, String> {
        let header = match format {
            Format::Bullet => {
                bullet::board(&G::startpos(), 0, None).map_err(|e| format!("{}: {e}", G::VARIANT))?;
                None
            }
            Format::Own(pieces) => Some(own::Header::of::<G>(pieces)?),
        };
        Ok(Encoder { format, header })
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// The bytes a file begins with.
    pub fn file_header(&self) -> Vec<u8> {
        self.header.as_ref().map_or_else(Vec::new, |h| h.to_bytes().to_vec())
    }

    /// Appends the record of `sample`, from game number `game` that `winner`
    /// won (`None`: a draw that rewards nobody).
    pub fn encode<G: Playable>(
        &self,
        sample: &Sample<G>,
        winner: Option<Seat>,
        game: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        match &self.header {
            None => out.extend(bullet::to_bytes(&bullet::board(&sample.pos, sample.score, winner)?)),
            Some(header) => {
                let game =
                    u32::try_from(game).map_err(|_| format!("game {game}: the format numbers games in 32 bits"))?;
                own::Record::of(header, &sample.pos, sample.score, winner, sample.turn, game)?.write(header, out);
            }
        }
        Ok(())
    }
}

/// Reads one fixed-size record into `buffer`: `Ok(false)` at a clean end
/// of the input, an error when it ends inside a record (a torn write) or
/// cannot be read.
pub(crate) fn read_record(input: &mut impl Read, buffer: &mut [u8]) -> Result<bool, String> {
    let mut filled = 0;
    while filled < buffer.len() {
        match input.read(&mut buffer[filled..]) {
            Ok(0) if filled == 0 => return Ok(false),
            Ok(0) => return Err(format!("the last record is torn: {filled} of {} bytes", buffer.len())),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read: {e}")),
        }
    }
    Ok(true)
}
