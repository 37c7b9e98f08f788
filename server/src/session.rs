//! Browser sessions: the opaque token in an HttpOnly, SameSite=Lax cookie, and the
//! extractors that turn it into the signed-in user (401 without one, 403 for staff on
//! admin-only routes). Core keeps only the token's hash and applies the idle timeout.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use carepath_core::model::{Actor, Channel};
use carepath_core::store::SessionUser;
use cookie::{Cookie, SameSite};
use jiff::SignedDuration;

use crate::AppState;
use crate::error::ApiError;

pub const COOKIE: &str = "carepath_session";
/// Absolute lifetime of a session, however active.
pub const SESSION_LIFETIME: SignedDuration = SignedDuration::from_hours(12);
const ADMIN_ONLY: &str = "Only an administrator can do that.";

/// The signed-in user of this request.
#[derive(Clone)]
pub struct CurrentUser {
    pub user: SessionUser,
    pub token: String,
}

impl CurrentUser {
    pub fn actor(&self) -> Actor {
        self.user.actor(Channel::Web)
    }
}

/// A signed-in administrator.
pub struct AdminUser(pub CurrentUser);

impl AdminUser {
    pub fn actor(&self) -> Actor {
        self.0.actor()
    }
}

/// The session token the request carries, if any.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, COOKIE)
}

/// The value of the cookie `name` among those the request carries: none when empty or
/// longer than any token Carepath hands out.
fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == name)
        .map(|cookie| cookie.value().trim().to_owned())
        .filter(|value| !value.is_empty() && value.len() <= 128)
}

/// A Set-Cookie value: never readable by scripts, sent over https only when Carepath is
/// reached over https.
fn set_cookie(
    (name, value): (&'static str, &str),
    path: &'static str,
    same_site: SameSite,
    max_age: SignedDuration,
    secure: bool,
) -> HeaderValue {
    let cookie = Cookie::build((name, value))
        .path(path)
        .http_only(true)
        .same_site(same_site)
        .max_age(cookie::time::Duration::seconds(max_age.as_secs()))
        .secure(secure)
        .build();
    // A token is letters and digits; anything else would be a bug, answered by ending
    // the cookie rather than a broken header.
    HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| {
        HeaderValue::from_str(&format!("{name}=; Path={path}; Max-Age=0"))
            .unwrap_or(HeaderValue::from_static(""))
    })
}

/// The Set-Cookie value that starts a session.
pub fn session_cookie(token: &str, secure: bool) -> HeaderValue {
    set_cookie(
        (COOKIE, token),
        "/",
        SameSite::Lax,
        SESSION_LIFETIME,
        secure,
    )
}

/// The cookie of a pending sign-in (a right password, the code awaited): only the
/// second-factor endpoint reads it, and it lives as long as the pending sign-in.
pub const PENDING_COOKIE: &str = "carepath_pending";

pub fn pending_cookie(token: &str, secure: bool) -> HeaderValue {
    set_cookie(
        (PENDING_COOKIE, token),
        "/api/auth",
        SameSite::Strict,
        carepath_core::rules::second_factor::PENDING_LIFETIME,
        secure,
    )
}

pub fn cleared_pending_cookie(secure: bool) -> HeaderValue {
    set_cookie(
        (PENDING_COOKIE, ""),
        "/api/auth",
        SameSite::Strict,
        SignedDuration::ZERO,
        secure,
    )
}

/// The pending sign-in token the request carries, if any.
pub fn pending_token(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, PENDING_COOKIE)
}

/// What a user who must set up a second factor and has none may reach: who they are,
/// signing out, and enrolment.
const ENROLMENT_PATHS: &[&str] = &[
    "/api/auth/me",
    "/api/auth/sign-out",
    "/api/account/second-factor",
    "/api/account/totp",
    "/api/account/totp/qr",
    "/api/account/totp/confirm",
    "/api/account/passkeys",
    "/api/account/passkeys/options",
];

/// Refuses everything but enrolment to a user who must set up a second factor first.
fn enrolment_gate(parts: &Parts, user: &SessionUser) -> Result<(), ApiError> {
    if user.needs_second_factor && !ENROLMENT_PATHS.contains(&parts.uri.path()) {
        return Err(ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "second_factor_required",
            carepath_core::rules::second_factor::SECOND_FACTOR_REQUIRED,
        ));
    }
    Ok(())
}

/// The Set-Cookie value that ends it in the browser.
pub fn cleared_cookie(secure: bool) -> HeaderValue {
    set_cookie(
        (COOKIE, ""),
        "/",
        SameSite::Lax,
        SignedDuration::ZERO,
        secure,
    )
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(user) = parts.extensions.get::<CurrentUser>() {
            enrolment_gate(parts, &user.user)?;
            return Ok(user.clone());
        }
        let token = session_token(&parts.headers).ok_or_else(ApiError::unauthenticated)?;
        let user = match state.sessions.get(&token) {
            Some(user) => user,
            None => look_up(state, &token).await?,
        };
        enrolment_gate(parts, &user)?;
        let current = CurrentUser { user, token };
        parts.extensions.insert(current.clone());
        Ok(current)
    }
}

/// Reads the session from the database (touching its last-seen time when due) and
/// caches the answer (`session_cache.rs`); 401 when it has ended.
async fn look_up(state: &AppState, token: &str) -> Result<SessionUser, ApiError> {
    let before = state.sessions.version();
    let lookup = token.to_owned();
    let (user, until) = state
        .db
        .call(move |store| {
            let minutes = store.settings()?.workflow.idle_timeout_minutes.max(1);
            store.session_user_until(&lookup, SignedDuration::from_mins(i64::from(minutes)))
        })
        .await?
        .ok_or_else(ApiError::unauthenticated)?;
    state.sessions.put(token, &user, until, before);
    Ok(user)
}

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        if !current.user.is_admin {
            return Err(ApiError::forbidden(ADMIN_ONLY));
        }
        Ok(AdminUser(current))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_session_cookie_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; carepath_session=abc ; b=2"),
        );
        assert_eq!(session_token(&headers).as_deref(), Some("abc"));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("carepath_session="),
        );
        assert_eq!(session_token(&headers), None);
    }

    #[test]
    fn cookie_is_http_only_lax_and_secure_only_over_https() {
        let cookie = session_cookie("t", false);
        let text = cookie.to_str().unwrap();
        assert!(
            text.contains("HttpOnly") && text.contains("SameSite=Lax") && !text.contains("Secure")
        );
        assert!(
            session_cookie("t", true)
                .to_str()
                .unwrap()
                .contains("; Secure")
        );
        let cleared = cleared_pending_cookie(true);
        let cleared = cleared.to_str().unwrap();
        for part in [
            "carepath_pending=",
            "Path=/api/auth",
            "HttpOnly",
            "SameSite=Strict",
            "Max-Age=0",
            "Secure",
        ] {
            assert!(cleared.contains(part), "{part} missing from {cleared}");
        }
    }
}
