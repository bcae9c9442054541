//! One JSON request to a `catchess serve` on loopback, for every serve
//! test: the status and the body (4xx and 5xx included, an empty body as
//! `null`, a body that is not JSON as a string), or `None` when no answer
//! came within `timeout` (the client then disconnects).

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::time::Duration;

pub fn call_within(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    timeout: Duration,
) -> Option<(u16, Value)> {
    call_with_token(addr, method, path, body, None, timeout)
}

/// [`call_within`] acting for a seat: its token in `X-Seat-Token`.
pub fn call_with_token(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
    timeout: Duration,
) -> Option<(u16, Value)> {
    let url = format!("http://{addr}{path}");
    let mut request = ureq::request(method, &url).timeout(timeout);
    if let Some(token) = token {
        request = request.set("X-Seat-Token", token);
    }
    let result = match body {
        Some(b) => request.set("Content-Type", "application/json").send_string(&b.to_string()),
        None => request.call(),
    };
    let response = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(_) => return None,
    };
    let status = response.status();
    let text = response.into_string().ok()?;
    let value = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::String(text)) };
    Some((status, value))
}

/// The events of a server-sent event stream (`GET addr path`) until
/// `done`, included: (event name, JSON data).
pub fn read_events(addr: &str, path: &str) -> Vec<(String, Value)> {
    read_events_within(addr, path, Duration::from_secs(30))
}

/// [`read_events`] of a stream that may take up to `timeout`.
pub fn read_events_within(addr: &str, path: &str, timeout: Duration) -> Vec<(String, Value)> {
    let url = format!("http://{addr}{path}");
    let response = ureq::get(&url).timeout(timeout).call().expect("a stream");
    assert!(response.content_type().starts_with("text/event-stream"));
    let mut events = Vec::new();
    let mut name = String::new();
    for line in BufReader::new(response.into_reader()).lines() {
        let line = line.expect("a line");
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            events.push((name.clone(), serde_json::from_str(d).expect("JSON data")));
            if name == "done" {
                break;
            }
        }
    }
    events
}

/// One request to a test's own server, which answers within 30 s.
pub fn call(s: &catchess::serve::Server, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    call_within(&s.addr.to_string(), method, path, body, Duration::from_secs(30))
        .unwrap_or_else(|| panic!("{method} {path}: no answer"))
}

/// A request that must succeed (200 or 201): its answer.
pub fn ok(s: &catchess::serve::Server, method: &str, path: &str, body: Option<Value>) -> Value {
    let (status, answer) = call(s, method, path, body);
    assert!(status == 200 || status == 201, "{method} {path}: {status} {answer}");
    answer
}

/// [`call`] acting for a seat (its token in `X-Seat-Token`).
pub fn call_as(
    s: &catchess::serve::Server,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    call_with_token(&s.addr.to_string(), method, path, body, Some(token), Duration::from_secs(30))
        .unwrap_or_else(|| panic!("{method} {path}: no answer"))
}

/// One event of a server-sent-events stream: its name (`message` when it
/// has none), its `id:` (if any), its JSON data and when it arrived.
#[derive(Clone, Debug)]
pub struct Event {
    pub name: String,
    pub id: Option<String>,
    pub data: Value,
    pub at: std::time::Instant,
}

/// A server-sent-events stream read on a thread of its own. The thread
/// ends with the stream (the server closes it when it stops).
pub struct Events {
    events: std::sync::mpsc::Receiver<Event>,
}

impl Events {
    /// Opens `GET addr path`; panics unless it answers an event stream.
    pub fn open(addr: &str, path: &str) -> Events {
        let url = format!("http://{addr}{path}");
        let response = ureq::get(&url).call().unwrap_or_else(|e| panic!("GET {path}: {e}"));
        assert!(response.content_type().starts_with("text/event-stream"), "{}", response.content_type());
        let (tx, events) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let (mut name, mut id) = (None, None);
            for line in BufReader::new(response.into_reader()).lines() {
                let Ok(line) = line else { return };
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_string());
                } else if let Some(i) = line.strip_prefix("id: ") {
                    id = Some(i.to_string());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    let data = serde_json::from_str(d).expect("JSON data");
                    let name = name.take().unwrap_or_else(|| "message".into());
                    let event = Event { name, id: id.take(), data, at: std::time::Instant::now() };
                    if tx.send(event).is_err() {
                        return;
                    }
                }
            }
        });
        Events { events }
    }

    /// The next event within `within`, or `None`.
    pub fn next_within(&self, within: Duration) -> Option<Event> {
        self.events.recv_timeout(within).ok()
    }

    /// The next event, which must come within a second.
    pub fn next(&self) -> Event {
        self.next_within(Duration::from_secs(1)).expect("an event within a second")
    }

    /// Events until one that passes `test`, within `within`.
    pub fn until(&self, within: Duration, mut test: impl FnMut(&Event) -> bool) -> Event {
        let end = std::time::Instant::now() + within;
        loop {
            let left = end.saturating_duration_since(std::time::Instant::now());
            let event = self.next_within(left).unwrap_or_else(|| panic!("no such event within {within:?}"));
            if test(&event) {
                return event;
            }
        }
    }

    /// Whether no event comes within `within`.
    pub fn quiet_for(&self, within: Duration) -> bool {
        self.next_within(within).is_none()
    }
}
