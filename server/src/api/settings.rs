//! The settings of the six tabs (five stored, the sixth only links).

use axum::body::Bytes;
use axum::extract::State;
use carepath_core::model::{Settings, SettingsTab};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::ApiJson;
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_get, _, _>(get)
        .add::<__path_update, _, _>(update)
        .add::<__path_upload_logo, _, _>(upload_logo)
        .add::<__path_remove_logo, _, _>(remove_logo)
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

/// Uploads the agency's logo (the request body: a PNG or JPEG file of at most 512 KB,
/// 16 to 2000 pixels each way), replacing any earlier one. Administrators only.
#[utoipa::path(put, path = "/api/settings/logo", tag = "settings",
    request_body(content = Vec<u8>, content_type = "image/png"),
    responses((status = 200, body = Settings), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn upload_logo(
    State(state): State<AppState>,
    admin: AdminUser,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<ApiJson<Settings>> {
    let actor = admin.actor();
    // A file past the request limit gets the logo's own message, not a bare 413.
    let body = body.map_err(|_| {
        ApiError::from(carepath_core::Error::Validation(
            carepath_core::error::ValidationErrors::single(
                carepath_core::rules::logo::LOGO_FIELD,
                carepath_core::rules::logo::LOGO_TOO_LARGE,
            ),
        ))
    })?;
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.set_logo(&actor, &body))
            .await?,
    ))
}

/// Removes the agency's logo. Administrators only.
#[utoipa::path(delete, path = "/api/settings/logo", tag = "settings",
    responses((status = 200, body = Settings), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn remove_logo(
    State(state): State<AppState>,
    admin: AdminUser,
) -> ApiResult<ApiJson<Settings>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.remove_logo(&actor))
            .await?,
    ))
}
