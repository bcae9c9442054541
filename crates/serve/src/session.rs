//! One game held by the server, for one concrete game type, behind
//! [`AnyGame`], the object-safe face the routes use whatever the game.

use super::clock::{self, Clocks, Span, TimeControl};
use super::db::Row;
use super::dice::Dice;
use super::draw::{self, Agreement};
use super::error::ApiError;
use super::forfeit::{self, Ending, Forfeit, Why};
use super::pgn;
use super::review::{Point, Review};
use super::table::{PlayerView, ProposalView, MAX_NAME as MAX_PLAYER_NAME};
use catchess_engine::play_turn;
use catchess_game::view::{BoardView, Layout, MoveView, SquareView};
use catchess_game::SeatInfo;
use catchess_game::{winner_name, Game, History, MoveList, Notation, Seat};
use catchess_games::{with_game, Playable, VariantKind};
use catchess_search::{Limits, Score, SearchControl, SearchInfo, Searcher, Strength};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A game's state as the API returns it.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// The game's id: random, so that no page can guess another's game.
    pub id: String,
    pub variant: &'static str,
    pub fen: String,
    /// The seat to move (`white`, `black`, `cats`, `red`).
    pub turn: &'static str,
    /// The legal moves in the protocol's text (empty once the game is over).
    /// In a game of several steps a turn (Cat's Chess 10×10), the next
    /// steps, each of which `POST moves` accepts by itself.
    pub legal: Vec<String>,
    /// The steps of the turn under way (empty at a turn's start; always
    /// empty in a game of one move a turn).
    pub turn_steps: Vec<String>,
    pub outcome: Option<OutcomeView>,
    pub start_fen: String,
    pub moves: Vec<PlyView>,
    /// The turns played, one entry each (a move list shows these): in
    /// Cat's Chess 10×10 a turn is several moves (steps).
    pub turns: Vec<TurnView>,
    /// The seats that forfeited and play on, passing (Cat Chess's cats).
    pub forfeited: Vec<&'static str>,
    /// The clocks of the seats that have one (`clock.rs`); `None` when no
    /// seat has.
    pub clock: Option<ClockView>,
    /// The legal moves with their squares, for the page.
    pub legal_moves: Vec<MoveView>,
    pub last_move: Option<MoveView>,
    pub board: Vec<SquareView>,
    /// The endgame tables' answer (`serve --tb-dir`), when they cover the
    /// position and the game is not over (and, at a table, when the
    /// engine's thinking is shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<super::tablebase::TablebaseView>,
    /// Who plays each seat (`table.rs`); `None`: an analysis board.
    pub players: Option<BTreeMap<&'static str, PlayerView>>,
    /// Whether the engine's thinking is shown to the players during the
    /// game (always on an analysis board).
    pub show_thinking: bool,
    /// A take-back asked for, waiting for the others' consent.
    pub proposal: Option<ProposalView>,
    /// The state's number (the `id:` of the live stream's event,
    /// `live.rs`): one more for each change of the game, and higher after
    /// a restart of the server than before it, so that a page that gets
    /// states from its requests and from its stream keeps the newest.
    pub version: u64,
}

/// The clocks as a state shows them: each clocked seat's time left at
/// `server_time_ms`, and the seat whose clock runs. A page shows them and
/// counts the running one down until the next state; the server decides
/// a flag fall.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ClockView {
    pub seats: Vec<SeatClock>,
    /// The seat whose clock runs (the seat to move, if it has a clock and
    /// the game goes on); `None` otherwise.
    pub running: Option<&'static str>,
    /// The server's time of this reading, ms since the UNIX epoch.
    pub server_time_ms: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SeatClock {
    pub seat: &'static str,
    pub base_ms: u64,
    pub inc_ms: u64,
    pub left_ms: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct OutcomeView {
    /// The winning seat; `None` for a draw that rewards nobody.
    pub winner: Option<&'static str>,
    pub reason: &'static str,
    /// `cats win: threefold repetition`, `draw: fifty-move rule`.
    pub text: String,
}

impl OutcomeView {
    fn new<G: Game>(e: &Ending) -> OutcomeView {
        let o = &e.outcome;
        let winner = o.winner.map(|_| winner_name::<G>(o.winner));
        let text = match winner {
            Some(w) => format!("{w} win{}: {}", if w.ends_with('s') { "" } else { "s" }, e.termination),
            None => format!("draw: {}", e.termination),
        };
        OutcomeView { winner, reason: o.reason.name(), text }
    }
}

/// One turn of the game.
#[derive(Clone, Debug, Serialize)]
pub struct TurnView {
    /// The seat that played it.
    pub seat: &'static str,
    /// In the game's notation: the move's (SAN, WXF), or in a game of
    /// several moves a turn the turn's token (`T@e5,d1d2,M@d1`).
    pub notation: String,
    /// Its moves in `moves`: plies `first..=last` (from 1).
    pub first: usize,
    pub last: usize,
}

/// A position of the game as it stood after `ply` moves (0: the start),
/// for a page that steps through the moves.
#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    pub ply: usize,
    pub fen: String,
    pub turn: &'static str,
    pub last_move: Option<MoveView>,
    pub board: Vec<SquareView>,
    /// The endgame tables' answer, as in the game's state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<super::tablebase::TablebaseView>,
}

