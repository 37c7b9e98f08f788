//! The health check for a reverse proxy or monitor: no session, and nothing in the answer
//! but whether the database answers with the schema this build writes. An administrator's
//! session also gets where replication off the machine stands (its lag, its errors).

use std::time::Duration;

use axum::extract::{FromRequestParts, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use carepath_core::model::ReplicationStatus;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::ApiJson;
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, session_token};

/// The path, public like the sign-in routes.
pub const PATH: &str = "/api/health";

/// Longer than this (every connection busy, the disk stalled) and the server is not
/// healthy as far as a monitor is concerned: it answers 503 instead of making it wait.
const DEADLINE: Duration = Duration::from_secs(2);

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes.add::<__path_health, _, _>(health)
}

/// What a healthy server answers.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    pub status: &'static str,
    /// Administrators only: replication off the machine (`carepath serve --replicate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replication: Option<ReplicationStatus>,
}

/// 200 when the database answers and its migrations are current; 503 otherwise. Needs no
/// session and reveals no data; an administrator's session adds `replication`.
#[utoipa::path(get, path = "/api/health", tag = "health",
    responses((status = 200, body = Health), (status = 503, body = ErrorBody)))]
pub async fn health(State(state): State<AppState>, mut parts: Parts) -> ApiResult<ApiJson<Health>> {
    let check = state.db.call(|store| store.schema_is_current());
    match tokio::time::timeout(DEADLINE, check).await {
        Ok(Ok(true)) => {
            // Only a request carrying a session pays for the look-up.
            let admin = session_token(&parts.headers).is_some()
                && AdminUser::from_request_parts(&mut parts, &state)
                    .await
                    .is_ok();
            Ok(ApiJson(Health {
                status: "ok",
                replication: admin.then(|| state.replication.status()),
            }))
        }
        Ok(Ok(false)) => Err(unavailable("the schema is not the one this build writes")),
        Ok(Err(error)) => Err(unavailable(&error.message)),
        Err(_) => Err(unavailable("the database did not answer in time")),
    }
}

/// The reason goes to the log; the answer says only that the server is not ready.
fn unavailable(reason: &str) -> ApiError {
    tracing::warn!(reason, "health check failed");
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "unavailable",
        "The server cannot reach its database.",
    )
}
