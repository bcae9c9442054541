//! `catchess serve`: a local web app to play and analyse every game, and
//! the JSON API it uses (api.md).
//!
//! Built on axum (HTTP) over tokio; searches and perft run on threads of
//! their own, so the server answers while the engine thinks. Files:
//! `routes` (the API and the page), `store` (the games held, their
//! searches and event streams), `session` (one game of any type behind an
//! object-safe trait), `board` and `games` (what the page draws, from each
//! game), `pgn` (records), `error` (every refusal as JSON), and `page/`
//! (the page itself: HTML, CSS and plain JavaScript drawing SVG, embedded
//! in the binary).

mod error;
mod pgn;
mod routes;
mod session;
mod store;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
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
    pub max_depth: u32,
    pub max_perft_depth: u32,
    /// Transposition table per game, made at its first search.
    pub hash_mb: usize,
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
            max_depth: 30,
            max_perft_depth: 5,
            hash_mb: 16,
        }
    }
}

pub(crate) struct App {
    config: Config,
    store: store::Store,
}

/// The page and the API.
pub fn router(config: Config) -> Router {
    let body_limit = config.max_body_bytes;
    let app = Arc::new(App { store: store::Store::new(config.max_games), config });
    let api = Router::new()
        .route("/variants", get(routes::variants))
        .route("/variants/{name}", get(routes::variant_layout))
        .route("/games", post(routes::create))
        .route("/games/{id}", get(routes::get).delete(routes::delete))
        .route("/games/{id}/moves", post(routes::play))
        .route("/games/{id}/undo", post(routes::undo))
        .route("/games/{id}/engine", post(routes::engine))
        .route("/games/{id}/stop", post(routes::stop))
        .route("/games/{id}/analysis", get(routes::analysis))
        .route("/games/{id}/pgn", get(routes::pgn))
        .route("/perft", get(routes::perft))
        .fallback(|| async { error::ApiError::not_found("no such route") })
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(DefaultBodyLimit::max(body_limit));
    Router::new()
        .route("/", get(routes::page))
        .route("/app.js", get(routes::script))
        .route("/style.css", get(routes::style))
        .nest("/api", api)
        .with_state(app)
}

/// A server running on threads of its own (tests, embedding).
pub struct Server {
    pub addr: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()
}

fn bind(config: &Config) -> std::io::Result<std::net::TcpListener> {
    let listener = std::net::TcpListener::bind((config.host.as_str(), config.port))?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// Starts a server (port 0: any free port) and returns once it listens.
pub fn spawn(config: Config) -> std::io::Result<Server> {
    let listener = bind(&config)?;
    let addr = listener.local_addr()?;
    let rt = runtime()?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        rt.block_on(async move {
            let Ok(listener) = tokio::net::TcpListener::from_std(listener) else { return };
            // Not a graceful shutdown: an open event stream would hold it.
            tokio::select! {
                _ = axum::serve(listener, router(config)) => {}
                _ = rx => {}
            }
        });
        rt.shutdown_background();
    });
    Ok(Server { addr, shutdown: Some(tx), thread: Some(thread) })
}

/// `catchess serve`: serves until killed.
pub fn run(config: Config) -> Result<(), String> {
    let listener = bind(&config).map_err(|e| format!("cannot listen on {}:{}: {e}", config.host, config.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let rt = runtime().map_err(|e| e.to_string())?;
    eprintln!("catchess serve: open http://{addr}/ (Ctrl-C stops)");
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
        axum::serve(listener, router(config)).await.map_err(|e| e.to_string())
    })
}