/// One move of the game.
#[derive(Clone, Debug, Serialize)]
pub struct PlyView {
    /// 1 for the first move played.
    pub ply: usize,
    /// The seat that played it.
    pub seat: &'static str,
    /// The protocol's text.
    #[serde(rename = "move")]
    pub text: String,
    /// In the game's notation (SAN, WXF; a 10×10 step's text).
    pub notation: String,
    /// The server's roll (an outcome of a die: Cat's Chess 10×10's
    /// teleport square), not a seat's choice.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub roll: bool,
}

/// A score from the seat to move's point of view.
#[derive(Clone, Copy, Debug, Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreView {
    Cp(i32),
    Mate(i32),
}

impl From<Score> for ScoreView {
    fn from(s: Score) -> ScoreView {
        match s {
            Score::Cp(cp) => ScoreView::Cp(cp),
            Score::Mate(n) => ScoreView::Mate(n),
        }
    }
}

/// One seat's chance in a three-way outlook.
#[derive(Clone, Debug, Serialize)]
pub struct Chance {
    pub seat: &'static str,
    pub percent: u32,
    /// The seat cannot win as the position stands (Cat Chess: the enemy
    /// king beside a cat, where it is never checked), whatever the score
    /// says: `percent` is 0 unless a mate is proved.
    pub cannot_win: bool,
}

/// One finished iteration of a search.
#[derive(Clone, Debug, Serialize)]
pub struct InfoView {
    /// Which of the best lines this is, from 1 (an analysis with `multipv`).
    pub multipv: usize,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub score: ScoreView,
    /// The value in centipawns from the first seat's view.
    pub first_seat_cp: i32,
    pub pv: Vec<String>,
    pub pv_notation: Vec<String>,
    /// Each seat's chance, for games with a near-zero seat (Cat Chess).
    pub outlook: Option<Vec<Chance>>,
}

/// What a finished search found.
#[derive(Clone, Debug, Serialize)]
pub struct Found {
    /// `None` when the position has no legal move.
    pub best: Option<String>,
    pub best_notation: Option<String>,
    pub score: ScoreView,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<String>,
    pub pv_notation: Vec<String>,
    /// The search failed and the first legal move stands in.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fallback: bool,
}

/// Called with each finished iteration, and once with the result.
pub type OnInfo = Box<dyn FnMut(InfoView) + Send>;
pub type OnDone = Box<dyn FnOnce(Found) + Send>;

/// A game of any type, as the routes use it.
/// `now`: the server's time (`clock::TimeSource`), in ms.
pub trait AnyGame: Send {
    /// A copy of the game as it is: what a change that could not be
    /// committed goes back to (`store.rs`).
    fn snapshot(&self) -> Box<dyn AnyGame>;
    /// The game's seats, in turn order.
    fn seats(&self) -> &'static [SeatInfo];
    /// The seat to move (its index in [`AnyGame::seats`]).
    fn to_move(&self) -> usize;
    /// The moves played (rolls and passes included).
    fn plies(&self) -> usize;
    /// Whether `seat` forfeited and passes.
    fn passes(&self, seat: usize) -> bool;
    /// The moves a take-back for `seat` takes back: a forfeit that ended
    /// the game (one), else back to before the seat's last turn (one under
    /// way included) and every turn after it; 0 when it has had none.
    fn plies_back_for(&self, seat: usize) -> usize;
    /// The steps of the turn under way (Cat's Chess 10×10; else 0).
    fn steps_under_way(&self) -> usize;
    fn state(&self, id: &str, now: u64) -> State;
    /// The seat to move's time left at `now` and its increment, in ms,
    /// when its clock runs (the engine's seat spends it: `seated.rs`).
    fn clock_to_move(&self, now: u64) -> Option<(u64, u64)>;
    fn is_over(&self) -> Option<String>;
    /// Ends the game by time forfeit if the seat to move's clock ran out
    /// by `now` (the game's forfeit rule: in Cat Chess the cats pass on);
    /// returns that seat's name.
    fn settle(&mut self, now: u64) -> Option<&'static str>;
    /// Plays a legal move given in the protocol's text: one step (an
    /// entry of `legal`) or a whole turn, charged to the mover's clock at
    /// `now` (the caller has settled the game first); then the server
    /// makes the roll it asked for, if any. A roll's outcome is never a
    /// seat's to give.
    fn play(&mut self, text: &str, now: u64) -> Result<(), ApiError>;
    /// What the database keeps: the variant, the start position, every
    /// move played (rolls included), the forfeits and the clocks.
    fn record(&self, id: &str) -> Row;
    /// Records that `seat` (a seat's name) gives up: the game's forfeit
    /// rule then ends the game or lets the seat pass from now on. A flag
    /// fall of a seat whose clock the server keeps is the server's to find.
    fn forfeit(&mut self, seat: &str, why: Why, now: u64) -> Result<(), ApiError>;
    /// Ends the game at `now` in a draw the seats agreed (`draw.rs`).
    fn agree_draw(&mut self, now: u64) -> Result<(), ApiError>;
    /// Whether the engine playing `seat` agrees to a draw now
    /// (`draw::engine_accepts`).
    fn engine_accepts_draw(&self, seat: usize) -> bool;
    /// The position after `ply` moves; `None` past the last.
    fn position(&self, ply: usize) -> Option<PositionView>;
    /// Takes back up to `plies` moves; returns how many were. The clocks
    /// get back the time of the moves taken back; the seat to move's runs
    /// from `now`.
    fn take_back(&mut self, plies: usize, now: u64) -> usize;
    /// Charges the seat to move for its step so far (the server stops:
    /// the time is kept); whether a clock was running.
    fn pause(&mut self, now: u64) -> bool;
    /// Holds every clock from `now` (`held`: a seat waits for its
    /// player), or lets the seat to move's run again from `now`.
    fn hold_clocks(&mut self, held: bool, now: u64);
    /// The record, `players` naming the player of each seat it names
    /// (by the seat's name; `?` for the others).
    fn pgn(&self, players: &HashMap<String, String>) -> Result<String, ApiError>;
    /// The positions a review judges (`review.rs`), by the moves before
    /// each: every turn's start, and the end when the game stands at a
    /// turn's start or is over by its rules (a turn under way is not
    /// judged).
    fn review_plies(&self) -> Vec<usize>;
    /// Reviews the game on the caller's thread: each position of
    /// [`AnyGame::review_plies`] searched within `limits` with a table of
    /// `hash_mb` MiB, each reading given to `on_point` as it comes; `None`
    /// when stopped through `control` before the end.
    fn review(
        &self,
        limits: &Limits,
        hash_mb: usize,
        control: &SearchControl,
        on_point: &mut dyn FnMut(&Point),
    ) -> Option<Review>;
    /// Searches the current position on a thread of its own within
    /// `limits`, until done or stopped through `control`, with a table of
    /// `hash_mb` MiB made for this search and freed after it.
    fn search(
        &self,
        limits: Limits,
        strength: Strength,
        hash_mb: usize,
        control: Arc<SearchControl>,
        on_info: OnInfo,
        on_done: OnDone,
    );
}

