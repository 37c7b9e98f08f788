//! The built web UI, embedded at compile time, served with an `index.html` fallback for
//! the app's own routes. Unknown `/api/…` paths answer a JSON 404 instead.

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::ApiError;

#[derive(RustEmbed)]
#[folder = "../web/dist"]
#[allow_missing = true]
struct WebAssets;

const NOT_BUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Carepath</title></head>\
<body><h1>Carepath</h1><p>The web UI was not built. Run <code>scripts/build-web</code>, then rebuild Carepath.</p>\
<p>The JSON API is available under <code>/api</code>.</p></body></html>";

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, extension)| extension) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("ico") => "image/x-icon",
        Some("webp") => "image/webp",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("ttf") => "font/ttf",
        Some("txt") => "text/plain; charset=utf-8",
        Some("webmanifest") => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

fn asset(path: &str) -> Option<Response> {
    let file = WebAssets::get(path)?;
    // Vite puts a content hash in every file name under assets/: those never change.
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = file.data.into_owned().into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(path)),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Some(response)
}

/// Everything the API router does not answer.
pub async fn fallback(uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return ApiError::not_found("No such API route.").into_response();
    }
    let relative = path.trim_start_matches('/');
    if let Some(response) = Some(relative)
        .filter(|path| !path.is_empty())
        .and_then(asset)
    {
        return response;
    }
    match asset("index.html") {
        Some(response) => response,
        None => (StatusCode::OK, Html(NOT_BUILT)).into_response(),
    }
}

/// A known API path asked with a method it does not serve.
pub async fn method_not_allowed() -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "This API route does not answer that method.",
    )
    .into_response()
}
