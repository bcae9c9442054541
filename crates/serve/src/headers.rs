//! The headers every answer carries (issue #61): no page of another site
//! may frame the server's (a framing page reloaded `/` until the store
//! evicted a person's games, and could have clickjacked Resign), and the
//! page runs only its own scripts, styles, fonts and requests.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The page's policy: only its own files and API; images only its own,
/// `data:` (none yet) and `blob:` (the PGN download); no frame, form,
/// plugin or `<base>`; and no site may frame it.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
                       font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
                       frame-ancestors 'none'";

/// Middleware: the headers on every answer, refusals included.
pub async fn secure(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // A join link's token is in the address's fragment, which no browser
    // sends; the rest of the address need not leave either.
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}