/// Where a new game starts.
pub enum Start<'a> {
    /// The game's start position, or a FEN.
    Position(Option<&'a str>),
    /// A PGN record (its `Variant` tag, or the variant asked for when it
    /// has none), played to its end.
    Record(&'a str),
}

/// A new game of `variant`, with clocks from `now` for the seats
/// `clocks` names (by seat name).
pub fn new_game(
    variant: VariantKind,
    start: Start,
    clocks: &HashMap<String, TimeControl>,
    now: u64,
) -> Result<Box<dyn AnyGame>, ApiError> {
    match start {
        Start::Record(text) => {
            let record = pgn::read(text).map_err(ApiError::bad_request)?;
            let kind = VariantKind::of_record(record.tag("Variant"), variant).map_err(ApiError::bad_request)?;
            with_game!(kind, G => {
                let (history, forfeits) = pgn::import::<G>(&record).map_err(ApiError::unprocessable)?;
                start_game::<G>(history, forfeits, clocks, now)
            })
        }
        Start::Position(fen) => with_game!(variant, G => {
            let start = match fen {
                Some(fen) => G::from_fen(fen).map_err(|e| ApiError::unprocessable(e.to_string()))?,
                None => G::startpos(),
            };
            start_game::<G>(History::new(start), Vec::new(), clocks, now)
        }),
    }
}

fn start_game<G: Playable>(
    history: History<G>,
    forfeits: Vec<Forfeit>,
    clocks: &HashMap<String, TimeControl>,
    now: u64,
) -> Result<Box<dyn AnyGame>, ApiError> {
    if let Some(seat) = clocks.keys().find(|k| !G::SEATS.iter().any(|s| s.name == k.as_str())) {
        return Err(not_a_seat::<G>(seat));
    }
    for (seat, control) in clocks {
        control.check().map_err(|e| ApiError::bad_request(format!("{seat}'s clock: {e}")))?;
    }
    let mut game = GameSession::<G>::new(history, forfeits, None, None, Dice::new());
    if !clocks.is_empty() {
        let controls = G::SEATS.iter().map(|s| clocks.get(s.name).copied()).collect();
        game.clocks = Some(Clocks::new(controls, game.history.moves().len(), now));
    }
    Ok(Box::new(game))
}

fn not_a_seat<G: Game>(name: &str) -> ApiError {
    let seats: Vec<&str> = G::SEATS.iter().map(|s| s.name).collect();
    ApiError::bad_request(format!("{name:?} is not a seat of this game ({})", seats.join(", ")))
}

/// A game read back from the database: its moves replayed one by one
/// with the game's rules (rolls as they were rolled, the passes of a seat
/// that forfeited as the arbiter played them), its forfeits, and its
/// clocks, which run again from `now` (the server's start).
pub fn restore(row: Row, now: u64) -> Result<Box<dyn AnyGame>, String> {
    let Row { variant, start_fen, moves, forfeits, agreement, clocks, dice, .. } = row;
    let kind: VariantKind = variant.parse()?;
    with_game!(kind, G => {
        let mut history = History::new(G::from_fen(&start_fen).map_err(|e| e.to_string())?);
        for (i, text) in moves.iter().enumerate() {
            history.push_step(text).map_err(|e| format!("move {}: {e}", i + 1))?;
        }
        if let Some(f) = forfeits.iter().find(|f| f.seat >= G::SEATS.len() || f.ply > moves.len()) {
            return Err(format!("a forfeit of seat {} after move {} does not fit the game", f.seat, f.ply));
        }
        if let Some(a) = agreement.filter(|a| a.ply != moves.len()) {
            return Err(format!("a draw agreed after move {} does not fit the game of {} moves", a.ply, moves.len()));
        }
        let clocks = clocks.map(|c| c.restored(G::SEATS.len(), moves.len(), now)).transpose()?;
        // A game kept before the dice were: new dice from now on.
        let dice = dice.unwrap_or_default();
        Ok(Box::new(GameSession::<G>::new(history, forfeits, agreement, clocks, dice)) as Box<dyn AnyGame>)
    })
}

/// The refusal of `text`, which is no legal move of `pos` in either of the
/// ways a person may write one (the game's records' notation, or from
/// square to square), with both spellings of a legal move for an example.
fn unreadable_move<G: Playable>(pos: &G, text: &str) -> ApiError {
    let example = legal(pos).first().map(|&m| {
        let (record, coordinates) = (pos.record_move(m), m.to_string());
        if record == coordinates {
            format!(" (such as {coordinates})")
        } else {
            format!(" (such as {record} or {coordinates})")
        }
    });
    ApiError::unprocessable(format!(
        "illegal move {text:?}: no legal move here is written so; write one as the move list does or from square to square{}",
        example.unwrap_or_default()
    ))
}

/// The board description of `variant`.
pub fn layout(variant: VariantKind) -> Layout {
    with_game!(variant, G => G::layout())
}

/// A position drawn from its FEN, for the rules' diagrams (the page's
/// rules panel): its squares as the game marks them (zones, disarmed
/// pieces, a king in check) and the legal moves (in Cat's Chess 10×10 the
/// next steps), as the rules code finds them, so that the page computes
/// none of it. No game is made.
#[derive(Debug, Serialize)]
pub struct Diagram {
    pub fen: String,
    pub turn: &'static str,
    pub board: Vec<SquareView>,
    pub legal_moves: Vec<MoveView>,
    pub last_move: Option<MoveView>,
}

/// The most moves a diagram plays from its FEN.
pub const DIAGRAM_MOVES: usize = 16;

/// The diagram of `fen` after `moves` (legal moves or steps, as `POST
/// moves` takes them, at most [`DIAGRAM_MOVES`]): a pick shows its
/// piece's targets, a cat's step the check it gives.
pub fn diagram(variant: VariantKind, fen: &str, moves: &[&str]) -> Result<Diagram, ApiError> {
    if moves.len() > DIAGRAM_MOVES {
        return Err(ApiError::bad_request(format!("at most {DIAGRAM_MOVES} moves, got {}", moves.len())));
    }
    with_game!(variant, G => {
        let mut pos = G::from_fen(fen).map_err(|e| ApiError::unprocessable(e.to_string()))?;
        let mut last = None;
        for text in moves {
            let m = pos.parse_move(text).map_err(|e| ApiError::unprocessable(e.to_string()))?;
            if pos.is_chance() {
                return Err(ApiError::unprocessable(format!("{text:?} gives the outcome of a roll; a diagram has no dice")));
            }
            pos = pos.play(m);
            last = Some(G::move_view(m));
        }
        Ok(Diagram {
            fen: pos.to_fen(),
            turn: G::SEATS[pos.to_move().index()].name,
            board: pos.squares(),
            legal_moves: legal(&pos).into_iter().map(G::move_view).collect(),
            last_move: last,
        })
    })
}

/// Makes every large allocation (a search's table) a mapping of its own,
/// returned to the system when freed. glibc otherwise raises its mmap
/// threshold past a freed table's size, so the next table comes from a
/// thread's arena, whose top it keeps when freed (`malloc_trim` leaves a
/// thread arena's top alone): a server whose searches ended would hold
/// their tables. Setting the threshold fixes it and stops the raising.
/// Elsewhere the allocator decides.
pub fn large_allocations_are_returned() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets an allocator parameter; it takes no pointer.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

#[derive(Clone)]
pub struct GameSession<G: Playable> {
    history: History<G>,
    /// The seats that gave up, in order (`forfeit.rs`).
    forfeits: Vec<Forfeit>,
    /// The draw the seats agreed, which ended the game (`draw.rs`).
    agreement: Option<Agreement>,
    /// The seats' clocks, if any seat has one (`clock.rs`).
    clocks: Option<Clocks>,
    /// The server's dice for the game's rolls (`dice.rs`).
    dice: Dice,
    /// No clock runs: a person seat of the table waits for its player (a
    /// friend who has not opened the link yet loses no time). Not kept:
    /// the store sets it from the table (`AnyGame::hold_clocks`).
    clocks_held: bool,
}

impl<G: Playable> GameSession<G> {
    /// A game from `history`; the moves no seat chooses are made at once
    /// (`arbiter_moves`), so that no game waits for a roll (a record
    /// ending in `T@?`).
    pub fn new(
        history: History<G>,
        forfeits: Vec<Forfeit>,
        agreement: Option<Agreement>,
        clocks: Option<Clocks>,
        dice: Dice,
    ) -> Self {
        let mut game = GameSession { history, forfeits, agreement, clocks, dice, clocks_held: false };
        game.arbiter_moves();
        game
    }

    /// The turns as the clocks see them.
    fn spans(&self) -> Vec<Span> {
        let starts = self.history.turn_starts();
        let positions = self.history.positions();
        let plies = self.history.moves().len();
        let ends = starts.iter().skip(1).copied().chain(std::iter::once(plies));
        let last = starts.len().saturating_sub(1);
        let done = self.history.current().at_turn_start();
        starts
            .iter()
            .zip(ends)
            .enumerate()
            .map(|(i, (&a, b))| {
                let seat = positions[a].to_move().index();
                let passed = self.forfeits.iter().any(|f| f.seat == seat && f.ply <= a);
                Span { seat, plies: a..b, over: i < last || done, passed }
            })
            .collect()
    }

    /// The seat to move, if its clock runs: it has one, the clocks are
    /// not held, the game goes on, and the seat has not forfeited (a seat that passes has no time
    /// to spend).
    fn clock_running(&self) -> Option<usize> {
        let clocks = self.clocks.as_ref().filter(|_| !self.clocks_held)?;
        let seat = self.history.current().to_move();
        let runs =
            clocks.control(seat.index()).is_some() && !forfeit::passes(&self.forfeits, seat) && self.ending().is_none();
        runs.then_some(seat.index())
    }

    /// Makes a change of the moves (`change`), with the clocks brought up
    /// to `now` before it and the step's time given to its first new move
    /// after it.
    fn timed<R>(&mut self, now: u64, change: impl FnOnce(&mut Self) -> R) -> R {
        let runs = self.clock_running().is_some();
        if let Some(c) = &mut self.clocks {
            c.charge(now, runs);
        }
        let before = self.history.moves().to_vec();
        let result = change(self);
        let after = self.history.moves();
        let kept = before.iter().zip(after).take_while(|(a, b)| a == b).count();
        if let Some(c) = &mut self.clocks {
            c.moved(kept, after.len());
        }
        result
    }

    fn clock_view(&self, now: u64) -> Option<ClockView> {
        let clocks = self.clocks.as_ref()?;
        let running = self.clock_running();
        let to_move = self.history.current().to_move().index();
        let left = clocks.left(&self.spans(), to_move, running.is_some(), now);
        let seats = G::SEATS
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let c = clocks.control(i)?;
                Some(SeatClock { seat: s.name, base_ms: c.base_ms, inc_ms: c.inc_ms, left_ms: left[i]? })
            })
            .collect();
        Some(ClockView { seats, running: running.map(|i| G::SEATS[i].name), server_time_ms: now })
    }

    /// How the game ended, if it has: by the rules, a forfeit or an
    /// agreed draw.
    fn ending(&self) -> Option<Ending> {
        forfeit::ending::<G>(&self.forfeits, self.agreement, self.history.outcome())
    }

    /// The moves the server makes as the arbiter: a roll a seat asked for
    /// (Cat's Chess 10×10's teleport: `T@?`, `reroll`), and the pass of a
    /// seat that forfeited and plays on (Cat Chess's cats).
    fn arbiter_moves(&mut self) {
        loop {
            if self.roll() {
                continue;
            }
            if self.ending().is_some() {
                return;
            }
            let pos = self.history.current();
            match pos.arbiter_pass().filter(|_| forfeit::passes(&self.forfeits, pos.to_move())) {
                Some(pass) => self.history.push(pass),
                None => return,
            }
        }
    }

    /// Rolls at a chance position with the game's dice: the same roll at
    /// the same place gives the same outcome (`dice.rs`), a `reroll` the
    /// next draw of the roll it repeats. Whether it rolled.
    fn roll(&mut self) -> bool {
        let pos = self.history.current();
        if !pos.is_chance() {
            return false;
        }
        let draw = if pos.is_reroll() { self.dice.next_draw() } else { 0 };
        // Where the roll lands: the rules roll again where they rolled first.
        let ply = self.history.moves().len().saturating_sub(pos.arbiter_rewind());
        let fen = self.history.positions()[ply].to_fen();
        let mut rng = self.dice.roll(ply, &fen, draw);
        self.history.roll(&mut rng).is_some()
    }

    fn turns(&self) -> Vec<TurnView> {
        let mut first = 1;
        self.history
            .turns()
            .into_iter()
            .map(|(pos, steps)| {
                let notation = match steps {
                    [m] => pos.record_move(*m),
                    _ => pos.turn_text(steps),
                };
                let view = TurnView {
                    seat: G::SEATS[pos.to_move().index()].name,
                    notation,
                    first,
                    last: first + steps.len() - 1,
                };
                first += steps.len();
                view
            })
            .collect()
    }
}

