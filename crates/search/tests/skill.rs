//! Weakened play (skill levels) on real games. Here, not beside the code: the
//! search names no game, and the games are a crate above it.

use catchess_game::Notation;
use catchess_game::{Game, History as GameHistory, MoveList};
use catchess_games::{CatChess, CatsChess10, Chess, Xiangqi};
use catchess_search::skill::*;
use catchess_search::*;
use rand::{rngs::StdRng, SeedableRng};
use std::collections::BTreeSet;

fn limits(depth: u32) -> Limits {
    Limits { depth: Some(depth), ..Limits::default() }
}

/// The moves played from `fen` at `skill` over `seeds` searches.
fn picks<G: SearchGame + Notation>(fen: &str, skill: Option<Skill>, depth: u32, seeds: u64) -> Vec<G::Move> {
    let game = GameHistory::new(G::from_fen(fen).unwrap());
    let mut searcher = Searcher::<G>::new(1);
    (0..seeds)
        .map(|seed| {
            searcher.clear();
            let r = searcher.search_with_skill(
                &game,
                &limits(depth),
                &[],
                Strength::new(skill, seed),
                &SearchControl::new(),
                &mut |_| {},
            );
            r.best.expect("a move")
        })
        .collect()
}

fn assert_legal<G: Game>(pos: &G, moves: &[G::Move]) {
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    for m in moves {
        assert!(list.iter().any(|l| l == m), "{m} is not legal");
    }
}

/// Skill Level 0 varies its move over seeds, and every move is legal:
/// in every game, with every kind of seat to move.
fn varies<G: SearchGame + Notation>(fen: &str) {
    let moves = picks::<G>(fen, Skill::from_level(0), 20, 24);
    assert_legal(&G::from_fen(fen).unwrap(), &moves);
    let distinct: BTreeSet<String> = moves.iter().map(|m| m.to_string()).collect();
    assert!(distinct.len() > 1, "{fen}: always {distinct:?}");
}

#[test]
fn level_0_picks_several_legal_moves_in_every_game() {
    varies::<Chess>(Chess::startpos().to_fen().as_str());
    varies::<CatChess>(CatChess::startpos().to_fen().as_str());
    // The cats to move.
    varies::<CatChess>("rnbqkbnr/pppp1ppp/8/4p2*/*3P3/8/PPPP1PPP/RNBQKBNR c KQkq - 0 2");
    varies::<Xiangqi>(Xiangqi::startpos().to_fen().as_str());
    varies::<CatsChess10>(CatsChess10::startpos().to_fen().as_str());
}

#[test]
fn full_strength_is_the_very_same_search() {
    let game = GameHistory::new(Chess::startpos());
    let full = |skill: Option<Skill>| {
        let mut s = Searcher::<Chess>::new(4);
        s.search_with_skill(&game, &limits(7), &[], Strength::new(skill, 1), &SearchControl::new(), &mut |_| {})
    };
    let plain = Searcher::<Chess>::new(4).search(&game, &limits(7), &SearchControl::new(), &mut |_| {});
    assert_eq!(full(Skill::from_level(SKILL_MAX)), plain);
    assert_eq!(full(Skill::from_elo(ELO_MAX)), plain);
    assert_eq!(full(Skill::from_elo(2600)), plain, "chess is at full strength from 2500");
    assert_eq!(full(Skill::from_options(false, 1200, SKILL_MAX)), plain);
    assert!(Skill::from_options(true, 1200, SKILL_MAX).is_some(), "UCI_Elo wins over Skill Level");
}

/// Each game's table climbs from the weakest level at `ELO_MIN` to the
/// full strength, and so does everything a level sets.
fn climbs<G: SearchGame>() {
    let table = G::ELO_TO_LEVEL;
    assert_eq!(table[0].0, ELO_MIN, "{}", G::VARIANT);
    assert!(table[0].1 <= -10.0, "{}: the weakest level is at least chess's weakest", G::VARIANT);
    assert!(table.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1), "{}", G::VARIANT);
    assert!(table.last().unwrap().0 <= ELO_MAX);
    let mut last: Option<Skill> = None;
    for elo in (ELO_MIN..ELO_MAX).step_by(10) {
        let Some(s) = Skill::from_elo(elo).expect("below ELO_MAX is asked weakened").in_game::<G>() else {
            // Full strength from here on.
            assert!(Skill::from_elo(elo + 10).and_then(Skill::in_game::<G>).is_none(), "{elo}");
            continue;
        };
        if let Some(l) = last {
            assert!(s.level() > l.level(), "{elo}");
            assert!(s.depth() >= l.depth() && s.candidates() <= l.candidates(), "{elo}");
            assert!(s.weakness() < l.weakness() && s.spread_cap() <= l.spread_cap(), "{elo}");
        }
        last = Some(s);
    }
}

