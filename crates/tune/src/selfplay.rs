//! `catchess train --data`: the positions of `catchess datagen` files of
//! standard chess (bulletformat `ChessBoard`, docs/datagen-format.md), read
//! one record at a time into the trainer's 40-byte examples.
//!
//! A record is the board as the side to move sees it, with that side's
//! score and result; `bullet::decode` turns it into a position where that
//! side is white and to move, so the score and the result are white's, as
//! the trainer's targets are. Nothing is lost by it: the network and the
//! hand-made evaluation value a position and its colour-swapped mirror
//! alike (tested below), and the format keeps no
//! castling rights or en passant square, which neither reads anyway.
//!
//! **Which positions are held out.** The format numbers no games, but a
//! game's records are consecutive and the men on the board never grow in
//! number within a game (a capture takes one, a promotion none), so a
//! record with more men than the one before it starts a new game. Games
//! told apart so are held out one in ten, whole. Two games may go
//! untold apart (the second began with no more men than the first ended
//! with), and then count as one, held out or learnt from together: a
//! game is never split between the two sets.

use super::nnue::{held_out, Example, Packed, TrainGame, VALIDATION_EVERY};
use catchess_core::files::open_regular;
use catchess_datagen::format::{bullet, own};
use catchess_game::Seat;
use catchess_games::xiangqi::Xiangqi;
use catchess_games::CatChess;
use std::io::BufReader;

/// The most positions one run reads from datagen files: 5.6 GB of examples.
pub const MAX_POSITIONS: usize = 100_000_000;

/// What a file held.
#[derive(Debug, PartialEq, Eq)]
pub struct Harvest {
    pub positions: usize,
    /// Games told apart (see the module's doc).
    pub games: usize,
    pub held_out: usize,
}

/// Appends the positions of the datagen file `path` to `train` and
/// `validation`, its games numbered on from `first_game`; an error names
/// the file and the record.
pub fn read(
    path: &str,
    first_game: usize,
    train: &mut Vec<Example>,
    validation: &mut Vec<Example>,
) -> Result<Harvest, String> {
    let (file, metadata) = open_regular(path)?;
    let records = metadata.len() / bullet::RECORD_BYTES as u64;
    let room = MAX_POSITIONS - train.len() - validation.len();
    if records > room as u64 {
        return Err(format!(
            "{path}: {records} positions, more than the {room} left of the {MAX_POSITIONS} one run holds in memory \
             (56 bytes each): train on a part (head -c $((32*N)))"
        ));
    }
    // Room for every record at once: no doubling past what the file holds.
    let records = records as usize;
    train.reserve(records - records / VALIDATION_EVERY);
    validation.reserve(records / VALIDATION_EVERY + 1);
    let mut harvest = Harvest { positions: 0, games: 0, held_out: 0 };
    let mut men_before = u32::MAX;
    for (i, board) in bullet::Reader::new(BufReader::new(file)).enumerate() {
        let at = |e: String| format!("{path}: record {} (byte {}): {e}", i + 1, i * bullet::RECORD_BYTES);
        let board = board.map_err(at)?;
        let d = bullet::decode(&board).map_err(at)?;
        let input = Packed::of(&d.pos).ok_or_else(|| at("more than 32 pieces".to_string()))?;
        let men = board.occ.count_ones();
        if men > men_before {
            harvest.games += 1;
        }
        men_before = men;
        let game = first_game + harvest.games;
        let example = Example::new(input, Some(f64::from(d.score)), d.result.points());
        if held_out(game) {
            validation.push(example);
            harvest.held_out += 1;
        } else {
            train.push(example);
        }
        harvest.positions += 1;
    }
    if harvest.positions > 0 {
        harvest.games += 1;
    }
    Ok(harvest)
}

