//! The settings of the six tabs (five stored, the sixth only links).

use axum::extract::State;
use carepath_core::model::{Settings, SettingsTab};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::ApiJson;
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_get, _, _>(get)
        .add::<__path_update, _, _>(update)
}

/// One tab saved: `{"version": <versions[tab]>, "tab": "email", "values": {...}}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsUpdate {
    /// The tab's version as read (`versions[tab]`).
    pub version: i64,
    /// `general`, `email`, `sms`, `notifications` or `workflow`.
    pub tab: String,
    /// The tab's fields (unknown ones are refused).
    pub values: serde_json::Value,
}

/// Every tab's settings with their versions.
#[utoipa::path(get, path = "/api/settings", tag = "settings",
    responses((status = 200, body = Settings), (status = 401, body = ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<Settings>> {
    Ok(ApiJson(state.db.call(|store| store.settings()).await?))
}

/// Saves one tab.
#[utoipa::path(put, path = "/api/settings", tag = "settings", request_body = SettingsUpdate,
    responses((status = 200, body = Settings), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<SettingsUpdate>,
) -> ApiResult<ApiJson<Settings>> {
    let tab: SettingsTab =
        serde_json::from_value(serde_json::json!({ "tab": body.tab, "values": body.values }))
            .map_err(|error| {
                ApiError::bad_request(format!("The settings do not fit this tab: {error}"))
            })?;
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.update_settings(&actor, body.version, tab))
            .await?,
    ))
}
