//! Game records for the page's export and import: written by the
//! arbiter's record writer (`tournament::record`), read back by the
//! project's PGN reader (`game::pgn`), which takes moves in the game's
//! notation (SAN, WXF, the Cat Chess move text, 10×10 turns) or in the
//! protocol's text.

use super::forfeit::{Ending, Forfeit, Why};
use catchess_game::pgn::record::{self, RecordTags};
use catchess_game::pgn::{self, PgnGame, Stop};
use catchess_game::{Arbitration, History, MoveList, Notation};
use catchess_games::VariantKind;

/// What a record says besides the moves and the result.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// The `Faults` of seats that forfeited and played on.
    pub faults: Vec<String>,
    /// Each seat's PGN `TimeControl` (`300+2`; `-` for a seat without a
    /// clock); empty: `-` for every seat.
    pub controls: Vec<String>,
    /// A comment after each turn: its seat's clock (`[%clk 0:04:58]`), if
    /// the seat has one.
    pub after_turns: Vec<Option<String>>,
    /// A comment after the moves (a 10×10 turn left unfinished).
    pub after: Option<String>,
}

/// The record of `history`, `players` naming each seat's player in seat
/// order (`Person`, `catchess 500 ms`), ended as `ending` says (the
/// result `*` while the game goes on), with `notes`.
pub fn write<G: Notation + Arbitration>(
    history: &History<G>,
    players: Vec<String>,
    ending: Option<Ending>,
    notes: Notes,
) -> String {
    let outcome = ending.as_ref().map(|e| e.outcome);
    let seats = G::SEATS.len();
    let tags = RecordTags {
        event: "catchess serve".into(),
        date: record::today(),
        round: "-".into(),
        players,
        winner: outcome.and_then(|o| o.winner),
        finished: outcome.is_some(),
        points: points::<G>(outcome.map(|o| o.winner)),
        time_controls: if notes.controls.len() == seats { notes.controls } else { vec!["-".into(); seats] },
        termination: ending.map_or("unterminated".to_string(), |e| e.termination),
        faults: notes.faults,
    };
    record::write(&tags, history, &notes.after_turns, None, notes.after.as_deref())
}

/// Points per seat for a finished game (`Some(winner)`), zeros otherwise.
fn points<G: Notation>(result: Option<Option<catchess_game::Seat>>) -> Vec<f64> {
    let seats = G::SEATS.len();
    match result {
        Some(Some(w)) => (0..seats).map(|i| (i == w.index()) as u8 as f64).collect(),
        Some(None) => vec![1.0 / seats as f64; seats],
        None => vec![0.0; seats],
    }
}

/// The first game of a PGN text (the import), read by the project's one
/// reader (`game::pgn`): an error when the text is not PGN or holds none.
pub fn read(text: &str) -> Result<PgnGame, String> {
    let words = VariantKind::all_result_words();
    match pgn::games(text, &words).next() {
        Some(game) => game.map_err(|e| e.to_string()),
        None => Err("the PGN text holds no game".into()),
    }
}

/// A record's game played to its end with `G`'s rules, and the forfeits
/// its passes stand for: a seat for which the arbiter passed (`0000`,
/// where it is no legal move: `Arbitration::arbiter_pass`) forfeited at
/// its first pass and passes from then on, as on the page; by time if the
/// record's `Faults` say so, else by resignation (the page has no other
/// kind; a match record's crash or illegal move reads as a resignation).
pub fn import<G: Notation + Arbitration>(game: &PgnGame) -> Result<(History<G>, Vec<Forfeit>), String> {
    let mut history = pgn::replay::<G>(game, Stop::AtEnd).map_err(|e| e.to_string())?;
    for step in turn_under_way(game) {
        history.push_step(step).map_err(|e| format!("the turn under way ({step}): {e}"))?;
    }
    let mut forfeits: Vec<Forfeit> = Vec::new();
    for (ply, (pos, &m)) in history.positions().iter().zip(history.moves()).enumerate() {
        let seat = pos.to_move().index();
        if pos.arbiter_pass() != Some(m) || forfeits.iter().any(|f| f.seat == seat) {
            continue;
        }
        let mut list = MoveList::default();
        pos.legal_moves(&mut list);
        if list.as_slice().contains(&m) {
            continue;
        }
        let prefix = format!("{} (", G::SEATS[seat].name);
        let by_time = game
            .tag("Faults")
            .is_some_and(|f| f.split("; ").any(|x| x.starts_with(&prefix) && x.contains(Why::Time.name())));
        forfeits.push(Forfeit { seat, ply, why: if by_time { Why::Time } else { Why::Resignation } });
    }
    Ok((history, forfeits))
}

