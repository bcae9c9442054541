//! `catchess serve`: a local web app to play and analyse every game, and
//! the JSON API it uses (api.md).
//!
//! Built on axum (HTTP) over hyper and tokio; searches and perft run on
//! threads of their own in a bounded pool, so the server answers while
//! the engine thinks. Files: `listen` (connections, timeouts, shutdown),
//! `reading` (each request read whole, within a size and a time),
//! `conns` (the connection cap, shared fairly),
//! `trust` (Host, Origin and content-type checks), `headers` (no framing,
//! a tight content policy), `clients` (new games and live streams per
//! client), `routes` (the API and the page), `table` (who plays each
//! seat: people with their tokens, the engine at a level), `join`
//! (taking a seat by its link), `takeback` (take-backs), `thinking` (the engine's thinking shown or
//! hidden by a person alone against it), `draw` (draw
//! offers and the engine's answer), `consent` (the other people's consent
//! to either), `seated` (the server plays the engine's seats),
//! `live` (each game's state streamed to every tab), `lists` (a browser's
//! games found again), `store` (the games held, their searches and event
//! streams; each change committed before it is answered, undone if it
//! cannot be), `dice` (rolls from each game's secret seed),
//! `db/` (the games on disk, SQLite: one writer thread committing in
//! groups, one server per file), `session` (one game of any type
//! behind an object-safe trait), `pgn` (records), `levels` (playing
//! strengths 1–8), `clock` (the clocks of the seats people play),
//! `forfeit` (resignations and flag falls), `review` (a whole game
//! analysed, its mistakes marked), `error` (every refusal
//! as JSON), and `page/` (the page itself: HTML, CSS and plain JavaScript
//! drawing SVG, embedded in the binary).

mod clients;
mod clock;
mod conns;
mod consent;
mod db;
mod dice;
mod draw;
mod error;
mod forfeit;
mod headers;
mod join;
mod levels;
mod listen;
mod lists;
mod live;
mod pgn;
mod reading;
mod review;
mod routes;
mod seated;
mod session;
mod store;
mod table;
mod tablebase;
mod takeback;
mod thinking;
mod trust;

pub use clock::{ManualClock, SystemClock, TimeSource};
pub use db::{default_path as default_db_path, MEMORY as DB_MEMORY};
pub use listen::{run, spawn, Server};

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// What the server listens on and the limits it keeps: `catchess serve`'s
/// flags, each declared here once with its default (`Config::default()`
/// is the flags' defaults), and checked by [`Config::validate`] whoever
/// starts the server. The fields without a flag are the library's (tests
/// and embedders): the clock, and limits a flag would only invite to
/// loosen.
#[derive(Clone, Debug, clap::Args)]
pub struct Config {
    /// Address to listen on (loopback by default: only this machine can connect).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Games held at once; a new one beyond replaces a finished game, else an analysis board, else one
    /// abandoned for 30 days (never a game a person plays), the one left alone longest first.
    #[arg(long, default_value_t = 64)]
    pub max_games: usize,
    /// New games one client (an address) may make per minute.
    #[arg(long = "max-creates", default_value_t = 60)]
    pub max_creates_per_minute: u32,
    /// A game with a person seated that has not changed for this long may
    /// make room for a new one (`--max-games`).
    #[arg(skip = 30 * 24 * 3_600_000u64)]
    pub abandoned_after_ms: u64,
    /// Live streams (a game's events, analyses) open at once, in all: a
    /// stream holds its connection, so this stays below
    /// `max_connections`, leaving the rest to requests.
    #[arg(skip = 256usize)]
    pub max_streams: usize,
    /// Live streams one client (an address) may hold open.
    #[arg(skip = 32usize)]
    pub max_streams_per_client: usize,
    /// Largest request body accepted, in bytes.
    #[arg(long = "max-body", default_value_t = 64 * 1024)]
    pub max_body_bytes: usize,
    /// Longest search a request may ask for, in milliseconds.
    #[arg(long = "max-movetime", default_value_t = 30_000)]
    pub max_movetime_ms: u64,
    /// The search a request gets when it names neither time nor depth.
    #[arg(skip = 1_000u64)]
    pub default_movetime_ms: u64,
    /// The longest analysis asked for without a limit (`infinite`): it
    /// stops earlier when stopped or when its client leaves.
    #[arg(skip = 600_000u64)]
    pub max_analysis_ms: u64,
    /// Nodes the engine searches at each position of a game's review
    /// (`GET /api/games/<id>/review/stream`).
    #[arg(long = "review-nodes", default_value_t = 200_000)]
    pub review_nodes: u64,
    /// The most positions a review judges: a longer game's review is refused.
    #[arg(long = "max-review-positions", default_value_t = 600)]
    pub max_review_positions: usize,
    /// Deepest search a request may ask for, in plies.
    #[arg(long, default_value_t = 30)]
    pub max_depth: u32,
    /// Deepest perft a request may ask for.
    #[arg(long, default_value_t = 5)]
    pub max_perft_depth: u32,
    /// A perft stops past this many leaves.
    #[arg(long = "perft-nodes", default_value_t = 500_000_000)]
    pub perft_max_nodes: u64,
    /// A perft stops after this many milliseconds.
    #[arg(long = "perft-ms", default_value_t = 10_000)]
    pub perft_max_ms: u64,
    /// Searches and perfts running at once, server-wide (default: the CPUs).
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(2, |n| n.get()))]
    pub max_searches: usize,
    /// Transposition table of each running search, in MiB (made when it starts, freed when it
    /// ends: at most max-searches times this in all).
    #[arg(long = "hash", default_value_t = catchess_engine::defaults::HASH_MB)]
    pub hash_mb: usize,
    /// The game database (SQLite): a file, or :memory: to keep nothing
    /// (default: catchess/games.sqlite3 under the user's data directory).
    #[arg(long, value_name = "PATH")]
    pub db: Option<String>,
    /// An origin (http://host:port) whose pages may use the API (CORS); repeatable. None by default.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,
    /// A connection that has not sent a request's headers by then is closed.
    #[arg(skip = 10_000u64)]
    pub header_timeout_ms: u64,
    /// A request whose body has not arrived whole this long after its
    /// headers gets 408 and its connection is closed.
    #[arg(skip = 10_000u64)]
    pub body_timeout_ms: u64,
    /// Connections open at once. When all are taken, a new one takes the
    /// place of the one that has waited longest on its client (`conns.rs`).
    #[arg(skip = 512usize)]
    pub max_connections: usize,
    /// The most pages the database file may grow to (SQLite's
    /// `max_page_count`): a write past it fails as on a full disk. For
    /// tests; `None`: SQLite's own bound.
    #[arg(skip)]
    pub db_max_pages: Option<u32>,
    /// How long a commit waits for the database's write lock while
    /// another process (a `sqlite3` shell) holds it; past it the change is
    /// undone and answered 500.
    #[arg(skip = 5_000u64)]
    pub db_busy_timeout_ms: u64,
    /// Endgame tables made by `catchess tb generate` (Cat Chess and chess): the engine uses them,
    /// and every game state carries their result for the position and each legal move. All the
    /// tables in DIR are read at start.
    #[arg(long, value_name = "DIR")]
    pub tb_dir: Option<std::path::PathBuf>,
    /// Where the clocks read the time: the system's ([`SystemClock`]), or
    /// a test's ([`ManualClock`]).
    #[arg(skip = Arc::new(SystemClock::new()) as Arc<dyn TimeSource>)]
    pub time: Arc<dyn TimeSource>,
}

