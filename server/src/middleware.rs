//! What every request goes through: the request log line, the Origin check on mutating
//! requests, security headers, and no-store on API answers.

use std::time::Instant;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::ApiError;

const CROSS_ORIGIN: &str = "This request came from another site and was refused.";

/// One log line per request: method, path without the query string, status, duration.
/// Never bodies, cookies, tokens or query strings (they may carry client names).
pub async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    // A shared handle on the request's URI: the path is copied and cleaned only when a
    // line is written (a server logging warnings only writes none for a good answer).
    let uri = request.uri().clone();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    if status >= 500 {
        let path = loggable_path(uri.path());
        tracing::warn!(%method, %path, status, duration_ms, "request");
    } else if tracing::enabled!(tracing::Level::INFO) {
        let path = loggable_path(uri.path());
        tracing::info!(%method, %path, status, duration_ms, "request");
    }
    response
}

/// The path as logged: a family link's token (the segment after `approve` or `sign`, in
/// the web pages and the public API) is a secret and never reaches the log.
fn loggable_path(path: &str) -> String {
    let mut segments: Vec<&str> = path.split('/').collect();
    let start = match segments.as_slice() {
        ["", "approve" | "sign", ..] => 2,
        ["", "api", "public", "approve" | "sign" | "calendar", ..] => 4,
        _ => return path.to_owned(),
    };
    if let Some(token) = segments.get_mut(start)
        && !token.is_empty()
    {
        *token = "…";
    }
    segments.join("/")
}

/// A browser sends Origin with cross-site form posts and fetches; when it is there and
/// is not ours, a state-changing request is refused (the cookie alone proves nothing).
pub async fn check_origin(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if let (false, Some(origin)) = (safe, request.headers().get(header::ORIGIN)) {
        let ours = origin
            .to_str()
            .map(|origin| {
                origin
                    .trim_end_matches('/')
                    .eq_ignore_ascii_case(&state.config.public_url.origin)
            })
            .unwrap_or(false);
        if !ours {
            return ApiError::forbidden(CROSS_ORIGIN).into_response();
        }
    }
    next.run(request).await
}

/// Until the first user exists the API answers only the health check and the setup
/// page (409, [`NOT_SET_UP`](carepath_core::rules::setup::NOT_SET_UP)); the web app's
/// files are served so the setup page can open.
pub async fn setup_gate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let open = !path.starts_with("/api/")
        || path == crate::api::health::PATH
        || path == crate::api::setup::PATH
        || path == carepath_core::model::LOGO_PATH;
    if !open && state.setup_pending().await {
        return ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "not_set_up",
            carepath_core::rules::setup::NOT_SET_UP,
        )
        .into_response();
    }
    next.run(request).await
}

/// A request must be read and answered within the body timeout plus the database
/// deadline (the answer's head, that is: a streamed export or event stream then goes on).
/// Past that it is dropped, which interrupts its database work, and answered 503. Its
/// body alone must arrive within the body timeout: a body that stalls fails then, so a
/// client that never finishes one holds its connection no longer than that.
pub async fn request_deadline(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let deadline = state.config.body_timeout + state.config.query_deadline;
    let body_deadline = tokio::time::Instant::now() + state.config.body_timeout;
    let bodiless = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let request = if bodiless {
        request
    } else {
        request.map(|body| timed_body(body, body_deadline))
    };
    let answer = async move {
        if declared_length(&request).is_some_and(|length| length > crate::BODY_LIMIT as u64) {
            answer_oversized(request, next).await
        } else {
            next.run(request).await
        }
    };
    match tokio::time::timeout(deadline, answer).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "too_slow",
            crate::db::TOO_SLOW,
        )
        .into_response(),
    }
}

/// The most of an oversized body read (and dropped) so that its sender gets the 413.
/// Answered before the body has arrived, the connection would close on unread bytes:
/// the sender's network stack then reports a reset, not the message. Past this size
/// (no form of the app's sends one) the connection is closed anyway.
const DRAIN_AT_MOST: usize = 8 * 1024 * 1024;