/// Appends the positions of `game`'s datagen file `path` (xiangqi or Cat
/// Chess: the project's own format, docs/datagen-format.md) to `train` and
/// `validation`, as [`read`] does standard chess's: each record's game
/// number holds it out or not (numbered on from `first_game`), its score
/// and result are the first seat's (white's, red's; Cat Chess's winner one
/// of three).
pub fn read_own(
    game: TrainGame,
    path: &str,
    first_game: usize,
    train: &mut Vec<Example>,
    validation: &mut Vec<Example>,
) -> Result<Harvest, String> {
    let (file, metadata) = open_regular(path)?;
    let reader = own::Reader::new(BufReader::new(file)).map_err(|e| format!("{path}: {e}"))?;
    let header = reader.header().clone();
    let variant = match game {
        TrainGame::Xiangqi => "xiangqi",
        TrainGame::CatChess => "catchess",
        TrainGame::Chess => return Err(format!("{path}: standard chess's datagen files are bulletformat")),
    };
    if header.variant != variant {
        return Err(format!("{path} holds {} positions, not {variant}'s", header.variant));
    }
    let records = metadata.len().saturating_sub(own::HEADER_BYTES as u64) / header.record_bytes() as u64;
    let room = MAX_POSITIONS - train.len() - validation.len();
    if records > room as u64 {
        return Err(format!(
            "{path}: {records} positions, more than the {room} left of the {MAX_POSITIONS} one run holds in memory"
        ));
    }
    let mut harvest = Harvest { positions: 0, games: 0, held_out: 0 };
    let mut last_game = None;
    for (i, record) in reader.enumerate() {
        let at = |e: String| format!("{path}: record {}: {e}", i + 1);
        let r = record.map_err(at)?;
        let fen = fen_of(&r, usize::from(header.files), usize::from(header.ranks));
        let example = match game {
            TrainGame::CatChess => {
                let pos = CatChess::from_fen(&fen).map_err(|e| at(format!("not a Cat Chess position: {e}")))?;
                let input = Packed::of_catchess(&pos).ok_or_else(|| at("more than 34 men".to_string()))?;
                // Seats 0, 1 and 2 (white's mate, black's, the cats'); a
                // draw, which the format never gives here, is the cats' too.
                let winner = r.winner.map_or(2, |seat| seat.index().min(2) as u8);
                Example::of_three(input, Some(f64::from(r.score)), winner)
            }
            _ => {
                let pos = Xiangqi::from_fen(&fen).map_err(|e| at(format!("not a xiangqi position: {e}")))?;
                let input = Packed::of_xiangqi(&pos).ok_or_else(|| at("more than 32 men".to_string()))?;
                let red = match r.winner {
                    None => 0.5,
                    Some(seat) if seat == Seat::new(0) => 1.0,
                    Some(_) => 0.0,
                };
                Example::new(input, Some(f64::from(r.score)), red)
            }
        };
        if last_game != Some(r.game) {
            harvest.games += 1;
            last_game = Some(r.game);
        }
        if held_out(first_game + r.game as usize) {
            validation.push(example);
            harvest.held_out += 1;
        } else {
            train.push(example);
        }
        harvest.positions += 1;
    }
    Ok(harvest)
}

