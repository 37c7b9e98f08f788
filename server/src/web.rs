//! The built web UI, embedded at compile time, served with an `index.html` fallback for
//! the app's own routes. Unknown `/api/…` paths answer a JSON 404 instead.
//!
//! Vite's hashed files under `assets/` are served by memory-serve: compressed with Brotli
//! when the binary is built (gzip once at start), chosen by the request's
//! `Accept-Encoding` with `Vary: Accept-Encoding`, an ETag, and a year's immutable
//! caching. `index.html` is written per request (its CSP nonce) and travels through the
//! API's compression layer like any answer; the few files beside it are served here.

use std::sync::LazyLock;

use axum::Router;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use base64::Engine as _;
use ring::rand::{SecureRandom, SystemRandom};
use rust_embed::RustEmbed;

use crate::AppState;
use crate::error::ApiError;

/// The files beside `index.html` (the page itself, the icon); `assets/` is [`assets`]'s.
#[derive(RustEmbed)]
#[folder = "../web/dist"]
#[exclude = "assets/*"]
#[exclude = ".vite/*"]
#[allow_missing = true]
struct WebAssets;

/// Where Vite writes its hashed files, served by [`assets`].
pub const ASSETS_PATH: &str = "/assets";

/// The hashed scripts, styles and images of the web build. Built once: memory-serve
/// decompresses and gzips every file when its router is made, and keeps them for good.
static ASSETS: LazyLock<Router> = LazyLock::new(|| {
    #[cfg(web_assets)]
    {
        memory_serve::load!("assets")
            .index_file(None)
            .enable_brotli(true)
            .enable_gzip(true)
            // Vite names every file under assets/ by its content hash.
            .cache_control(memory_serve::CacheControl::Long)
            .html_cache_control(memory_serve::CacheControl::Long)
            .into_router()
            .fallback(missing_asset)
    }
    #[cfg(not(web_assets))]
    {
        Router::new().fallback(missing_asset)
    }
});

/// The router of [`ASSETS_PATH`]: the web build's hashed files.
pub fn assets() -> Router {
    ASSETS.clone()
}

/// A hashed file this build does not have (a page from an older build asking for its
/// scripts): a plain 404, so the browser's import fails instead of reading a page.
async fn missing_asset() -> StatusCode {
    StatusCode::NOT_FOUND
}

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
    // Files beside index.html keep their names from build to build.
    let cache = "no-cache";
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
        .filter(|path| !path.is_empty() && *path != "index.html" && *path != FIRST_SCREENS)
        .and_then(asset)
    {
        return response;
    }
    index_page(path)
}

/// Where the web build lists, for each of the app's routes, the files its screen needs
/// beyond the page's own (`firstScreenFiles` in web/vite.config.ts). Read here only.
const FIRST_SCREENS: &str = "first-screens.json";

#[derive(serde::Deserialize)]
struct FirstScreen {
    /// The route as a pattern: `/clients/{id}`.
    path: String,
    files: Vec<String>,
}

/// For each route, the `<link rel="modulepreload">` tags naming its screen's files: the
/// page sent for a path names them, so the browser fetches the screen alongside the
/// app's entry instead of a round trip after the entry has run (half a second on a
/// phone's network).
static SCREEN_LINKS: LazyLock<matchit::Router<String>> = LazyLock::new(|| {
    let mut routes = matchit::Router::new();
    let Some(file) = WebAssets::get(FIRST_SCREENS) else {
        return routes;
    };
    let screens: Vec<FirstScreen> = match serde_json::from_slice(&file.data) {
        Ok(screens) => screens,
        Err(error) => {
            tracing::error!(%error, "the web build's list of screen files is unreadable");
            return routes;
        }
    };
    for screen in screens {
        let links: String = screen
            .files
            .iter()
            // Vite's own file names; anything else is never written into the page.
            .filter(|file| {
                file.starts_with("/assets/")
                    && file
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b))
            })
            .map(|file| format!("<link rel=\"modulepreload\" crossorigin href=\"{file}\">"))
            .collect();
        if let Err(error) = routes.insert(screen.path, links) {
            tracing::error!(%error, "a route of the web build's screen files was refused");
        }
    }
    routes
});

/// The tags naming the files of the screen `path` opens; empty for any other path.
fn screen_links(path: &str) -> &'static str {
    SCREEN_LINKS
        .at(path)
        .map(|found| found.value.as_str())
        .unwrap_or_default()
}

/// Where `index.html` names the page's style nonce (a `<meta name="csp-nonce">`).
const NONCE_PLACEHOLDER: &str = "CAREPATH_CSP_NONCE";

/// The app's page with a fresh style nonce, and the policy that allows it.
///
/// Scripts stay `'self'` only. Styles are the app's stylesheet plus the `<style>`
/// elements that carry this page's nonce: the scroll lock of modal dialogs writes
/// one whose sizes are measured at run time, so no hash could name it, and it takes
/// the nonce the app reads from the page. Style attributes and `<style>` elements
/// without the nonce stay blocked.
fn index_page(path: &str) -> Response {
    let mut bytes = [0u8; 18];
    if SystemRandom::new().fill(&mut bytes).is_err() {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "no_randomness",
            "The server could not prepare the page. Please try again.",
        )
        .into_response();
    }
    let nonce = base64::engine::general_purpose::STANDARD.encode(bytes);
    let mut response = match WebAssets::get("index.html") {
        Some(file) => {
            let page = String::from_utf8_lossy(&file.data)
                .replace(NONCE_PLACEHOLDER, &nonce)
                .replacen("</head>", &format!("{}</head>", screen_links(path)), 1);
            let mut response = Html(page).into_response();
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
        None => (StatusCode::OK, Html(NOT_BUILT)).into_response(),
    };
    // The service worker and the manifest are the app's own files, named here rather
    // than left to `default-src` so the policy says what the installed app loads.
    if let Ok(policy) = HeaderValue::from_str(&format!(
        "default-src 'self'; style-src 'self' 'nonce-{nonce}'; worker-src 'self'; manifest-src 'self'"
    )) {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    response
}

/// Where the page links its web app manifest.
pub const MANIFEST_PATH: &str = "/manifest.webmanifest";

/// The web app manifest: the agency's name and logo as Settings hold them now, so an
/// installed app shows them (core's `web_manifest`). Never kept stale: a browser asks
/// again and gets the agency's current logo.
pub async fn manifest(axum::extract::State(state): axum::extract::State<AppState>) -> Response {
    let answer = state
        .db
        .call(|store| {
            let name = store.settings()?.general.company_name;
            let logo = store.logo_info()?;
            Ok(carepath_core::rules::offline::web_manifest(
                &name,
                logo.as_ref(),
            ))
        })
        .await;
    match answer {
        Ok(manifest) => (
            [
                (header::CONTENT_TYPE, "application/manifest+json"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            manifest.to_string(),
        )
            .into_response(),
        Err(error) => error.into_response(),
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