/// Parses only a [`Config`]: its defaults are the flags' defaults.
#[derive(clap::Parser)]
struct Flags {
    #[command(flatten)]
    config: Config,
}

impl Default for Config {
    /// The flags' defaults; the database is the user's data directory's
    /// (`--db` not given), so a test gives one ([`Config::in_memory`]).
    fn default() -> Self {
        use clap::Parser;
        Flags::parse_from(["serve"]).config
    }
}

impl Config {
    /// The defaults with a database that keeps nothing: for tests.
    pub fn in_memory() -> Self {
        Config { db: Some(DB_MEMORY.into()), ..Config::default() }
    }

    /// Refuses a setting the server cannot keep, naming its flag, as
    /// `MatchConfig::validate` does for a match: nothing is silently
    /// raised or lowered.
    pub fn validate(&self) -> Result<(), String> {
        let hash_max = catchess_engine::defaults::HASH_MAX_MB;
        let at_least_one = [
            ("--max-games", self.max_games as u64),
            ("--max-body", self.max_body_bytes as u64),
            ("--max-movetime", self.max_movetime_ms),
            ("--perft-nodes", self.perft_max_nodes),
            ("--perft-ms", self.perft_max_ms),
            ("--max-searches", self.max_searches as u64),
            ("--max-creates", u64::from(self.max_creates_per_minute)),
            ("--review-nodes", self.review_nodes),
            ("--max-review-positions", self.max_review_positions as u64),
        ];
        if let Some((flag, _)) = at_least_one.iter().find(|(_, v)| *v == 0) {
            return Err(format!("{flag} must be at least 1"));
        }
        if !(1..=hash_max).contains(&self.hash_mb) {
            return Err(format!("--hash must be 1..={hash_max} MiB, got {}", self.hash_mb));
        }
        let max_depth = catchess_search::MAX_DEPTH as u32;
        if !(1..=max_depth).contains(&self.max_depth) {
            return Err(format!("--max-depth must be 1..={max_depth}, got {}", self.max_depth));
        }
        catchess_game::perft::checked_depth(self.max_perft_depth).map_err(|e| format!("--max-perft-depth: {e}"))?;
        if self.max_streams >= self.max_connections || self.max_streams_per_client > self.max_streams {
            return Err(format!(
                "live streams ({} in all, {} per client) must stay below the connections ({})",
                self.max_streams, self.max_streams_per_client, self.max_connections
            ));
        }
        // `--tb-dir` is read (and so checked) as the server opens.
        Ok(())
    }

