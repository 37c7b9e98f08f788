//! Browser sessions: the opaque token in an HttpOnly, SameSite=Lax cookie, and the
//! extractors that turn it into the signed-in user (401 without one, 403 for staff on
//! admin-only routes). Core keeps only the token's hash and applies the idle timeout.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use carepath_core::model::{Actor, Channel};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use carepath_core::store::{SessionUser, Store};
use jiff::{SignedDuration, Timestamp};

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
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty() && value.len() <= 128)
}

/// The Set-Cookie value that starts a session.
pub fn session_cookie(token: &str, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let max_age = SESSION_LIFETIME.as_secs();
    HeaderValue::from_str(&format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("carepath_session=; Path=/; Max-Age=0"))
}

/// The cookie of a pending sign-in (a right password, the code awaited): only the
/// second-factor endpoint reads it, and it lives as long as the pending sign-in.
pub const PENDING_COOKIE: &str = "carepath_pending";

pub fn pending_cookie(token: &str, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let max_age = carepath_core::rules::second_factor::PENDING_LIFETIME.as_secs();
    HeaderValue::from_str(&format!(
        "{PENDING_COOKIE}={token}; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("carepath_pending=; Path=/api/auth; Max-Age=0"))
}

pub fn cleared_pending_cookie(secure: bool) -> HeaderValue {
    if secure {
        HeaderValue::from_static(
            "carepath_pending=; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=0; Secure",
        )
    } else {
        HeaderValue::from_static(
            "carepath_pending=; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=0",
        )
    }
}

/// The pending sign-in token the request carries, if any.
pub fn pending_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == PENDING_COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty() && value.len() <= 128)
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
    if secure {
        HeaderValue::from_static(
            "carepath_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure",
        )
    } else {
        HeaderValue::from_static("carepath_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
    }
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
/// caches the answer; 401 when it has ended.
async fn look_up(state: &AppState, token: &str) -> Result<SessionUser, ApiError> {
    let before = state.sessions.moment();
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

/// The signed-in user of a request whose whole answer is one read on the pool
/// ([`crate::db::Db::read`]). A session cached since the last change the pool saw is
/// taken without the cache's own `PRAGMA data_version`, and checked after the read
/// instead: the read's connection tells, without a statement or a lock, whether its
/// snapshot held a commit it had not seen (`Db::settle`). If any connection saw one
/// since the session was taken, the session is looked up again and the read runs
/// again, so nothing is answered from a snapshot the session might not have held in.
///
/// Why that is enough: a commit is counted at the first transaction after it of every
/// connection, this read's included, and a count empties the cache; an entry is only
/// kept when neither the database nor the count moved during its own lookup. So an
/// unchanged count after the read means no commit came between the entry's lookup and
/// the read's snapshot: the session held in it exactly as it did when looked up.
///
/// Two things differ from [`CurrentUser`] for a session that has just ended: the
/// handler's other extractors run before the check, so a malformed path or query is
/// refused as malformed rather than with a 401, which tells nothing; and a read that
/// settles tallies (the dashboard) has written that derived count before the 401.
pub struct Reader {
    current: CurrentUser,
    /// The pool's change count when the cached session was taken; None when it was
    /// looked up (or checked) for this request already.
    unchecked_at: Option<u64>,
}

impl Reader {
    /// Runs `read` on the pool and answers it once the session is known to hold in the
    /// snapshot it read; 401 otherwise. `read` may run twice, so it takes its inputs by
    /// reference.
    pub async fn read<T, F>(self, state: &AppState, read: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut Store) -> carepath_core::Result<T> + Send + Sync + 'static,
    {
        let Some(taken_at) = self.unchecked_at else {
            return state.db.read(read).await;
        };
        let read = std::sync::Arc::new(read);
        let first = read.clone();
        let answer = state.db.read(move |store| first(store)).await;
        // Only an answer read from a snapshot vouches for the session: an error may
        // come before any statement ran (a request refused as malformed, a deadline).
        if answer.is_ok() && state.sessions.changes() == taken_at {
            return answer;
        }
        // Something was committed since the session was taken, or the read failed:
        // answer nothing, an error included, until the session is read again.
        look_up(state, &self.current.token).await?;
        state.db.read(move |store| read(store)).await
    }
}

impl FromRequestParts<AppState> for Reader {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = session_token(&parts.headers).ok_or_else(ApiError::unauthenticated)?;
        if let Some((user, taken_at)) = state.sessions.peek(&token) {
            enrolment_gate(parts, &user)?;
            return Ok(Self {
                current: CurrentUser { user, token },
                unchecked_at: Some(taken_at),
            });
        }
        Ok(Self {
            current: CurrentUser::from_request_parts(parts, state).await?,
            unchecked_at: None,
        })
    }
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

/// Signed-in users by session token, so a request does not read the database to learn
/// who sent it. An answer is kept only while nothing at all has been written to the
/// database since it was read (any process, any table) and until the session's
/// deadline (its end, or its next last-seen touch). So a sign-out, a password change,
/// a disabled account or a changed idle timeout takes effect on the very next request.
///
/// Two signals say that something was written, and either empties the cache: `PRAGMA
/// data_version` on a connection of the cache's own, asked by [`SessionCache::get`] on
/// every request, and the pool's count of changes its connections have seen
/// ([`crate::db::Db::changes`]), which a [`Reader`] checks after its read instead.
pub struct SessionCache {
    state: Mutex<CacheState>,
    pool_changes: Arc<AtomicU64>,
}

struct CacheState {
    watch: Store,
    version: i64,
    /// The pool's change count the entries were kept under.
    changes: u64,
    users: HashMap<String, (SessionUser, Timestamp)>,
}

/// Both signals before a lookup; see [`SessionCache::put`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    version: i64,
    changes: u64,
}

/// Sessions kept at most; past it the cache starts over.
const CACHED_SESSIONS: usize = 4_096;

impl SessionCache {
    /// `pool_changes` is the pool's count ([`crate::db::Db::changes`]).
    pub fn open(path: &Path, pool_changes: Arc<AtomicU64>) -> carepath_core::Result<Self> {
        let watch = Store::open(path)?;
        let version = watch.data_version()?;
        Ok(Self {
            state: Mutex::new(CacheState {
                watch,
                version,
                changes: pool_changes.load(Ordering::SeqCst),
                users: HashMap::new(),
            }),
            pool_changes,
        })
    }

    /// The pool's change count now.
    pub fn changes(&self) -> u64 {
        self.pool_changes.load(Ordering::SeqCst)
    }

    /// Both signals now; pass them to [`SessionCache::put`] with what was read after.
    pub fn moment(&self) -> Option<Moment> {
        let state = self.state.lock().ok()?;
        Some(Moment {
            changes: self.changes(),
            version: state.watch.data_version().ok()?,
        })
    }

    /// The cached user of `token`, when nothing was written since and its deadline is
    /// ahead.
    pub fn get(&self, token: &str) -> Option<SessionUser> {
        let mut state = self.state.lock().ok()?;
        let changes = self.changes();
        let version = state.watch.data_version().ok()?;
        if version != state.version || changes != state.changes {
            state.users.clear();
            state.version = version;
            state.changes = changes;
            return None;
        }
        let (user, until) = state.users.get(token)?;
        (Timestamp::now() < *until).then(|| user.clone())
    }

    /// The cached user of `token` and the pool's change count it is good for, without
    /// asking the database: for a [`Reader`], which checks the count after its read.
    pub fn peek(&self, token: &str) -> Option<(SessionUser, u64)> {
        let mut state = self.state.lock().ok()?;
        let changes = self.changes();
        if changes != state.changes {
            state.users.clear();
            state.changes = changes;
            return None;
        }
        let (user, until) = state.users.get(token)?;
        (Timestamp::now() < *until).then(|| (user.clone(), changes))
    }

    /// Keeps `user` for `token` until `until`, if nothing was written since `before`
    /// was taken (the lookup itself may have written; then the next request caches).
    pub fn put(&self, token: &str, user: &SessionUser, until: Timestamp, before: Option<Moment>) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        let Ok(version) = state.watch.data_version() else {
            return;
        };
        let now = Moment {
            version,
            changes: self.changes(),
        };
        if before != Some(now) {
            return;
        }
        if now.version != state.version || now.changes != state.changes {
            state.users.clear();
            state.version = now.version;
            state.changes = now.changes;
        }
        if state.users.len() >= CACHED_SESSIONS {
            state.users.clear();
        }
        state.users.insert(token.to_owned(), (user.clone(), until));
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
                .ends_with("; Secure")
        );
    }
}
