//! The signed-in user's own account: their live sessions (device, address, when), and
//! ending any of them at once; setting up an authenticator app or passkeys as a second
//! factor; the secret that wraps the device's offline copy.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use carepath_core::rules::offline::OfflineAccess;
use carepath_core::store::{
    ActiveSession, PasskeyAdded, PasskeyChallenge, PasskeySummary, RecoveryCodes,
    SecondFactorStatus, TotpEnrolment,
};
use jiff::SignedDuration;
use serde::Deserialize;
use utoipa::ToSchema;

use super::Items;
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::ApiRoutes;
use crate::session::{self, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_sessions, _, _>(sessions)
        .add::<__path_end_session, _, _>(end_session)
        .add::<__path_second_factor_status, _, _>(second_factor_status)
        .add::<__path_start_totp, _, _>(start_totp)
        .add::<__path_totp_qr, _, _>(totp_qr)
        .add::<__path_confirm_totp, _, _>(confirm_totp)
        .add::<__path_passkeys, _, _>(passkeys)
        .add::<__path_start_passkey, _, _>(start_passkey)
        .add::<__path_add_passkey, _, _>(add_passkey)
        .add::<__path_remove_passkey, _, _>(remove_passkey)
        .add::<__path_offline_access, _, _>(offline_access)
}

/// What this user's device needs for its offline copy: the secret that wraps the copy's
/// key (per user, never stored on the device), and how long and how far ahead it keeps
/// visits. Like every API answer, never stored by the browser.
#[utoipa::path(get, path = "/api/account/offline", tag = "account",
    responses((status = 200, body = OfflineAccess), (status = 401, body = ErrorBody)))]
pub async fn offline_access(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<ApiJson<OfflineAccess>> {
    let user = current.user;
    let keys = state.config.secret_keys();
    let access = state
        .db
        .call(move |store| {
            let settings = store.settings()?;
            let key = keys.load(true)?.ok_or_else(|| {
                carepath_core::Error::Rejected("The server has no secret key.".to_owned())
            })?;
            Ok(carepath_core::rules::offline::offline_access(
                &key,
                user.id.as_str(),
                &settings,
            ))
        })
        .await?;
    Ok(ApiJson(access))
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

/// The signed-in user's second factor: set up or not, recovery codes left, required.
#[utoipa::path(get, path = "/api/account/second-factor", tag = "account",
    responses((status = 200, body = SecondFactorStatus), (status = 401, body = ErrorBody)))]
pub async fn second_factor_status(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<ApiJson<SecondFactorStatus>> {
    let user = current.user;
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.second_factor_status(&user))
            .await?,
    ))
}

/// Starts setting up an authenticator app: the secret (shown this once) and its
/// `otpauth://` address; the QR code is `GET /api/account/totp/qr`.
#[utoipa::path(post, path = "/api/account/totp", tag = "account",
    responses((status = 200, body = TotpEnrolment), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn start_totp(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<ApiJson<TotpEnrolment>> {
    let user = current.user;
    let keys = state.config.secret_keys();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.start_totp_enrolment(&keys, &user))
            .await?,
    ))
}

/// The QR code of the set-up in progress, as an SVG image (an `<img>` of the page's own
/// origin, which its Content-Security-Policy allows).
#[utoipa::path(get, path = "/api/account/totp/qr", tag = "account",
    responses((status = 200, content_type = "image/svg+xml", body = String), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn totp_qr(State(state): State<AppState>, current: CurrentUser) -> ApiResult<Response> {
    let user = current.user;
    let keys = state.config.secret_keys();
    let svg = state
        .db
        .call(move |store| store.totp_enrolment_qr(&keys, &user))
        .await?
        .ok_or_else(|| ApiError::not_found("No authenticator app is being set up."))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TotpCodeBody {
    /// The six digits the authenticator app shows now.
    pub code: String,
}

/// Confirms the authenticator app with its current code; answers the ten recovery codes,
/// shown this once.
#[utoipa::path(post, path = "/api/account/totp/confirm", tag = "account", request_body = TotpCodeBody,
    responses((status = 200, body = RecoveryCodes), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn confirm_totp(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<TotpCodeBody>,
) -> ApiResult<ApiJson<RecoveryCodes>> {
    let actor = current.actor();
    let user = current.user;
    let keys = state.config.secret_keys();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.confirm_totp(&keys, &actor, &user, &body.code))
            .await?,
    ))
}

/// The signed-in user's passkeys, oldest first.
#[utoipa::path(get, path = "/api/account/passkeys", tag = "account",
    responses((status = 200, body = Items<PasskeySummary>), (status = 401, body = ErrorBody)))]
pub async fn passkeys(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<ApiJson<Items<PasskeySummary>>> {
    let user = current.user;
    let items = state.db.call(move |store| store.passkeys(&user.id)).await?;
    Ok(ApiJson(items.into()))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasskeyNameBody {
    /// What the passkey is called on Your Account ("Work laptop"), 1 to 60 characters.
    pub name: String,
}

/// Starts adding a passkey: the options for `navigator.credentials.create()`. The
/// server's public address names the relying party; one that browsers refuse for
/// WebAuthn (an IP address, or http:// off localhost) is answered 422.
#[utoipa::path(post, path = "/api/account/passkeys/options", tag = "account", request_body = PasskeyNameBody,
    responses((status = 200, body = PasskeyChallenge), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn start_passkey(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<PasskeyNameBody>,
) -> ApiResult<ApiJson<PasskeyChallenge>> {
    let rp = state.relying_party()?;
    let user = current.user;
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.start_passkey_registration(&rp, &user, &body.name))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasskeyAnswerBody {
    /// The browser's answer as WebAuthn's JSON (`RegistrationResponseJSON` or
    /// `AuthenticationResponseJSON`, bytes in base64url).
    #[schema(value_type = Object)]
    pub credential: serde_json::Value,
}

/// Finishes adding a passkey with the browser's answer; the passkey, and ten recovery
/// codes (shown this once) when the user had none left.
#[utoipa::path(post, path = "/api/account/passkeys", tag = "account", request_body = PasskeyAnswerBody,
    responses((status = 200, body = PasskeyAdded), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn add_passkey(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<PasskeyAnswerBody>,
) -> ApiResult<ApiJson<PasskeyAdded>> {
    let rp = state.relying_party()?;
    let actor = current.actor();
    let user = current.user;
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.finish_passkey_registration(&rp, &actor, &user, &body.credential)
            })
            .await?,
    ))
}

/// Removes one of the signed-in user's passkeys (not the last second factor the agency
/// requires).
#[utoipa::path(delete, path = "/api/account/passkeys/{id}", tag = "account", params(("id" = String, Path)),
    responses((status = 204, description = "Removed"), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn remove_passkey(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<StatusCode> {
    let actor = current.actor();
    let user = current.user;
    state
        .db
        .call(move |store| store.remove_passkey(&actor, &user, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
