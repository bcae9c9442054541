//! The `;cat 1` claim of a Cat Chess mate in 1: "this mate exists only
//! because a defender is disarmed". Shared by the suite's test and the
//! generator (`examples/gen_tactics.rs`), which uses it to label positions.

use catchess::games::chess::{Move, Side};
use catchess::{CatChess, Chess, MoveList, Notation};

/// Cat-FEN to FEN: the cats taken off the board, everything else kept.
pub fn without_cats(fen: &str) -> String {
    let (placement, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let ranks: Vec<String> = placement
        .split('/')
        .map(|rank| {
            let mut out = String::new();
            let mut empty = 0;
            for c in rank.chars() {
                match c {
                    '*' => empty += 1,
                    d if d.is_ascii_digit() => empty += d.to_digit(10).unwrap_or(0),
                    _ => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

/// Checks that the Cat Chess mate `answer` in `fen` is a mate only because
/// of Z: the same move in standard chess (the cats off the board) is legal
/// and a check but no mate, and every defence chess allows is a capture by
/// a piece that stands in Z in the Cat Chess position, i.e. one the capture
/// ban forbids (RULES.md §4). So the zone, not the cats' bodies blocking
/// lines, makes the mate. Returns those chess defences, or why the claim
/// fails.
pub fn only_because_of_z(fen: &str, answer: &str) -> Result<Vec<Move>, String> {
    let catpos = CatChess::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
    let m = catpos.parse_move(answer).map_err(|e| format!("in Cat Chess: {e}"))?;
    let after = catpos.play(m);
    if !(after.side_to_move() != Side::Cats && after.in_check() && after.count_legal_moves() == 0) {
        return Err(format!("{answer} is no mate in Cat Chess"));
    }
    let zone = catpos.zone();
    let chess_fen = without_cats(fen);
    let board = Chess::from_fen(&chess_fen).map_err(|e| format!("no chess position {chess_fen}: {e}"))?;
    let m = board.parse_move(answer).map_err(|e| format!("in chess: {e}"))?;
    let after = board.play(m);
    if !after.in_check() {
        return Err(format!("{answer} gives no check in chess"));
    }
    let mut defences = MoveList::default();
    after.legal_moves(&mut defences);
    if defences.is_empty() {
        return Err(format!("{answer} is mate in chess too"));
    }
    let mover = board.side_to_move().color().expect("white or black moves");
    for d in defences.iter() {
        let captures = after.by_color(mover).contains(d.to());
        if !captures || !zone.contains(d.from()) {
            return Err(format!("the chess defence {d} is not a capture by a disarmed piece"));
        }
    }
    Ok(defences.as_slice().to_vec())
}
