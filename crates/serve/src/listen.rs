//! Connections and the server's life: the accept loop (hyper's HTTP/1
//! with a timeout on reading a request's headers, each request read whole
//! within bounds: `reading.rs`, and a cap on open connections shared
//! fairly: `conns.rs`), and the shutdown: on SIGTERM or SIGINT (or a
//! test's `Server` dropped) the server stops accepting, ends every search
//! and stream, lets the requests under way finish for a moment, and
//! returns, the database closed and its lock released. Nothing needs
//! flushing then: every change was committed before it was answered.

use super::clients::ClientAddr;
use super::conns::Conns;
use super::reading::{self, Bounds};
use super::{router, App, Config};
use hyper::service::Service;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinSet;

/// How long requests under way may take to finish once the server stops
/// (the whole shutdown stays within a second).
const DRAIN: Duration = Duration::from_millis(600);

/// A server running on threads of its own (tests, embedding).
pub struct Server {
    pub addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
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
    let app = App::open(config, addr).map_err(std::io::Error::other)?;
    let rt = runtime()?;
    let (tx, rx) = oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let serving = app.clone();
        rt.block_on(async move {
            let Ok(listener) = tokio::net::TcpListener::from_std(listener) else { return };
            serve(listener, serving, async {
                let _ = rx.await;
            })
            .await;
        });
        rt.shutdown_timeout(Duration::from_millis(100));
        app.store.close();
    });
    Ok(Server { addr, shutdown: Some(tx), thread: Some(thread) })
}

/// `catchess serve`: serves until SIGTERM or SIGINT, then stops within a
/// second.
pub fn run(config: Config) -> Result<(), String> {
    // Refused before the port is taken.
    config.validate()?;
    let listener = bind(&config).map_err(|e| format!("cannot listen on {}:{}: {e}", config.host, config.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    if let Some(warning) = exposure_warning(addr) {
        eprintln!("catchess serve: {warning}");
    }
    let db = config.db_path()?;
    let app = App::open(config, addr)?;
    let rt = runtime().map_err(|e| e.to_string())?;
    eprintln!("catchess serve: open http://{addr}/ (games kept in {db}; Ctrl-C stops)");
    let serving = app.clone();
    let result = rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
        serve(listener, serving, stop_signal()).await;
        Ok(())
    });
    rt.shutdown_timeout(Duration::from_millis(100));
    app.store.close();
    eprintln!("catchess serve: stopped");
    result
}

/// What a server listening beyond loopback exposes (README, "Play");
/// `None` on loopback.
fn exposure_warning(addr: SocketAddr) -> Option<String> {
    (!addr.ip().is_loopback()).then(|| {
        format!(
            "WARNING: listening on {addr}, not on loopback: anyone who can reach this machine on port {} \
             can create and watch games, play games made without players, and use its CPU; a seat of a \
             game with players is played only with its token, but over plain HTTP anyone on the way \
             reads the tokens (README, \"Play\")",
            addr.port()
        )
    })
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
            eprintln!("catchess serve: cannot watch for signals");
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Accepts connections until `stop`, then shuts down (the module's note).
async fn serve(listener: tokio::net::TcpListener, app: Arc<App>, stop: impl Future<Output = ()>) {
    let port = listener.local_addr().map_or(app.config.port, |a| a.port());
    let router = TowerToHyperService::new(router(app.clone(), port));
    let header_timeout = Duration::from_millis(app.config.header_timeout_ms.max(1));
    let bounds = Bounds {
        max_bytes: app.config.max_body_bytes,
        timeout: Duration::from_millis(app.config.body_timeout_ms.max(1)),
    };
    let (bye_tx, bye_rx) = watch::channel(false);
    let conns = Conns::new(app.config.max_connections);
    let mut tasks = JoinSet::new();
    // The stored games waiting on an engine's seat: the server plays it.
    super::seated::resume(&app).await;
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else {
                    // Out of descriptors, say: wait rather than spin.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                };
                // Every connection is being served: this one is closed.
                let Some(slot) = conns.admit() else { continue };
                let (router, phase) = (router.clone(), slot.phase());
                // Each request read whole first, then routed; the
                // connection is served until its answer has been sent.
                let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                    let (router, phase) = (router.clone(), phase.clone());
                    request.extensions_mut().insert(ClientAddr(peer));
                    async move {
                        let request = match reading::whole(request, bounds).await {
                            Ok(request) => request,
                            Err(refused) => return Ok::<_, Infallible>(refused),
                        };
                        phase.serving();
                        let response = match router.call(request).await {
                            Ok(response) => response,
                            Err(never) => match never {},
                        };
                        Ok(response.map(|body| phase.waiting_after(body)))
                    }
                });
                let mut bye = bye_rx.clone();
                tasks.spawn(async move {
                    let mut builder = hyper::server::conn::http1::Builder::new();
                    builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
                    let conn = builder.serve_connection(TokioIo::new(stream), service);
                    tokio::pin!(conn);
                    tokio::select! {
                        _ = conn.as_mut() => return,
                        // Its place went to a newcomer: closed.
                        _ = slot.evicted() => return,
                        _ = bye.changed() => conn.as_mut().graceful_shutdown(),
                    }
                    let _ = conn.await;
                });
            }
        }
    }
    drop(listener);
    app.close().await;
    let _ = bye_tx.send(true);
    let _ = tokio::time::timeout(DRAIN, async { while tasks.join_next().await.is_some() {} }).await;
    tasks.abort_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_server_beyond_loopback_warns() {
        let warning = exposure_warning("0.0.0.0:8080".parse().unwrap()).expect("a warning");
        assert!(warning.contains("0.0.0.0:8080") && warning.contains("anyone"), "{warning}");
        assert!(exposure_warning("192.168.1.5:80".parse().unwrap()).is_some());
        assert!(exposure_warning("127.0.0.1:8080".parse().unwrap()).is_none());
        assert!(exposure_warning("[::1]:8080".parse().unwrap()).is_none());
    }
}