fn legal<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.as_slice().to_vec()
}

/// A line of moves in the protocol's text, in the game's notation, as far
/// as it is legal from `pos`.
fn notation_of<G: Notation>(pos: &G, line: &[String]) -> Vec<String> {
    let mut pos = *pos;
    let mut out = Vec::new();
    for text in line {
        let Ok(m) = pos.parse_move(text) else { break };
        out.push(pos.record_move(m));
        pos = pos.play(m);
    }
    out
}

fn info_view<G: Playable>(pos: &G, info: &SearchInfo) -> InfoView {
    let millis = info.time.as_millis().max(1) as u64;
    let outlook = catchess_engine::has_outlook(G::SEATS).then(|| {
        let chances = catchess_engine::outlook(pos, info);
        G::SEATS
            .iter()
            .zip(chances)
            .map(|(s, c)| Chance { seat: s.name, percent: c.percent, cannot_win: c.cannot_win })
            .collect()
    });
    InfoView {
        multipv: info.multipv.max(1),
        depth: info.depth,
        seldepth: info.seldepth,
        nodes: info.nodes,
        nps: info.nodes.saturating_mul(1000) / millis,
        time_ms: info.time.as_millis() as u64,
        score: info.score.into(),
        first_seat_cp: info.first_seat_cp,
        pv: info.pv.clone(),
        pv_notation: notation_of(pos, &info.pv),
        outlook,
    }
}