#[test]
fn elo_maps_monotonically_onto_the_level_and_its_search_in_every_game() {
    climbs::<Chess>();
    climbs::<CatChess>();
    climbs::<Xiangqi>();
    climbs::<CatsChess10>();
    let level = |elo, skill: Option<Skill>| skill.map(|s| s.level()).unwrap_or_else(|| panic!("{elo}: full"));
    assert_eq!(level(ELO_MIN, Skill::from_elo(ELO_MIN)), -10.0);
    assert_eq!(Skill::from_elo(0), Skill::from_elo(ELO_MIN), "clamped");
    // The measured points (README, "Playing strength").
    assert_eq!(level(1500, Skill::from_elo(1500).unwrap().in_game::<Chess>()), 5.0);
    assert_eq!(level(2000, Skill::from_elo(2000).unwrap().in_game::<Chess>()), 12.5);
    assert_eq!(level(1500, Skill::from_elo(1500).unwrap().in_game::<Xiangqi>()), 2.0);
    assert_eq!(level(2000, Skill::from_elo(2000).unwrap().in_game::<Xiangqi>()), 7.0);
    // Chess reaches its full strength below the option's top; xiangqi
    // does not.
    assert_eq!(Skill::from_elo(2500).unwrap().in_game::<Chess>(), None);
    assert!(Skill::from_elo(2490).unwrap().in_game::<Chess>().is_some());
    assert!(Skill::from_elo(2500).unwrap().in_game::<Xiangqi>().is_some());
    // A `Skill Level` means the same level in every game.
    let five = Skill::from_level(5).unwrap();
    assert_eq!(five.in_game::<Xiangqi>(), Some(five));
    assert_eq!(Skill::from_level(0).unwrap().depth(), 1);
    assert_eq!(Skill::from_level(19).unwrap().depth(), 20);
}

#[test]
fn the_pick_favours_better_lines_more_at_higher_levels() {
    let values = [50, 20, 0, -30];
    let count_best = |skill: Skill| {
        let mut rng = StdRng::seed_from_u64(3);
        (0..2000).filter(|_| skill.pick(&values, &mut rng) == 0).count()
    };
    let (weakest, low, high) = (
        count_best(Skill::from_elo(ELO_MIN).unwrap()),
        count_best(Skill::from_level(0).unwrap()),
        count_best(Skill::from_level(19).unwrap()),
    );
    assert!(weakest < low && low < high, "{weakest} {low} {high}");
    assert!(weakest < 1200, "the weakest often plays another line: {weakest}");
    // A line three pawns behind is out of reach near the top.
    let mut rng = StdRng::seed_from_u64(5);
    assert!((0..500).all(|_| Skill::from_level(19).unwrap().pick(&[100, -200, -210, -220], &mut rng) == 0));
}

#[test]
fn a_mate_is_never_left_to_chance_even_by_the_weakest_cats() {
    // RULES.md §8: after black's a8a1 (check), only the cat step c3b2
    // disarms the rook; every other cat move lets white be mated, a loss
    // for the cats. The cats value nearness to zero: the pick must read
    // their own values, not white's.
    let fen = "4k3/8/8/8/8/2*5/5PPP/r5K1 c - - 1 1";
    let pos = CatChess::from_fen(fen).unwrap();
    let save = pos.parse_move("c3b2").unwrap();
    for skill in [Skill::from_elo(ELO_MIN), Skill::from_level(0), Skill::from_level(10)] {
        let moves = picks::<CatChess>(fen, skill, 6, 16);
        assert!(moves.iter().all(|&m| m == save), "{skill:?}: {moves:?}");
    }
}

#[test]
fn cat_chess_has_the_widest_weakest_level_and_it_never_picks_a_seen_mate() {
    let weakest = Skill::from_elo(ELO_MIN).unwrap();
    let chess = weakest.in_game::<Chess>().unwrap();
    let cats = weakest.in_game::<CatChess>().unwrap();
    assert_eq!((chess.level(), chess.candidates()), (-10.0, 8));
    assert_eq!((cats.level(), cats.candidates(), cats.depth()), (-30.0, 16, 1));
    // Levels above the bottom mean what they mean in chess.
    for elo in [1000, 1200, 1500, 2000] {
        assert_eq!(
            Skill::from_elo(elo).unwrap().in_game::<CatChess>(),
            Skill::from_elo(elo).unwrap().in_game::<Chess>()
        );
    }
    // The widest spread could lift a line mated in two over a drawn one
    // about once in 3,400 picks; it never does.
    let mut rng = StdRng::seed_from_u64(9);
    let values = [0, -MATE + 4];
    assert!((0..20_000).all(|_| cats.pick(&values, &mut rng) == 0));
    // With every line mated one is still played.
    assert!(cats.pick(&[-MATE + 2, -MATE + 4], &mut rng) < 2);
    // Short of a mate the weakest cats play all sorts of lines.
    let spread: BTreeSet<usize> = (0..200).map(|_| cats.pick(&[0, -50, -200, -400, -700], &mut rng)).collect();
    assert_eq!(spread.len(), 5, "{spread:?}");
}
