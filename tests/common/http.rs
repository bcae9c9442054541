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
    let url = format!("http://{addr}{path}");
    let request = ureq::request(method, &url).timeout(timeout);
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
    let url = format!("http://{addr}{path}");
    let response = ureq::get(&url).timeout(Duration::from_secs(30)).call().expect("a stream");
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
