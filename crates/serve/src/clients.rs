//! What one client may hold or do (issue #61), a client being an address:
//! an IPv4 address, or an IPv6 /64 (which one machine may hold whole).
//!
//! * **New games**: at most `--max-creates` a minute per client (a bucket
//!   that refills evenly over the minute), so that no client fills the
//!   store and evicts everyone's finished games.
//! * **Live streams** (SSE: a game's events, an analysis): a stream is a
//!   connection served until its client leaves, which the connection cap
//!   cannot take back (`conns.rs`), so open streams are capped per client
//!   and in all, below the connection cap: however many tabs are open,
//!   the other connections stay free for requests.
//!
//! Behind a proxy every client has the proxy's address and shares its
//! bounds.

use super::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// The address a request came from, put in its extensions by the accept
/// loop (`listen.rs`).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub SocketAddr);

/// One client, as the bounds count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    pub fn of(addr: SocketAddr) -> Client {
        match addr.ip() {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    Client(IpAddr::V6(bits.into()))
                }
            },
            v4 => Client(v4),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Infallible;

    /// The request's client (a request the accept loop did not see, as
    /// no server's is, counts as the unspecified address).
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Infallible> {
        let addr = parts.extensions.get::<ClientAddr>().map(|a| a.0);
        Ok(addr.map_or(Client(IpAddr::V4(Ipv4Addr::UNSPECIFIED)), Client::of))
    }
}

/// The most clients whose new games are counted apart: past it, the
/// newcomers share one bucket (memory stays bounded whatever addresses
/// come).
const MAX_COUNTED: usize = 65_536;

struct Bucket {
    left: f64,
    at: Instant,
}

#[derive(Default)]
struct Counts {
    creates: HashMap<Client, Bucket>,
    streams: HashMap<Client, usize>,
    total_streams: usize,
}

pub struct Clients {
    creates_per_minute: u32,
    max_streams: usize,
    max_streams_per_client: usize,
    counts: Mutex<Counts>,
}

/// A live stream's place, given back when dropped (the stream ended or
/// its client left).
pub struct StreamPass {
    client: Client,
    clients: Arc<Clients>,
}

impl Drop for StreamPass {
    fn drop(&mut self) {
        let mut c = self.clients.counts();
        c.total_streams = c.total_streams.saturating_sub(1);
        if let Some(n) = c.streams.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                c.streams.remove(&self.client);
            }
        }
    }
}

fn too_many(message: String) -> ApiError {
    ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
}

impl Clients {
    pub fn new(creates_per_minute: u32, max_streams: usize, max_streams_per_client: usize) -> Arc<Clients> {
        Arc::new(Clients { creates_per_minute, max_streams, max_streams_per_client, counts: Mutex::default() })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts a new game of `client`'s; 429 past `--max-creates` a minute.
    pub fn create(&self, client: Client) -> Result<(), ApiError> {
        let per_minute = f64::from(self.creates_per_minute);
        let now = Instant::now();
        let mut c = self.counts();
        let refilled =
            |b: &Bucket| (b.left + now.duration_since(b.at).as_secs_f64() * per_minute / 60.0).min(per_minute);
        if c.creates.len() >= MAX_COUNTED && !c.creates.contains_key(&client) {
            // Forget the clients whose buckets are full again.
            c.creates.retain(|_, b| refilled(b) < per_minute);
        }
        let key = if c.creates.len() >= MAX_COUNTED && !c.creates.contains_key(&client) {
            Client(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
        } else {
            client
        };
        let bucket = c.creates.entry(key).or_insert(Bucket { left: per_minute, at: now });
        let left = refilled(bucket);
        if left < 1.0 {
            return Err(too_many(format!(
                "this client made {} games in the last minute, the server's cap (--max-creates); try again shortly",
                self.creates_per_minute
            )));
        }
        *bucket = Bucket { left: left - 1.0, at: now };
        Ok(())
    }

    /// A place for one more live stream of `client`'s; 429 when it has
    /// `max_streams_per_client` open, or every client together
    /// `max_streams`.
    pub fn stream(self: &Arc<Self>, client: Client) -> Result<StreamPass, ApiError> {
        let mut c = self.counts();
        let mine = c.streams.get(&client).copied().unwrap_or(0);
        if mine >= self.max_streams_per_client {
            return Err(too_many(format!(
                "this client has {mine} live streams open, the server's cap per client; close a tab or two"
            )));
        }
        if c.total_streams >= self.max_streams {
            return Err(too_many(format!(
                "the server has {} live streams open, its cap; try again later",
                c.total_streams
            )));
        }
        c.total_streams += 1;
        *c.streams.entry(client).or_insert(0) += 1;
        Ok(StreamPass { client, clients: self.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(text: &str) -> Client {
        Client::of(text.parse().unwrap())
    }

    #[test]
    fn an_ipv6_client_is_its_64_and_a_mapped_ipv4_its_address() {
        assert_eq!(client("[2001:db8:1:2:3::4]:80"), client("[2001:db8:1:2:ffff::1]:81"));
        assert_ne!(client("[2001:db8:1:2::1]:80"), client("[2001:db8:1:3::1]:80"));
        assert_eq!(client("[::ffff:10.0.0.1]:80"), client("10.0.0.1:9"));
        assert_ne!(client("10.0.0.1:80"), client("10.0.0.2:80"));
    }

    #[test]
    fn new_games_and_streams_are_capped_per_client_and_streams_in_all() {
        let clients = Clients::new(3, 3, 2);
        let (a, b) = (client("10.0.0.1:1"), client("10.0.0.2:1"));
        for _ in 0..3 {
            clients.create(a).unwrap();
        }
        let refused = clients.create(a).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.message.contains("3 games in the last minute"), "{}", refused.message);
        clients.create(b).expect("another client has its own count");

        let first = clients.stream(a).unwrap();
        let _second = clients.stream(a).unwrap();
        assert!(clients.stream(a).err().expect("refused").message.contains("per client"));
        let _third = clients.stream(b).unwrap();
        assert!(clients.stream(b).err().expect("refused").message.contains("its cap"), "3 in all");
        drop(first);
        clients.stream(b).expect("a place given back is free");
    }
}
