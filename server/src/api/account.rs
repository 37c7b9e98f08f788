//! The signed-in user's own account: their live sessions (device, address, when), and
//! ending any of them at once.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use carepath_core::store::ActiveSession;
use jiff::SignedDuration;

use super::Items;
use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::ApiRoutes;
use crate::session::{self, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_sessions, _, _>(sessions)
        .add::<__path_end_session, _, _>(end_session)
}

/// The signed-in user's live sessions, the newest first; `current` marks this one.
#[utoipa::path(get, path = "/api/account/sessions", tag = "account",
    responses((status = 200, body = Items<ActiveSession>), (status = 401, body = ErrorBody)))]
pub async fn sessions(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<ApiJson<Items<ActiveSession>>> {
    let CurrentUser { user, token } = current;
    let items = state
        .db
        .call(move |store| {
            let minutes = store.settings()?.workflow.idle_timeout_minutes.max(1);
            let idle = SignedDuration::from_mins(i64::from(minutes));
            store.active_sessions(&user.id, &token, idle)
        })
        .await?;
    Ok(ApiJson(items.into()))
}

/// Ends one of the signed-in user's sessions at once; ending this one signs out here.
#[utoipa::path(delete, path = "/api/account/sessions/{id}", tag = "account", params(("id" = String, Path)),
    responses((status = 204, description = "Ended"), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn end_session(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Response> {
    let CurrentUser { user, token } = current;
    let ended_here = state
        .db
        .call(move |store| {
            let listed = store.active_sessions(&user.id, &token, SignedDuration::MAX)?;
            let here = listed.iter().any(|s| s.id == id && s.current);
            store.end_session_by_id(&user.id, &id)?;
            Ok(here)
        })
        .await?;
    if ended_here {
        let cookie = session::cleared_cookie(state.config.public_url.https);
        return Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response());
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