    /// The database file to open: `--db`, or the user's data directory's.
    pub fn db_path(&self) -> Result<String, String> {
        match &self.db {
            Some(path) => Ok(path.clone()),
            None => default_db_path()
                .map(|p| p.to_string_lossy().into_owned())
                .ok_or_else(|| "no data directory (HOME, XDG_DATA_HOME) for the game database; give --db PATH".into()),
        }
    }
}

pub(crate) struct App {
    config: Config,
    store: Arc<store::Store>,
    /// New games and live streams per client (`clients.rs`).
    clients: Arc<clients::Clients>,
    /// Becomes true when the server stops: streams end, perfts stop.
    closing: tokio::sync::watch::Sender<bool>,
}

impl App {
    /// The app of a server listening on `addr`: the tables read, the
    /// database opened and locked, its games read.
    fn open(config: Config, addr: std::net::SocketAddr) -> Result<Arc<App>, String> {
        config.validate()?;
        session::large_allocations_are_returned();
        if let Some(dir) = &config.tb_dir {
            // Every table is read (and checked) now, not during a game.
            catchess_engine::options::set_game_option("TablebasePath", &dir.to_string_lossy(), &mut || {})
                .map_err(|e| format!("--tb-dir: {e}"))?;
        }
        let holder = format!("catchess serve (pid {}, http://{addr}/)", std::process::id());
        let options = db::Options {
            holder: &holder,
            max_pages: config.db_max_pages,
            busy_timeout: std::time::Duration::from_millis(config.db_busy_timeout_ms),
        };
        let opened = db::open(&config.db_path()?, &options)?;
        let loaded = opened.load(config.max_games.max(1))?;
        let db = opened.start()?;
        let limits = store::Limits {
            max_games: config.max_games,
            max_searches: config.max_searches,
            abandoned_ms: config.abandoned_after_ms,
        };
        let store = store::Store::open(db, loaded, limits, config.time.clone());
        let clients =
            clients::Clients::new(config.max_creates_per_minute, config.max_streams, config.max_streams_per_client);
        let (closing, _) = tokio::sync::watch::channel(false);
        Ok(Arc::new(App { config, store: Arc::new(store), clients, closing }))
    }

    /// Stops every search and stream, and commits the time the running
    /// clocks have used; the database holds every other change already
    /// (each is committed before it is answered).
    async fn close(&self) {
        self.closing.send_replace(true);
        self.store.stop_all().await;
    }
}

/// The page and the API, behind the trust checks (`trust.rs`) for a
/// server listening on `port`.
fn router(app: Arc<App>, port: u16) -> Router {
    let body_limit = app.config.max_body_bytes;
    let trust = Arc::new(trust::Trust::new(&app.config.host, port, &app.config.allow_origins));
    let api = Router::new()
        .route("/variants", get(routes::variants))
        .route("/levels", get(routes::levels))
        .route("/variants/{name}", get(routes::variant_layout))
        .route("/variants/{name}/board", get(routes::diagram))
        .route("/games", post(routes::create).get(lists::summaries))
        .route("/games/{id}", get(routes::get).delete(routes::delete))
        .route("/games/{id}/events", get(live::events))
        .route("/games/{id}/join", post(join::join))
        .route("/games/{id}/moves", post(routes::play))
        .route("/games/{id}/undo", post(takeback::undo))
        .route("/games/{id}/draw", post(draw::offer))
        .route("/games/{id}/answer", post(consent::answer))
        .route("/games/{id}/engine", post(routes::engine))
        .route("/games/{id}/stop", post(routes::stop))
        .route("/games/{id}/forfeit", post(routes::forfeit))
        .route("/games/{id}/positions/{ply}", get(routes::position))
        .route("/games/{id}/analysis", get(routes::analysis))
        .route("/games/{id}/pgn", get(routes::pgn))
        .route("/games/{id}/thinking", post(thinking::set))
        .route("/games/{id}/review", get(review::get))
        .route("/games/{id}/review/stream", get(review::stream))
        .route("/perft", post(routes::perft))
        .fallback(|| async { error::ApiError::not_found("no such route (the API is described in api.md)") })
        .layer(DefaultBodyLimit::max(body_limit));
    Router::new()
        .route("/", get(routes::page))
        .route("/rules", get(routes::rules_page))
        .route("/{file}", get(routes::page_file))
        .nest("/api", api)
        .fallback(|| async { error::ApiError::not_found("no such route (the API is described in api.md)") })
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(axum::middleware::from_fn_with_state(trust, trust::check))
        .layer(axum::middleware::from_fn(headers::secure))
        .with_state(app)
}
