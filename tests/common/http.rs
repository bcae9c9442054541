//! One JSON request to a `catchess serve` on loopback, for every serve
//! test: the status and the body (4xx and 5xx included, an empty body as
//! `null`, a body that is not JSON as a string), or `None` when no answer
//! came within `timeout` (the client then disconnects).

use serde_json::Value;
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