/// What the page's export writes after a record's whole turns when a
/// turn is under way (Cat's Chess 10×10: `white's turn under way: T@?,
/// T@i5`, rolls included): the words before its steps.
pub const UNDER_WAY: &str = "'s turn under way: ";

/// The steps of the turn under way that the record's last comment keeps
/// (see [`UNDER_WAY`]), each as the protocol writes a step.
fn turn_under_way(game: &PgnGame) -> Vec<&str> {
    let last = match game.moves.len().checked_sub(1) {
        Some(i) => game.comment_after(i),
        None => game.before.as_deref(),
    };
    match last.and_then(|c| c.split_once(UNDER_WAY)) {
        Some((_, steps)) => steps.split(", ").map(str::trim).filter(|s| !s.is_empty()).collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess, Xiangqi};

    fn history<G: Notation + Arbitration>(moves: &str) -> History<G> {
        let mut h = History::new(G::startpos());
        for m in moves.split_whitespace() {
            h.push_text(m).unwrap();
        }
        h
    }

    fn imported<G: Notation + Arbitration>(text: &str) -> Result<(History<G>, Vec<Forfeit>), String> {
        import::<G>(&read(text)?)
    }

    fn round_trip<G: Notation + Arbitration>(moves: &str) {
        let h = history::<G>(moves);
        let text = write(&h, vec!["?".into(); G::SEATS.len()], None, Notes::default());
        let (back, forfeits) = imported::<G>(&text).unwrap();
        assert_eq!((back.moves(), forfeits.len()), (h.moves(), 0), "{text}");
    }

    #[test]
    fn records_read_back_in_every_game() {
        round_trip::<Chess>("e2e4 e7e5 g1f3 b8c6 f1b5");
        round_trip::<CatChess>("e2e4 e7e5 h5g4 g1f3 b8c6 a4b5");
        round_trip::<Xiangqi>("h3e3 h10g8 h1g3");
    }

    #[test]
    fn cat_chess_records_read_in_san_and_in_the_older_protocol_text() {
        let h = history::<CatChess>("e2e4 e7e5 h5g4 g1f3 b8c6 a4b5");
        let players = vec!["Person".into(), "catchess level 1".into(), "catchess level 1".into()];
        let text = write(&h, players, None, Notes::default());
        assert!(text.contains("1. e4 e5 h5g4 2. Nf3 Nc6 a4b5 *"), "{text}");
        assert!(text.contains("[Black \"catchess level 1\"]"), "{text}");
        for old in ["1. e2e4 e7e5 h5g4 2. g1f3 b8c6 a4b5 *", "1. e4 e5 h5g4 2. g1f3 Nc6 a4b5 *"] {
            let (back, _) = imported::<CatChess>(old).unwrap();
            assert_eq!(back.moves(), h.moves(), "{old}");
        }
    }

    #[test]
    fn an_unfinished_game_has_no_result_and_a_finished_one_has() {
        let players = || vec!["Person".to_string(), "catchess 500 ms".to_string()];
        let ended = |h: &History<Chess>| crate::forfeit::ending::<Chess>(&[], None, h.outcome());
        let open = write(&history::<Chess>("e2e4"), players(), None, Notes::default());
        assert!(open.contains("[Result \"*\"]") && open.trim_end().ends_with("e4 *"), "{open}");
        assert!(open.contains("[White \"Person\"]\n[Black \"catchess 500 ms\"]"), "{open}");
        assert!(open.contains("[Termination \"unterminated\"]"), "{open}");
        let mate = history::<Chess>("f2f3 e7e5 g2g4 d8h4");
        let mated = write(&mate, players(), ended(&mate), Notes::default());
        assert!(mated.contains("[Result \"0-1\"]") && mated.trim_end().ends_with("Qh4# 0-1"), "{mated}");
        let cats = write(&history::<CatChess>("e2e4"), vec!["?".into(); 3], None, Notes::default());
        assert!(cats.contains("[Result \"*\"]") && !cats.contains("Winner"), "{cats}");
    }

    #[test]
    fn comments_variations_numbers_and_bad_moves() {
        let (h, _) = imported::<Chess>("[Event \"x\"]\n\n1. e4 {best} (1. d4 d5) e5 $1 2. Nf3! ; rest\n1-0").unwrap();
        assert_eq!(h.moves().len(), 3);
        assert_eq!(imported::<Chess>("1. e4 e4").unwrap_err(), "move 1... e4: illegal move \"e4\"");
        assert_eq!(imported::<Chess>("1. e4 {open").unwrap_err(), "line 1: a comment { is not closed by }");
        assert!(imported::<Chess>("[FEN \"nonsense\"]\n").unwrap_err().starts_with("FEN tag: invalid FEN"));
        assert_eq!(imported::<Chess>("  \n").unwrap_err(), "the PGN text holds no game");
    }

    /// The cats' passes after their forfeit (`0000`) import as a forfeit at
    /// the first pass, by time when the record's Faults say so; a pass the
    /// rules give the cats (no cat can step) is none.
    #[test]
    fn a_seat_that_passed_has_forfeited() {
        let mut h = History::new(CatChess::startpos());
        "e2e4 e7e5 0000 g1f3 b8c6 0000".split(' ').for_each(|m| h.push_protocol(m).unwrap());
        let cats = [Forfeit { seat: 2, ply: 2, why: Why::Time }];
        let notes = Notes { faults: crate::forfeit::faults::<CatChess>(&cats, &[]), ..Notes::default() };
        let text = write(&h, vec!["?".into(); 3], None, notes);
        assert!(text.contains("1. e4 e5 0000 2. Nf3 Nc6 0000 *"), "{text}");
        let (back, forfeits) = imported::<CatChess>(&text).unwrap();
        assert_eq!((back.moves(), forfeits.as_slice()), (h.moves(), &cats[..]));
        let (_, forfeits) = imported::<CatChess>("1. e4 e5 0000 *").unwrap();
        assert_eq!(forfeits, [Forfeit { seat: 2, ply: 2, why: Why::Resignation }]);
        let boxed = "[FEN \"*nbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQ1RK* c k - 2 3\"]\n3... 0000 *";
        let (back, forfeits) = imported::<CatChess>(boxed).unwrap();
        assert_eq!((back.moves().len(), forfeits.len()), (1, 0), "the cat in the corner cannot step");
    }

    /// The page's exports of random games of every game read back as the
    /// same game (10×10 turns of several steps and rolls, the cats' passes
    /// after their forfeit, clocks), with the same forfeits.
    #[test]
    fn exports_of_random_games_import_again() {
        use catchess_games::{CatsChess10, Xiangqi};
        use rand::{Rng, SeedableRng};
        fn check<G: Notation + Arbitration>(seed: u64) {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            for _ in 0..15 {
                let mut h = catchess_game::random_game(G::startpos(), rng.gen_range(0..80), &mut rng);
                let mut forfeits = Vec::new();
                if let Some(seat) =
                    (0..G::SEATS.len()).find(|&s| G::forfeit_winner(catchess_game::Seat::new(s)).is_none())
                {
                    // The seat forfeits at its next turn and passes from then on.
                    for _ in 0..rng.gen_range(0..30) {
                        let pos = *h.current();
                        if h.outcome().is_some() {
                            break;
                        }
                        if pos.to_move().index() == seat {
                            if forfeits.is_empty() {
                                forfeits.push(Forfeit { seat, ply: h.moves().len(), why: Why::Resignation });
                            }
                            h.push(pos.arbiter_pass().unwrap());
                        } else {
                            let mut list = MoveList::default();
                            pos.legal_moves(&mut list);
                            h.push(list.as_slice()[rng.gen_range(0..list.len())]);
                        }
                    }
                }
                let players = vec!["Mallory\n[Result \"1-0\"]".to_string(); G::SEATS.len()];
                let after_turns =
                    (0..h.turn_count()).map(|i| Some(super::super::clock::clk(i as u64 * 1100))).collect();
                let notes =
                    Notes { faults: crate::forfeit::faults::<G>(&forfeits, &players), after_turns, ..Notes::default() };
                let ending = crate::forfeit::ending::<G>(&forfeits, None, h.outcome());
                let text = write(&h, players, ending, notes);
                let (back, got) = imported::<G>(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(back.moves(), h.moves(), "{text}");
                // A pass the rules give (no cat can step) is no forfeit.
                let rules_pass = |f: &Forfeit| {
                    let mut list = MoveList::default();
                    h.positions()[f.ply].legal_moves(&mut list);
                    list.as_slice().contains(&h.moves()[f.ply])
                };
                let expected: Vec<Forfeit> = forfeits.iter().copied().filter(|f| !rules_pass(f)).collect();
                if expected.len() == forfeits.len() {
                    assert_eq!(got, expected, "{text}");
                }
                let first = record::capitalised(G::SEATS[0].name);
                assert_eq!(read(&text).unwrap().tag(&first), Some("Mallory [Result \"1-0\"]"), "{text}");
            }
        }
        check::<Chess>(1);
        check::<CatChess>(2);
        check::<Xiangqi>(3);
        check::<CatsChess10>(4);
    }
}