/// The FEN of a record's board (`files` × `ranks`, rank 0 the first seat's
/// back rank) with its seat to move.
fn fen_of(r: &own::Record, files: usize, ranks: usize) -> String {
    let mut board = vec![None; files * ranks];
    for (square, letter) in r.squares() {
        board[square] = Some(letter);
    }
    let rows: Vec<String> = (0..ranks)
        .rev()
        .map(|rank| {
            let (mut row, mut empty) = (String::new(), 0);
            for file in 0..files {
                match board[rank * files + file] {
                    Some(letter) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    let side = if r.seat == Seat::new(0) { 'w' } else { 'b' };
    format!("{} {side} - - 0 1", rows.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::Seat;
    use catchess_games::Chess;

    const WHITE: Seat = Seat::new(0);
    const BLACK: Seat = Seat::new(1);

    /// A file of `records` in `std::env::temp_dir()`, named for the test.
    fn file(name: &str, records: &[u8]) -> String {
        let path = std::env::temp_dir().join(format!("catchess-selfplay-{}-{name}", std::process::id()));
        std::fs::write(&path, records).unwrap();
        path.to_str().unwrap().to_string()
    }

    fn record(fen: &str, white_score: i16, winner: Option<Seat>) -> [u8; 32] {
        bullet::to_bytes(&bullet::board(&Chess::from_fen(fen).unwrap(), white_score, winner).unwrap())
    }

    fn read_file(path: &str) -> Result<(Harvest, Vec<Example>, Vec<Example>), String> {
        let (mut train, mut validation) = (Vec::new(), Vec::new());
        let h = read(path, 0, &mut train, &mut validation)?;
        Ok((h, train, validation))
    }

    #[test]
    fn a_record_becomes_white_s_example_of_the_mover_s_board() {
        // Black to move, white's score −120 (black's +120), black won.
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b - - 2 3";
        let pos = Chess::from_fen(fen).unwrap();
        let path = file("one", &record(fen, -120, Some(BLACK)));
        let (h, train, _) = read_file(&path).unwrap();
        assert_eq!(h, Harvest { positions: 1, games: 1, held_out: 0 });
        let e = &train[0];
        // White in the example is the mover: black, who won and scored +120.
        assert_eq!((e.score(), e.result()), (Some(120.0), 1.0));
        assert!(!e.input.black_to_move);
        // The hand-made evaluation and the network value the example as
        // the original position from black's view.
        assert_eq!(e.input.hand_made as i32, -pos.hand_made().value);
        let built_in = catchess_games::chess::nnue::CHOICE.read(catchess_games::chess::nnue::BUILT_IN_NAME).unwrap();
        let original = built_in.value_with(built_in.evaluate(&pos), || pos.hand_made());
        assert_eq!(e.input.network_value(&built_in), -original);
        // White to move, a draw: as it is.
        let path = file("two", &record("8/8/4k3/8/2K5/8/3P4/8 w - - 0 50", 35, None));
        let (_, train, _) = read_file(&path).unwrap();
        assert_eq!((train[0].score(), train[0].result()), (Some(35.0), 0.5));
        assert_eq!(
            train[0].input.hand_made as i32,
            Chess::from_fen("8/8/4k3/8/2K5/8/3P4/8 w - - 0 50").unwrap().hand_made().value
        );
    }

    #[test]
    fn whole_games_are_held_out_one_in_ten() {
        // 20 games of 3 positions each, the men never growing within one:
        // the start, one pawn taken, then another.
        let positions = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1",
            "rnbqkbnr/ppp1pppp/8/8/8/8/PPP1PPPP/RNBQKBNR w - - 0 1",
        ];
        let mut bytes = Vec::new();
        for game in 0..20 {
            for (i, fen) in positions.iter().enumerate() {
                bytes.extend(record(fen, (game * 10 + i) as i16, Some(WHITE)));
            }
        }
        let (h, train, validation) = read_file(&file("games", &bytes)).unwrap();
        assert_eq!(h, Harvest { positions: 60, games: 20, held_out: 6 });
        // Games 9 and 19 (scores 90.., 190..: white's view, so black's
        // positions have the negation).
        let mut held: Vec<i64> = validation.iter().map(|e| e.score().unwrap().abs() as i64).collect();
        held.sort_unstable();
        assert_eq!(held, [90, 91, 92, 190, 191, 192]);
        assert_eq!(train.len(), 54);
        // A second file goes on with the numbering, so its games held out
        // are other ones.
        let (mut train, mut validation) = (Vec::new(), Vec::new());
        let h = read(&file("games2", &bytes[..32 * 12]), 6, &mut train, &mut validation).unwrap();
        assert_eq!(h, Harvest { positions: 12, games: 4, held_out: 3 }, "games 6 to 9: the last is held out");
        assert_eq!(validation.iter().map(|e| e.score().unwrap().abs() as i64).collect::<Vec<_>>(), [30, 31, 32]);
    }

    #[test]
    fn bad_files_are_refused_with_the_file_and_the_record() {
        let good = record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 0, None);
        let mut bytes = [good, good].concat();
        bytes[32 + 26] = 7;
        let path = file("bad-result", &bytes);
        let e = read_file(&path).err().unwrap();
        assert!(e.starts_with(&format!("{path}: record 2 (byte 32): result 7")), "{e}");
        let path = file("torn", &bytes[..40]);
        let e = read_file(&path).err().unwrap();
        assert_eq!(e, format!("{path}: record 2 (byte 32): the last record is torn: 8 of 32 bytes"));
        let e = read_file("/nonexistent/chess.bin").err().unwrap();
        assert!(e.starts_with("cannot read /nonexistent/chess.bin: "), "{e}");
        let dir = std::env::temp_dir();
        let e = read_file(dir.to_str().unwrap()).err().unwrap();
        assert!(e.ends_with("is not a regular file"), "{e}");
    }

    #[test]
    fn a_xiangqi_file_gives_red_s_examples_held_out_by_game() {
        use catchess_games::Xiangqi;
        let header = own::Header::of::<Xiangqi>(own::Pieces::AtMostAtStart).unwrap();
        let mut bytes = header.to_bytes().to_vec();
        let black_to_move = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C4/9/RNBAKABNR b - - 1 2";
        let positions: Vec<(&str, i16, Option<Seat>, u32)> = vec![
            (catchess_games::xiangqi::START_FEN, 30, Some(WHITE), 0),
            (black_to_move, -45, Some(WHITE), 0),
            (black_to_move, 12, None, 9),
            (black_to_move, -80, Some(BLACK), 19),
        ];
        for &(fen, score, winner, game) in &positions {
            let pos = Xiangqi::from_fen(fen).unwrap();
            own::Record::of(&header, &pos, score, winner, 3, game).unwrap().write(&header, &mut bytes);
        }
        let path = file("xiangqi", &bytes);
        let (mut train, mut validation) = (Vec::new(), Vec::new());
        let h = read_own(TrainGame::Xiangqi, &path, 0, &mut train, &mut validation).unwrap();
        assert_eq!(h, Harvest { positions: 4, games: 3, held_out: 2 });
        // Games 0 is learnt from; 9 and 19 are held out (one in ten).
        assert_eq!(train.len(), 2);
        let scores: Vec<_> = train.iter().chain(&validation).map(|e| (e.score(), e.result())).collect();
        assert_eq!(scores, [(Some(30.0), 1.0), (Some(-45.0), 1.0), (Some(12.0), 0.5), (Some(-80.0), 0.0)]);
        // The position is read back: who moves, and its hand-made value.
        let pos = Xiangqi::from_fen(black_to_move).unwrap();
        assert!(train[1].input.black_to_move && !train[0].input.black_to_move);
        assert_eq!(train[1].input.hand_made as i32, pos.hand_made_value());
        // Another game's file, and a torn one, are refused with the file's name.
        let chess = file("xiangqi-chess", &record("8/8/4k3/8/8/3K4/8/8 w - - 0 1", 0, None));
        assert!(read_own(TrainGame::Xiangqi, &chess, 0, &mut train, &mut validation)
            .unwrap_err()
            .contains("xiangqi-chess"));
        let torn = file("xiangqi-torn", &bytes[..bytes.len() - 3]);
        assert!(read_own(TrainGame::Xiangqi, &torn, 0, &mut train, &mut validation).unwrap_err().contains("record 4"));
        for p in [path, chess, torn] {
            std::fs::remove_file(p).unwrap();
        }
    }
}
