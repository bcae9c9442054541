//! `catchess serve`: a local web app to play and analyse every game, and
//! the JSON API it uses (api.md).
//!
//! Built on axum (HTTP) over hyper and tokio; searches and perft run on
//! threads of their own in a bounded pool, so the server answers while
//! the engine thinks. Files: `listen` (connections, timeouts, shutdown),
//! `reading` (each request read whole, within a size and a time),
//! `conns` (the connection cap, shared fairly),
//! `trust` (Host, Origin and content-type checks), `routes` (the API and
//! the page), `store` (the games held, their searches and event streams;
//! each change committed before it is answered, undone if it cannot be),
//! `db/` (the games on disk, SQLite: one writer thread committing in
//! groups, one server per file), `session` (one game of any type
//! behind an object-safe trait), `pgn` (records), `levels` (playing
//! strengths 1–8), `clock` (the clocks of the seats people play),
//! `forfeit` (resignations and flag falls), `error` (every refusal
//! as JSON), and `page/` (the page itself: HTML, CSS and plain JavaScript
//! drawing SVG, embedded in the binary).

mod clock;
mod conns;
mod db;
mod error;
mod forfeit;
mod levels;
mod listen;
mod pgn;
mod reading;
mod routes;
mod session;
mod store;
mod tablebase;
mod trust;

pub use clock::{ManualClock, SystemClock, TimeSource};
pub use db::{default_path as default_db_path, MEMORY as DB_MEMORY};
pub use listen::{run, spawn, Server};

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// What the server listens on and the limits it keeps.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    /// Games held at once; when full, the game left alone longest goes.
    pub max_games: usize,
    /// The largest request body accepted.
    pub max_body_bytes: usize,
    /// The longest search a request may ask for, and the one it gets
    /// when it names neither time nor depth.
    pub max_movetime_ms: u64,
    pub default_movetime_ms: u64,
    /// The longest analysis asked for without a limit (`infinite`): it
    /// stops earlier when stopped or when its client leaves.
    pub max_analysis_ms: u64,
    pub max_depth: u32,
    pub max_perft_depth: u32,
    /// A perft stops past this many leaves, or this long.
    pub perft_max_nodes: u64,
    pub perft_max_ms: u64,
    /// Searches and perfts running at once, server-wide.
    pub max_searches: usize,
    /// Transposition table of each running search, made when it starts
    /// and freed when it ends: at most `max_searches × hash_mb` in all.
    pub hash_mb: usize,
    /// The game database: a file, or [`DB_MEMORY`].
    pub db: String,
    /// Origins besides the server's own that may use the API (CORS).
    pub allow_origins: Vec<String>,
    /// A connection that has not sent a request's headers by then is closed.
    pub header_timeout_ms: u64,
    /// A request whose body has not arrived whole this long after its
    /// headers gets 408 and its connection is closed.
    pub body_timeout_ms: u64,
    /// Connections open at once. When all are taken, a new one takes the
    /// place of the one that has waited longest on its client (`conns.rs`).
    pub max_connections: usize,
    /// The most pages the database file may grow to (SQLite's
    /// `max_page_count`): a write past it fails as on a full disk. For
    /// tests; `None`: SQLite's own bound.
    pub db_max_pages: Option<u32>,
    /// How long a commit waits for the database's write lock while
    /// another process (a `sqlite3` shell) holds it; past it the change is
    /// undone and answered 500.
    pub db_busy_timeout_ms: u64,
    /// Endgame tables (`catchess tb generate`): the searches use them and
    /// every game state carries their answer.
    pub tb_dir: Option<std::path::PathBuf>,
    /// Where the clocks read the time: the system's ([`SystemClock`]), or
    /// a test's ([`ManualClock`]).
    pub time: Arc<dyn TimeSource>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8080,
            max_games: 64,
            max_body_bytes: 64 * 1024,
            max_movetime_ms: 30_000,
            default_movetime_ms: 1_000,
            max_analysis_ms: 600_000,
            max_depth: 30,
            max_perft_depth: 5,
            perft_max_nodes: 500_000_000,
            perft_max_ms: 10_000,
            max_searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
            hash_mb: 16,
            db: DB_MEMORY.into(),
            allow_origins: vec![],
            header_timeout_ms: 10_000,
            body_timeout_ms: 10_000,
            max_connections: 512,
            db_max_pages: None,
            db_busy_timeout_ms: 5_000,
            tb_dir: None,
            time: Arc::new(SystemClock::new()),
        }
    }
}

pub(crate) struct App {
    config: Config,
    store: Arc<store::Store>,
    /// Becomes true when the server stops: streams end, perfts stop.
    closing: tokio::sync::watch::Sender<bool>,
}

impl App {
    /// The app of a server listening on `addr`: the tables read, the
    /// database opened and locked, its games read.
    fn open(config: Config, addr: std::net::SocketAddr) -> Result<Arc<App>, String> {
        session::large_allocations_are_returned();
        if let Some(dir) = &config.tb_dir {
            // Every table is read (and checked) now, not during a game.
            crate::tb::engine::set_path(&dir.to_string_lossy()).map_err(|e| format!("--tb-dir: {e}"))?;
        }
        let holder = format!("catchess serve (pid {}, http://{addr}/)", std::process::id());
        let options = db::Options {
            holder: &holder,
            max_pages: config.db_max_pages,
            busy_timeout: std::time::Duration::from_millis(config.db_busy_timeout_ms),
        };
        let opened = db::open(&config.db, &options)?;
        let loaded = opened.load(config.max_games.max(1))?;
        let db = opened.start()?;
        let store = store::Store::open(db, loaded, config.max_games, config.max_searches, config.time.clone());
        let (closing, _) = tokio::sync::watch::channel(false);
        Ok(Arc::new(App { config, store: Arc::new(store), closing }))
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
        .route("/games", post(routes::create))
        .route("/games/{id}", get(routes::get).delete(routes::delete))
        .route("/games/{id}/moves", post(routes::play))
        .route("/games/{id}/undo", post(routes::undo))
        .route("/games/{id}/engine", post(routes::engine))
        .route("/games/{id}/stop", post(routes::stop))
        .route("/games/{id}/forfeit", post(routes::forfeit))
        .route("/games/{id}/positions/{ply}", get(routes::position))
        .route("/games/{id}/analysis", get(routes::analysis))
        .route("/games/{id}/pgn", get(routes::pgn))
        .route("/perft", post(routes::perft))
        .fallback(|| async { error::ApiError::not_found("no such route (the API is described in api.md)") })
        .layer(DefaultBodyLimit::max(body_limit));
    Router::new()
        .route("/", get(routes::page))
        .route("/{file}", get(routes::page_file))
        .nest("/api", api)
        .fallback(|| async { error::ApiError::not_found("no such route (the API is described in api.md)") })
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(axum::middleware::from_fn_with_state(trust, trust::check))
        .with_state(app)
}