impl<G: Playable> AnyGame for GameSession<G> {
    fn snapshot(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn seats(&self) -> &'static [SeatInfo] {
        G::SEATS
    }

    fn to_move(&self) -> usize {
        self.history.current().to_move().index()
    }

    fn plies(&self) -> usize {
        self.history.moves().len()
    }

    fn passes(&self, seat: usize) -> bool {
        forfeit::passes(&self.forfeits, Seat::new(seat))
    }

    fn plies_back_for(&self, seat: usize) -> usize {
        if self.history.outcome().is_none() && self.ending().is_some() {
            return 1;
        }
        let mut plies = 0;
        for (pos, steps) in self.history.turns().into_iter().rev() {
            plies += steps.len();
            if pos.to_move().index() == seat {
                return plies;
            }
        }
        0
    }

    fn steps_under_way(&self) -> usize {
        match self.history.turn_starts().last() {
            Some(&start) if !G::ONE_MOVE_TURNS && !self.history.current().at_turn_start() => {
                self.history.moves().len() - start
            }
            _ => 0,
        }
    }

    fn state(&self, id: &str, now: u64) -> State {
        let pos = self.history.current();
        let outcome = self.ending();
        let moves = if outcome.is_some() { vec![] } else { legal(pos) };
        let positions = self.history.positions();
        let played = self.history.moves();
        let turn_steps = match self.history.turn_starts().last() {
            Some(&start) if !G::ONE_MOVE_TURNS && !pos.at_turn_start() => {
                played[start..].iter().map(|m| m.to_string()).collect()
            }
            _ => vec![],
        };
        State {
            id: id.to_string(),
            variant: G::VARIANT,
            fen: pos.to_fen(),
            turn: G::SEATS[pos.to_move().index()].name,
            legal: moves.iter().map(|m| m.to_string()).collect(),
            turn_steps,
            outcome: outcome.as_ref().map(OutcomeView::new::<G>),
            start_fen: self.history.start().to_fen(),
            moves: played
                .iter()
                .zip(positions)
                .enumerate()
                .map(|(i, (&m, before))| PlyView {
                    ply: i + 1,
                    seat: G::SEATS[before.to_move().index()].name,
                    text: m.to_string(),
                    notation: before.record_move(m),
                    roll: before.is_chance(),
                })
                .collect(),
            turns: self.turns(),
            forfeited: self.forfeits.iter().map(|f| G::SEATS[f.seat].name).collect(),
            clock: self.clock_view(now),
            legal_moves: moves.iter().map(|&m| G::move_view(m)).collect(),
            last_move: played.last().map(|&m| G::move_view(m)),
            board: pos.squares(),
            tablebase: if outcome.is_some() { None } else { super::tablebase::view(pos) },
            players: None,
            show_thinking: true,
            proposal: None,
            version: 0,
        }
    }

