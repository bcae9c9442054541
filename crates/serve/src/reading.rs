//! A request is read whole before any route runs, within bounds: its body
//! within `--max-body` bytes (413 at once when its `Content-Length` says
//! more, without waiting for a byte of it) and within `body_timeout_ms`
//! of its headers (408). Hyper bounds the headers (`header_timeout_ms`);
//! this bounds the rest, so that no request holds its connection for
//! longer than the two deadlines together, however slowly its client
//! sends (issue #59: a body announced and never sent held its connection
//! for ever). A refused request's connection is closed after the answer;
//! what is left of a body too large is read and thrown away for a moment
//! first (`LINGER`), so that a client still sending it gets the 413
//! instead of a reset connection.

use super::error::ApiError;
use axum::body::{Body, BodyDataStream};
use axum::http::{header, HeaderValue, Request, Response, StatusCode};
use axum::response::IntoResponse;
use futures_util::StreamExt;
use std::time::Duration;

/// How long the rest of a body too large is read (and thrown away) after
/// the refusal: enough for a client on the same network to finish
/// sending, bounded whatever it sends.
const LINGER: Duration = Duration::from_secs(1);

/// How much of a body, and how long it may take to arrive.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub max_bytes: usize,
    pub timeout: Duration,
}

/// The request with its body read whole, or the refusal to send.
pub async fn whole<B>(request: Request<B>, bounds: Bounds) -> Result<Request<Body>, Response<Body>>
where
    B: axum::body::HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    let (parts, body) = request.into_parts();
    let declared = parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    let mut chunks = Body::new(body).into_data_stream();
    if declared.is_some_and(|n| n > bounds.max_bytes as u64) {
        return Err(too_large(bounds, chunks));
    }
    let read = async {
        let mut bytes = Vec::new();
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(|e| Cut::Unreadable(e.to_string()))?;
            if bytes.len() + chunk.len() > bounds.max_bytes {
                return Err(Cut::TooLarge);
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    };
    match tokio::time::timeout(bounds.timeout, read).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, Body::from(bytes))),
        Ok(Err(Cut::TooLarge)) => Err(too_large(bounds, chunks)),
        Ok(Err(Cut::Unreadable(why))) => {
            Err(refuse(StatusCode::BAD_REQUEST, format!("cannot read the request body: {why}")))
        }
        Err(_) => Err(refuse(
            StatusCode::REQUEST_TIMEOUT,
            format!("the request body did not arrive whole within {} ms", bounds.timeout.as_millis()),
        )),
    }
}

/// Why a body was not read whole (besides its deadline).
enum Cut {
    TooLarge,
    Unreadable(String),
}

/// The 413; the rest of the body is read and thrown away meanwhile, for
/// [`LINGER`] at most.
fn too_large(bounds: Bounds, mut rest: BodyDataStream) -> Response<Body> {
    tokio::spawn(async move {
        let _ = tokio::time::timeout(LINGER, async { while rest.next().await.is_some() {} }).await;
    });
    refuse(StatusCode::PAYLOAD_TOO_LARGE, format!("request body too large (over {} bytes)", bounds.max_bytes))
}

/// A refusal as JSON (`error.rs`), closing the connection after it.
fn refuse(status: StatusCode, message: String) -> Response<Body> {
    let mut response = ApiError::new(status, message).into_response();
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds { max_bytes: 10, timeout: Duration::from_millis(200) };

    fn request(length: Option<&str>, body: Body) -> Request<Body> {
        let mut r = Request::builder().method("POST").uri("/api/games");
        if let Some(n) = length {
            r = r.header(header::CONTENT_LENGTH, n);
        }
        r.body(body).unwrap()
    }

    async fn status(r: Request<Body>) -> StatusCode {
        match whole(r, BOUNDS).await {
            Ok(_) => StatusCode::OK,
            Err(refused) => {
                assert_eq!(refused.headers()[header::CONNECTION], "close");
                refused.status()
            }
        }
    }

    #[tokio::test]
    async fn a_body_is_read_within_its_size_and_time_or_refused() {
        let read = whole(request(Some("4"), Body::from("{}{}")), BOUNDS).await.unwrap();
        let bytes = axum::body::to_bytes(read.into_body(), 100).await.unwrap();
        assert_eq!(&bytes[..], b"{}{}");
        // 10 GB announced: refused before a byte is read (the body never ends).
        let never = Body::from_stream(futures_util::stream::pending::<Result<Vec<u8>, std::io::Error>>());
        assert_eq!(status(request(Some("10000000000"), never)).await, StatusCode::PAYLOAD_TOO_LARGE);
        // More than announced nothing: counted as it comes.
        assert_eq!(status(request(None, Body::from("12345678901"))).await, StatusCode::PAYLOAD_TOO_LARGE);
        // A body that stops coming: 408 at the deadline.
        let started = std::time::Instant::now();
        let stalled =
            futures_util::stream::iter([Ok::<_, std::io::Error>(b"{".to_vec())]).chain(futures_util::stream::pending());
        assert_eq!(status(request(Some("9"), Body::from_stream(stalled))).await, StatusCode::REQUEST_TIMEOUT);
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    }
}
