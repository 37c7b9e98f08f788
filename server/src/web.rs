//! The built web UI, embedded at compile time, served with an `index.html` fallback for
//! the app's own routes and `family.html` for the family's links (the build's
//! `first-screens.json` says which). Unknown `/api/…` paths answer a JSON 404 instead.
//!
//! Vite's hashed files under `assets/` are served by memory-serve: compressed with Brotli
//! when the binary is built (gzip once at start), chosen by the request's
//! `Accept-Encoding` with `Vary: Accept-Encoding`, an ETag, and a year's immutable
//! caching. The pages are written per request (their CSP nonce) and travel through the
//! API's compression layer like any answer; the few files beside them are served here.

use std::sync::LazyLock;

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use base64::Engine as _;
use ring::rand::{SecureRandom, SystemRandom};
use rust_embed::RustEmbed;

use crate::AppState;
use crate::error::ApiError;

/// The files beside the pages (the pages themselves, the icon, the service workers);
/// `assets/` is [`assets`]'s.
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
    // Files beside the pages keep their names from build to build.
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
pub async fn fallback(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return ApiError::not_found("No such API route.").into_response();
    }
    let relative = path.trim_start_matches('/');
    if let Some(response) = Some(relative)
        // The pages are written per request (their nonce, the screen's links).
        .filter(|path| !path.is_empty() && !path.ends_with(".html") && *path != FIRST_SCREENS)
        .and_then(asset)
    {
        return response;
    }
    page(path, crate::session::session_token(&headers).is_some())
}

/// Where the web build lists, for each of the app's routes, the files its screen needs
/// beyond the page's own (`firstScreenFiles` in web/vite.config.ts). Read here only.
const FIRST_SCREENS: &str = "first-screens.json";

#[derive(serde::Deserialize)]
struct FirstScreen {
    /// The route as a pattern: `/clients/{id}`.
    path: String,
    /// A staff screen: its data is named only to a visitor with a session.
    staff: bool,
    files: Vec<String>,
    /// The data the screen asks first, as patterns with the route's parameters.
    data: Vec<String>,
    /// The address's query decides more first data, which only the page's own
    /// first-data script can name.
    #[serde(default)]
    query_data: bool,
    /// The page the route is sent: the staff app's, or the family's (`family.html`).
    page: String,
}

/// The staff app's page, sent for every path the build names no route for.
const APP_PAGE: &str = "index.html";

/// What the page sent for one route names beyond the app's entry.
struct ScreenLinks {
    /// `<link rel="modulepreload">` tags for the screen's files.
    files: String,
    staff: bool,
    data: Vec<String>,
    query_data: bool,
    /// One of the build's pages (checked when the list is read).
    page: String,
}

/// Vite's own file names; anything else is never written into the page.
fn is_asset_path(file: &str) -> bool {
    file.starts_with("/assets/")
        && file
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b))
}

/// For each route, what the page sent for it names: the screen's files and its first
/// data, so the browser fetches them alongside the app's entry instead of in round trips
/// after the entry has run (half a second each on a phone's network).
static SCREEN_LINKS: LazyLock<matchit::Router<ScreenLinks>> = LazyLock::new(|| {
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
    let mut pages = std::collections::BTreeSet::new();
    for screen in screens {
        let files = screen
            .files
            .iter()
            .filter(|file| is_asset_path(file))
            .map(|file| format!("<link rel=\"modulepreload\" crossorigin href=\"{file}\">"))
            .collect();
        if !screen.page.ends_with(".html") || WebAssets::get(&screen.page).is_none() {
            tracing::error!(page = %screen.page, "a route of the web build names no page of the build");
            continue;
        }
        if screen.page != APP_PAGE {
            pages.insert(screen.page.clone());
        }
        let links = ScreenLinks {
            files,
            staff: screen.staff,
            data: screen.data,
            query_data: screen.query_data,
            page: screen.page,
        };
        if let Err(error) = routes.insert(screen.path, links) {
            tracing::error!(%error, "a route of the web build's screen files was refused");
        }
    }
    // A page asked for by its own name (`/family.html`, as its service worker keeps it
    // for every link it answers): the page, whose first-data script names the data of
    // the address it is then shown for.
    for page in pages {
        let links = ScreenLinks {
            files: String::new(),
            staff: false,
            data: Vec::new(),
            query_data: true,
            page: page.clone(),
        };
        if let Err(error) = routes.insert(format!("/{page}"), links) {
            tracing::error!(%error, "a page of the web build was refused");
        }
    }
    routes
});