    fn clock_to_move(&self, now: u64) -> Option<(u64, u64)> {
        let view = self.clock_view(now)?;
        let running = view.running?;
        view.seats.iter().find(|c| c.seat == running).map(|c| (c.left_ms, c.inc_ms))
    }

    fn is_over(&self) -> Option<String> {
        self.ending().map(|e| format!("{} ({})", winner_name::<G>(e.outcome.winner), e.termination))
    }

    fn settle(&mut self, now: u64) -> Option<&'static str> {
        let seat = self.clock_running()?;
        let spans = self.spans();
        let clocks = self.clocks.as_mut()?;
        if !clocks.flag_fell(&spans, seat, now) {
            return None;
        }
        clocks.fall(&spans, seat, now);
        let ply = self.history.moves().len();
        // The fall is charged: what follows (Cat Chess's cats' pass) is the
        // arbiter's, in no time.
        self.timed(now, |game| {
            game.forfeits.push(Forfeit { seat, ply, why: Why::Time });
            game.arbiter_moves();
        });
        Some(G::SEATS[seat].name)
    }

    fn play(&mut self, text: &str, now: u64) -> Result<(), ApiError> {
        if let Some(over) = self.is_over() {
            return Err(ApiError::conflict(format!("the game is over: {over}")));
        }
        let pos = *self.history.current();
        // A step as `legal` lists it; in a game of one move a turn, a move
        // as its records write it (SAN, WXF: a move typed on the page);
        // else a turn (or the engine's answer).
        let steps = match pos.parse_move(text) {
            Ok(step) => vec![step],
            Err(_) if G::ONE_MOVE_TURNS && !pos.is_well_formed_move(text) => {
                catchess_game::pgn::typed_turn(&pos, text).map_err(|_| unreadable_move(&pos, text))?
            }
            Err(_) => pos.parse_answer(text).map_err(|e| ApiError::unprocessable(e.to_string()))?,
        };
        let mut p = pos;
        for &step in &steps {
            if p.is_chance() {
                return Err(ApiError::unprocessable(format!(
                    "{text:?} gives the outcome of a roll ({step}); rolls are the server's: ask for one (T@?, reroll) and the server rolls"
                )));
            }
            p = p.play(step);
        }
        self.timed(now, |game| {
            for step in steps {
                game.history.push(step);
            }
            // The server is the client that rolls, as the arbiter is in a match.
            game.arbiter_moves();
        });
        Ok(())
    }

    fn record(&self, id: &str) -> Row {
        Row {
            id: id.to_string(),
            variant: G::VARIANT.to_string(),
            start_fen: self.history.start().to_fen(),
            moves: self.history.moves().iter().map(|m| m.to_string()).collect(),
            forfeits: self.forfeits.clone(),
            agreement: self.agreement,
            clocks: self.clocks.clone(),
            dice: Some(self.dice.clone()),
            table: None,
            updated_ms: 0,
            review: None,
        }
    }

    fn forfeit(&mut self, seat: &str, why: Why, now: u64) -> Result<(), ApiError> {
        let Some(index) = G::SEATS.iter().position(|s| s.name == seat) else {
            return Err(not_a_seat::<G>(seat));
        };
        if let Some(over) = self.is_over() {
            return Err(ApiError::conflict(format!("the game is over: {over}")));
        }
        if forfeit::passes(&self.forfeits, Seat::new(index)) {
            return Err(ApiError::conflict(format!("{seat} has forfeited already")));
        }
        if why == Why::Time && self.clocks.as_ref().is_some_and(|c| c.control(index).is_some()) {
            return Err(ApiError::conflict(format!(
                "{seat}'s clock is kept by the server: its flag falls there, not by request"
            )));
        }
        let ply = self.history.moves().len();
        self.timed(now, |game| {
            game.forfeits.push(Forfeit { seat: index, ply, why });
            game.arbiter_moves();
        });
        Ok(())
    }

    fn agree_draw(&mut self, now: u64) -> Result<(), ApiError> {
        if let Some(over) = self.is_over() {
            return Err(ApiError::conflict(format!("the game is over: {over}")));
        }
        let ply = self.history.moves().len();
        self.timed(now, |game| game.agreement = Some(Agreement { ply }));
        Ok(())
    }

    fn engine_accepts_draw(&self, seat: usize) -> bool {
        draw::engine_accepts(self.history.current(), seat)
    }

    fn position(&self, ply: usize) -> Option<PositionView> {
        let pos = self.history.positions().get(ply)?;
        Some(PositionView {
            ply,
            fen: pos.to_fen(),
            turn: G::SEATS[pos.to_move().index()].name,
            last_move: ply.checked_sub(1).map(|i| G::move_view(self.history.moves()[i])),
            board: pos.squares(),
            // A past position never ended the game: a move followed it.
            tablebase: if ply == self.history.moves().len() && self.ending().is_some() {
                None
            } else {
                super::tablebase::view(pos)
            },
        })
    }

    fn take_back(&mut self, plies: usize, now: u64) -> usize {
        // A forfeit or an agreed draw that ended the game is taken back
        // first, as one.
        let resumed = plies > 0 && self.history.outcome().is_none() && self.ending().is_some();
        if resumed && self.agreement.take().is_none() {
            self.forfeits.pop();
        }
        let mut n = (plies - usize::from(resumed)).min(self.history.moves().len());
        self.history.take_back(n);
        // No roll is left pending (its outcome would be anyone's choice):
        // taking back a roll's outcome takes back the request too.
        while self.history.current().is_chance() && !self.history.moves().is_empty() {
            self.history.take_back(1);
            n += 1;
        }
        // A forfeit goes with the moves taken back to where it was made.
        let left = self.history.moves().len();
        self.forfeits.retain(|f| f.ply < left || (n == 0 && f.ply == left));
        if let Some(c) = &mut self.clocks {
            c.taken_back(left, now);
        }
        n + usize::from(resumed)
    }

    fn pause(&mut self, now: u64) -> bool {
        let runs = self.clock_running().is_some();
        if let Some(c) = &mut self.clocks {
            c.charge(now, runs);
        }
        runs
    }

    fn hold_clocks(&mut self, held: bool, now: u64) {
        if held != self.clocks_held {
            self.pause(now);
            self.clocks_held = held;
        }
    }

    fn pgn(&self, players: &HashMap<String, String>) -> Result<String, ApiError> {
        if let Some(seat) = players.keys().find(|k| !G::SEATS.iter().any(|s| s.name == k.as_str())) {
            return Err(not_a_seat::<G>(seat));
        }
        if let Some(name) = players.values().find(|n| n.len() > MAX_PLAYER_NAME) {
            return Err(ApiError::bad_request(format!(
                "a player's name has {} bytes, more than {MAX_PLAYER_NAME}",
                name.len()
            )));
        }
        let names: Vec<String> =
            G::SEATS.iter().map(|s| players.get(s.name).cloned().unwrap_or_else(|| "?".into())).collect();
        let spans = self.spans();
        let notes = pgn::Notes {
            faults: forfeit::faults::<G>(&self.forfeits, &names),
            controls: (0..G::SEATS.len())
                .map(|i| self.clocks.as_ref().and_then(|c| c.control(i)).map_or_else(|| "-".to_string(), |c| c.pgn()))
                .collect(),
            after_turns: self
                .clocks
                .as_ref()
                .map(|c| c.after_turns(&spans).into_iter().map(|left| left.map(clock::clk)).collect())
                .unwrap_or_default(),
            after: None,
        };
        // A record holds whole turns: the steps of a 10×10 turn under way
        // (its seat resigned or ran out of time in its middle) go to a
        // comment.
        let rules_ended = self.history.outcome().is_some();
        let under_way = spans.last().filter(|s| !s.over && !G::ONE_MOVE_TURNS && !rules_ended).map(|s| s.plies.clone());
        match under_way {
            Some(plies) => {
                let steps: Vec<String> = self.history.moves()[plies.clone()].iter().map(|m| m.to_string()).collect();
                let mut whole = self.history.clone();
                whole.take_back(plies.len());
                let seat = G::SEATS[whole.current().to_move().index()].name;
                let after = Some(format!("{seat}{}{}", pgn::UNDER_WAY, steps.join(", ")));
                Ok(pgn::write(&whole, names, self.ending(), pgn::Notes { after, ..notes }))
            }
            None => Ok(pgn::write(&self.history, names, self.ending(), notes)),
        }
    }

    fn review_plies(&self) -> Vec<usize> {
        let mut plies = self.history.turn_starts();
        let end = self.history.moves().len();
        if plies.is_empty() {
            plies.push(0);
        }
        if end > 0 && (self.history.current().at_turn_start() || self.history.outcome().is_some()) {
            plies.push(end);
        }
        plies
    }

    fn review(
        &self,
        limits: &Limits,
        hash_mb: usize,
        control: &SearchControl,
        on_point: &mut dyn FnMut(&Point),
    ) -> Option<Review> {
        let mut searcher = Searcher::try_new(hash_mb).unwrap_or_else(|_| Searcher::new(1));
        let moves = self.history.moves();
        let mut line = History::new(*self.history.start());
        let plies = self.review_plies();
        let mut points = Vec::with_capacity(plies.len());
        for (turn, &ply) in plies.iter().enumerate() {
            while line.moves().len() < ply {
                line.push(moves[line.moves().len()]);
            }
            let point = super::review::point(&line, turn, &mut searcher, limits, control);
            // A search cut short is no reading.
            if control.is_stopped() {
                return None;
            }
            on_point(&point);
            points.push(point);
        }
        let turns = self.turns();
        let passed: Vec<bool> = turns
            .iter()
            .map(|t| self.forfeits.iter().any(|f| G::SEATS[f.seat].name == t.seat && f.ply < t.first))
            .collect();
        Some(Review::new(limits.nodes.unwrap_or(0), moves.len(), points, &turns, &passed))
    }

    fn search(
        &self,
        limits: Limits,
        strength: Strength,
        hash_mb: usize,
        control: Arc<SearchControl>,
        mut on_info: OnInfo,
        on_done: OnDone,
    ) {
        let history = self.history.clone();
        std::thread::spawn(move || {
            // The table lives as long as this search: memory follows the
            // searches running, not the games held.
            let mut own = Searcher::try_new(hash_mb).unwrap_or_else(|_| Searcher::new(1));
            let pos = *history.current();
            let mut on_info = |info: &SearchInfo| on_info(info_view(&pos, info));
            let choice = play_turn(&history, &mut own, &limits, &[], strength, &control, &mut on_info);
            let found = match (&choice.search, choice.steps) {
                (Some(r), turn) => {
                    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
                    Found {
                        best: turn.as_ref().map(|steps| pos.turn_text(steps)),
                        best_notation: turn.map(|steps| match steps.as_slice() {
                            [m] => pos.record_move(*m),
                            _ => pos.turn_text(&steps),
                        }),
                        score: r.score.into(),
                        depth: r.depth,
                        nodes: r.nodes,
                        pv_notation: notation_of(&pos, &pv),
                        pv,
                        fallback: false,
                    }
                }
                (None, first) => Found {
                    best: first.as_ref().map(|steps| pos.turn_text(steps)),
                    best_notation: first.and_then(|steps| steps.first().map(|&m| pos.record_move(m))),
                    score: ScoreView::Cp(0),
                    depth: 0,
                    nodes: 0,
                    pv: vec![],
                    pv_notation: vec![],
                    fallback: true,
                },
            };
            drop(own);
            on_done(found);
        });
    }
}
