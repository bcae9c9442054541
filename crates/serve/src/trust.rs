//! The trust boundary: which requests the server answers at all.
//!
//! A page the user merely visits in the same browser must not reach the
//! API. Three checks, on every request before any route runs:
//!
//! * **Host** must name the address the server was started on, or
//!   `localhost` (with the port it listens on): a DNS-rebinding page,
//!   whose requests carry its own host name, is refused. A server started
//!   on every address (`0.0.0.0`, `::`) takes any IP address as Host, and
//!   still no other name.
//! * **Origin**, when the browser sends one, must be the server's own
//!   (`http://` + Host) or one given with `--allow-origin`; for the API a
//!   `Sec-Fetch-Site` of `cross-site` or `same-site` is refused likewise
//!   (an `<img>` or a form on another site sends no Origin, but this).
//! * A request that changes something (POST, PUT, PATCH) must say
//!   `Content-Type: application/json`: no HTML form can, and a script on
//!   another origin cannot without a CORS preflight, which is not
//!   answered unless its origin was allowed.
//!
//! No CORS headers are sent unless `--allow-origin` names the origin.

use super::error::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;

/// What the checks accept, fixed when the server starts.
#[derive(Clone, Debug)]
pub struct Trust {
    /// The host the server was started on, lower case, without brackets.
    host: String,
    /// Started on an unspecified address: any IP address is a valid Host.
    any_ip: bool,
    port: u16,
    /// Origins allowed besides the server's own (`--allow-origin`).
    allow_origins: Vec<String>,
}

impl Trust {
    pub fn new(host: &str, port: u16, allow_origins: &[String]) -> Trust {
        let host = host.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        let any_ip = host.parse::<IpAddr>().is_ok_and(|ip| ip.is_unspecified());
        let allow_origins = allow_origins.iter().map(|o| o.trim_end_matches('/').to_ascii_lowercase()).collect();
        Trust { host, any_ip, port, allow_origins }
    }

    /// Whether a `Host` header names this server.
    fn host_ok(&self, value: &str) -> bool {
        let Some((name, port)) = split_host(value) else { return false };
        let name = name.to_ascii_lowercase();
        let name_ok = name == "localhost" || name == self.host || (self.any_ip && name.parse::<IpAddr>().is_ok());
        name_ok && port.unwrap_or(80) == self.port
    }

    fn allowed_origin(&self, origin: &str) -> bool {
        self.allow_origins.iter().any(|o| o == origin)
    }
}

/// A `Host` value's name and port (`[::1]:8080`, `localhost`).
fn split_host(value: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = match value.strip_prefix('[') {
        Some(rest) => {
            let (ip, after) = rest.split_once(']')?;
            (ip, after.strip_prefix(':'))
        }
        None => match value.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (value, None),
        },
    };
    let port = match port {
        Some(p) => Some(p.parse().ok()?),
        None => None,
    };
    (!name.is_empty()).then_some((name, port))
}

fn forbidden(message: impl Into<String>) -> Response {
    ApiError::new(StatusCode::FORBIDDEN, message).into_response()
}

fn changes_state(method: &Method) -> bool {
    matches!(*method, Method::POST | Method::PUT | Method::PATCH | Method::DELETE)
}

/// Middleware: the checks of the module's note, then CORS headers for an
/// allowed foreign origin.
pub async fn check(State(trust): State<Arc<Trust>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    let Some(host) = text(header::HOST) else {
        return ApiError::bad_request("the request has no Host header").into_response();
    };
    if !trust.host_ok(&host) {
        return forbidden(format!(
            "Host {host:?} is not this server (it answers to {}:{} and localhost:{})",
            trust.host, trust.port, trust.port
        ));
    }
    let api = request.uri().path().starts_with("/api");
    let origin = text(header::ORIGIN).map(|o| o.to_ascii_lowercase());
    let foreign = match &origin {
        Some(o) if *o == format!("http://{}", host.to_ascii_lowercase()) => None,
        Some(o) if trust.allowed_origin(o) => None,
        Some(o) => Some(o.clone()),
        None => None,
    };
    if let Some(o) = foreign {
        return forbidden(format!("origin {o} may not use this server (see --allow-origin)"));
    }
    let site = text(header::HeaderName::from_static("sec-fetch-site"));
    let allowed_foreign = origin.as_deref().is_some_and(|o| trust.allowed_origin(o));
    if api && matches!(site.as_deref(), Some("cross-site" | "same-site")) && !allowed_foreign {
        return forbidden("a request from another site may not use this server's API");
    }
    let method = request.method().clone();
    if method == Method::OPTIONS && allowed_foreign {
        return preflight(origin.as_deref().unwrap_or_default());
    }
    if changes_state(&method) && method != Method::DELETE {
        let json = text(header::CONTENT_TYPE).is_some_and(|t| {
            let t = t.to_ascii_lowercase();
            t == "application/json" || t.starts_with("application/json;")
        });
        if !json {
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "a request that changes something must be Content-Type: application/json",
            )
            .into_response();
        }
    }
    let mut response = next.run(request).await;
    if allowed_foreign {
        cors_headers(&mut response, origin.as_deref().unwrap_or_default());
    }
    response
}

fn cors_headers(response: &mut Response, origin: &str) {
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(origin) {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, v);
    }
    h.insert(header::VARY, HeaderValue::from_static("Origin"));
}

fn preflight(origin: &str) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    cors_headers(&mut response, origin);
    let h = response.headers_mut();
    h.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, POST, DELETE"));
    h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static("content-type, x-seat-token"));
    h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_this_server_or_localhost_on_its_port() {
        let t = Trust::new("127.0.0.1", 8080, &[]);
        for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"] {
            assert!(t.host_ok(ok), "{ok}");
        }
        for bad in
            ["rebind.attacker.example:8080", "127.0.0.1:8081", "127.0.0.1", "10.0.0.1:8080", "", ":8080", "[::1]:8080"]
        {
            assert!(!t.host_ok(bad), "{bad}");
        }
        let any = Trust::new("0.0.0.0", 80, &[]);
        assert!(any.host_ok("192.168.1.20") && any.host_ok("[fe80::1]:80") && any.host_ok("localhost"));
        assert!(!any.host_ok("attacker.example"));
        let v6 = Trust::new("::1", 9000, &[]);
        assert!(v6.host_ok("[::1]:9000") && !v6.host_ok("[::1]:9001"));
    }
}