fn declared_length(request: &Request) -> Option<u64> {
    request
        .headers()
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// A request whose body is declared over the limit: its route answers it (with its own
/// 413 message) while the rest of the body is read and dropped, within the body timeout
/// and up to `DRAIN_AT_MOST`, so the answer reaches its sender.
async fn answer_oversized(request: Request, next: Next) -> Response {
    use futures_util::StreamExt;
    let (parts, body) = request.into_parts();
    let mut chunks = body.into_data_stream();
    let (forward, received) =
        tokio::sync::mpsc::channel::<Result<axum::body::Bytes, axum::Error>>(1);
    let handed = futures_util::stream::unfold(received, |mut received| async move {
        received.recv().await.map(|chunk| (chunk, received))
    });
    let route = next.run(Request::from_parts(parts, Body::from_stream(handed)));
    let drain = async move {
        let mut read = 0;
        while let Some(Ok(chunk)) = chunks.next().await {
            read += chunk.len();
            if read > DRAIN_AT_MOST {
                break;
            }
            // Once the route has stopped reading, the rest is only dropped.
            let _ = forward.send(Ok(chunk)).await;
        }
    };
    tokio::join!(route, drain).0
}

/// Answers made for a request travel gzip-compressed when the client accepts it and they
/// are big enough to gain from it: lists, timelines, exports, the OpenAPI document. Not
/// Brotli: at its fastest setting it made a coordinator's 22 KB queue 16% smaller than
/// gzip's fastest (3.3 KB against 4.0 KB, a few milliseconds on a slow phone link) for
/// 40% more of the server's time per answer. The web UI's files were compressed with
/// Brotli's best once, when built, and go as the client prefers. Small answers, event
/// streams, PDFs, images and fonts (already compressed) and calendar feeds (below) go as
/// they are.
pub fn compression()
-> tower_http::compression::CompressionLayer<impl tower_http::compression::Predicate> {
    use tower_http::compression::predicate::{
        DefaultPredicate, NotForContentType, Predicate, SizeAbove,
    };
    let worth_it = DefaultPredicate::new()
        .and(SizeAbove::new(COMPRESS_FROM_BYTES))
        .and(NotForContentType::const_new("application/pdf"))
        // Calendar feeds: a calendar service polls them a few times a day, and the cached
        // feed answers in a tenth of a millisecond where compressing it anew takes more.
        .and(NotForContentType::const_new("text/calendar"))
        .and(NotForContentType::const_new("font/"));
    tower_http::compression::CompressionLayer::new()
        .br(false)
        .gzip(true)
        .quality(tower_http::CompressionLevel::Fastest)
        .compress_when(worth_it)
}

/// The smallest answer worth compressing. Below it gzip saves a phone a few milliseconds
/// and costs the server a quarter of the answer: an intake (2.7 KB, 1.6 KB compressed)
/// took 0.058 ms of CPU sent as it is and 0.082 ms compressed, a third of that in setting
/// up the compressor's tables, whatever the answer's size. Lists and the dashboard
/// (20-25 KB, a fifth of that compressed) are well above it.
pub const COMPRESS_FROM_BYTES: u16 = 4096;

/// What a body that stalled fails with; the JSON extractor answers it 408.
pub const BODY_TOO_SLOW: &str = "the request body did not arrive in time";

/// `body`, failing once `deadline` passes before its end.
fn timed_body(body: Body, deadline: tokio::time::Instant) -> Body {
    use futures_util::StreamExt;
    let chunks = body.into_data_stream();
    Body::from_stream(futures_util::StreamExt::fuse(futures_util::stream::unfold(
        Some(chunks),
        move |chunks| async move {
            let mut chunks = chunks?;
            match tokio::time::timeout_at(deadline, chunks.next()).await {
                Ok(Some(Ok(chunk))) => Some((Ok(chunk), Some(chunks))),
                Ok(Some(Err(error))) => Some((Err(std::io::Error::other(error)), None)),
                Ok(None) => None,
                Err(_) => Some((
                    Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        BODY_TOO_SLOW,
                    )),
                    None,
                )),
            }
        },
    )))
}

pub async fn security_headers(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/") || request.uri().path() == "/api";
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    // Room for all five at once rather than growing the map while inserting.
    headers.reserve(5);
    // The app's page names its own policy (a style nonce, see `web::page`);
    // everything else gets the strictest one.
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static("default-src 'self'"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // An answer that chose its own caching keeps it (the public logo); the rest of the
    // API is never stored.
    if api && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::loggable_path;

    #[test]
    fn link_tokens_never_reach_the_log() {
        let cases = [
            ("/sign/abcDEF_-123", "/sign/…"),
            ("/approve/abc", "/approve/…"),
            ("/api/public/sign/abc/pdf", "/api/public/sign/…/pdf"),
            (
                "/api/public/approve/abc/questions",
                "/api/public/approve/…/questions",
            ),
            ("/api/public/calendar/abc", "/api/public/calendar/…"),
            ("/api/contracts/0195/pdf", "/api/contracts/0195/pdf"),
            ("/signing", "/signing"),
            ("/", "/"),
        ];
        for (path, logged) in cases {
            assert_eq!(loggable_path(path), logged, "{path}");
        }
    }
}