/// A route parameter that may be written into a data address: a token or an id.
fn is_plain_parameter(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= 128
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What is sent for one path: which of the build's pages, with which tags.
struct PageFor {
    page: &'static str,
    /// The screen's files, then its first data (a staff screen's only with a session,
    /// which would otherwise answer 401s to nobody). Empty for a path that is no screen.
    links: String,
    /// The links name all the first data the screen asks.
    names_all_data: bool,
}

/// The page sent for `path` and the tags it names.
fn page_for(path: &str, has_session: bool) -> PageFor {
    // A route's address with a slash at its end is that route, as the app's router reads it.
    let trimmed = path.strip_suffix('/').filter(|trimmed| !trimmed.is_empty());
    let found = SCREEN_LINKS
        .at(path)
        .or_else(|error| trimmed.map_or(Err(error), |trimmed| SCREEN_LINKS.at(trimmed)));
    let Ok(found) = found else {
        return PageFor {
            page: APP_PAGE,
            links: String::new(),
            names_all_data: false,
        };
    };
    let page = found.value.page.as_str();
    let mut links = found.value.files.clone();
    if found.value.staff && !has_session {
        return PageFor {
            page,
            links,
            names_all_data: false,
        };
    }
    let mut named_all = !found.value.query_data;
    'data: for pattern in &found.value.data {
        let mut address = pattern.clone();
        for (name, value) in found.params.iter() {
            if !is_plain_parameter(value) {
                named_all = false;
                continue 'data;
            }
            address = address.replace(&format!("{{{name}}}"), value);
        }
        // The app asks with `fetch`, in CORS mode with same-origin credentials: the
        // preload must be the same request for the browser to hand it over.
        if address.starts_with("/api/") && !address.contains(['{', '"', '<', '>']) {
            links.push_str(&format!(
                "<link rel=\"preload\" as=\"fetch\" crossorigin href=\"{address}\">"
            ));
        } else {
            named_all = false;
        }
    }
    PageFor {
        page,
        links,
        names_all_data: named_all,
    }
}

/// Where a page holds its first-data script (`firstDataScript` in
/// web/vite.config.ts), which names the first data in a page that does not: the one the
/// app's worker keeps for repeat visits. It is written into the page, `<script>…</script>`
/// between these markers.
const FIRST_DATA_SCRIPT: (&str, &str) = ("<!--first-data-->", "<!--/first-data-->");

/// The policy's source for the page's first-data script: its SHA-256, so the policy allows
/// that script and no other inline one. None for a page without it.
fn first_data_script_source(page: &str) -> Option<String> {
    let (open, close) = FIRST_DATA_SCRIPT;
    let start = page.find(open)? + open.len();
    let script = &page[start..start + page[start..].find(close)?];
    let code = script.strip_prefix("<script>")?.strip_suffix("</script>")?;
    let digest = ring::digest::digest(&ring::digest::SHA256, code.as_bytes());
    Some(format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    ))
}

/// The page without its first-data script, when the page names all the first data
/// itself: the script would find every address named already, 2 KB of the page for
/// nothing.
fn without_first_data_script(page: &str) -> Option<String> {
    let (open, close) = FIRST_DATA_SCRIPT;
    let start = page.find(open)?;
    let end = start + page[start..].find(close)? + close.len();
    Some(format!("{}{}", &page[..start], &page[end..]))
}

/// Where a page names its style nonce (a `<meta name="csp-nonce">`).
const NONCE_PLACEHOLDER: &str = "CAREPATH_CSP_NONCE";

/// The page for `path` (the app's, or the family's) with a fresh style nonce, and the
/// policy that allows it.
///
/// Scripts are the app's files and the page's first-data script, named by its hash (the
/// page's own, so a page the app's worker keeps is allowed it too). Styles are the app's
/// stylesheet plus the `<style>`
/// elements that carry this page's nonce: the scroll lock of modal dialogs writes
/// one whose sizes are measured at run time, so no hash could name it, and it takes
/// the nonce the app reads from the page. Style attributes and `<style>` elements
/// without the nonce stay blocked.
fn page(path: &str, has_session: bool) -> Response {
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
    let PageFor {
        page,
        links,
        names_all_data,
    } = page_for(path, has_session);
    let mut scripts = String::from("'self'");
    let mut response = match WebAssets::get(page) {
        Some(file) => {
            let page = String::from_utf8_lossy(&file.data)
                .replace(NONCE_PLACEHOLDER, &nonce)
                .replacen("</head>", &format!("{links}</head>"), 1);
            let page = if names_all_data {
                without_first_data_script(&page).unwrap_or(page)
            } else {
                page
            };
            if let Some(source) = first_data_script_source(&page) {
                scripts = format!("'self' {source}");
            }
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
        "default-src 'self'; script-src {scripts}; style-src 'self' 'nonce-{nonce}'; worker-src 'self'; manifest-src 'self'"
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
