//! The SMS provider's webhook for replies: a text message a family sends to the agency's
//! number. It has no session; the provider's signature (keyed with the account's auth
//! token) is its authorization, so an unsigned or forged report changes nothing.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use carepath_core::model::Reply;
use carepath_core::rules::validation::{
    MAX_REPLY_BYTES, REPLIES_NEED_SMS_ACCOUNT, REPLIES_NEED_SMS_TOKEN, REPLY_NOT_A_FORM,
    REPLY_NOT_SIGNED, REPLY_TOO_LARGE,
};

use crate::AppState;
use crate::delivery::notify_coordinator;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::outbound::signed_by_provider;
use crate::routes::ApiRoutes;

/// Where the provider is told to post replies (its "messaging webhook").
pub const PATH: &str = "/api/sms/replies";

/// The header the provider signs its reports in.
const SIGNATURE: &str = "x-twilio-signature";

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes.add::<__path_reply, _, _>(reply)
}

/// A reply from a family: kept in the client's timeline as an inbound text message (once,
/// however often the provider retries), then the alerts of Settings → Notifications go
/// out. Answers the provider an empty TwiML document (no automatic answer to the family).
#[utoipa::path(post, path = "/api/sms/replies", tag = "communications",
    request_body(content = String, content_type = "application/x-www-form-urlencoded",
        description = "The provider's report: From, Body and MessageSid (other fields are signed but unused)."),
    responses((status = 200, description = "Kept (or kept before).", content_type = "text/xml", body = String),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn reply(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    // The environment's account, else the one Settings saved (its token unsealed).
    let account = match state.config.sms.clone() {
        Some(account) => Some(account),
        None => {
            let config = state.config.clone();
            state
                .db
                .run(move |store| {
                    crate::outbound::sms_account_in_use(&config, store).map_err(ApiError::internal)
                })
                .await?
        }
    };
    let Some(account) = account else {
        return Err(ApiError::not_found(REPLIES_NEED_SMS_ACCOUNT));
    };
    // The cheap checks first: no key, no signature or an oversized body are refused
    // before the body is parsed or anything is hashed.
    if account.auth_token.is_empty() {
        return Err(ApiError::forbidden(REPLIES_NEED_SMS_TOKEN));
    }
    let signature = headers
        .get(SIGNATURE)
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
        .unwrap_or_default();
    // An HMAC-SHA1 in base64 is 28 characters.
    if signature.len() != 28 {
        return Err(ApiError::forbidden(REPLY_NOT_SIGNED));
    }
    if body.len() > MAX_REPLY_BYTES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            REPLY_TOO_LARGE,
        ));
    }
    let params: Vec<(String, String)> =
        serde_urlencoded::from_bytes(&body).map_err(|_| ApiError::bad_request(REPLY_NOT_A_FORM))?;
    let url = format!(
        "{}{PATH}",
        state.config.public_url.base.trim_end_matches('/')
    );
    if !signed_by_provider(&account.auth_token, &url, &params, signature) {
        return Err(ApiError::forbidden(REPLY_NOT_SIGNED));
    }
    let field = |name: &str| {
        params
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .unwrap_or_default()
    };
    let reply = Reply {
        from: field("From"),
        body: field("Body"),
        provider_id: field("MessageSid"),
    };
    let (kept, first) = state
        .db
        .call(move |store| store.record_reply(&reply))
        .await?;
    if first {
        notify_coordinator(&state, &kept).await;
    }
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/xml")],
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response></Response>",
    )
        .into_response())
}
