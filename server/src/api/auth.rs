//! Sign-in and accounts: password sign-in, sign-up for invited emails, magic links and
//! password recovery by email, new passwords, sign-out, and the second-factor step (a
//! code, or a passkey). The sign-in endpoints are throttled per client address here and
//! per account in core.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use carepath_core::model::{Actor, Channel};
use carepath_core::outbound::{AccountEmail, account_email, account_link, compose_private_email};
use carepath_core::rules::passkeys::PASSKEY_REFUSED;
use carepath_core::rules::second_factor::{CODE_INVALID, PENDING_EXPIRED};
use carepath_core::rules::sign_in::LINK_LIFETIME;
use carepath_core::rules::validation::{validate_magic_link_email, validate_new_password};
use carepath_core::store::{
    AuthTokenPurpose, INVALID_CREDENTIALS, PasskeyChallenge, SecondFactorFailure, SessionUser,
    SignInFailure,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody, TOO_MANY_ATTEMPTS};
use crate::extract::{ApiJson, ClientAddr, Device};
use crate::routes::ApiRoutes;
use crate::session::{self, CurrentUser, SESSION_LIFETIME};

const LINK_INVALID: &str = "This link is invalid or has expired. Please request a new one.";

/// The routes open without a session (all POST).
pub const PUBLIC_PATHS: &[&str] = &[
    "/api/auth/sign-in",
    "/api/auth/sign-up",
    "/api/auth/magic-link",
    "/api/auth/recover",
    "/api/auth/verify",
    "/api/auth/reset-password",
    "/api/auth/second-factor",
    "/api/auth/second-factor/passkey/options",
    "/api/auth/second-factor/passkey",
];

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_sign_in, _, _>(sign_in)
        .add::<__path_sign_out, _, _>(sign_out)
        .add::<__path_me, _, _>(me)
        .add::<__path_sign_up, _, _>(sign_up)
        .add::<__path_magic_link, _, _>(magic_link)
        .add::<__path_recover, _, _>(recover)
        .add::<__path_verify, _, _>(verify)
        .add::<__path_reset_password, _, _>(reset_password)
        .add::<__path_change_password, _, _>(change_password)
        .add::<__path_second_factor, _, _>(second_factor)
        .add::<__path_start_passkey_sign_in, _, _>(start_passkey_sign_in)
        .add::<__path_passkey_sign_in, _, _>(passkey_sign_in)
}

pub(crate) fn throttle(state: &AppState, client: &ClientAddr) -> ApiResult<()> {
    match client.0 {
        Some(address) => state
            .throttle
            .check(address)
            .map_err(|wait| ApiError::rate_limited(TOO_MANY_ATTEMPTS, wait)),
        None => Ok(()),
    }
}

/// The answer to a right password (or link) of a user with a second factor: no session
/// yet, the code is asked next (`POST /api/auth/second-factor`).
#[derive(Serialize, ToSchema)]
pub struct SecondFactorChallenge {
    /// Always true: enter a code from the authenticator app or a recovery code, or use a
    /// passkey.
    pub second_factor_required: bool,
}

/// Opens a new session (a new token at every sign-in) and answers the user with its
/// cookie; for a user with a second factor, a pending sign-in and its cookie instead.
pub(crate) async fn start_session(
    state: &AppState,
    user: SessionUser,
    device: Device,
) -> ApiResult<Response> {
    let user_id = user.id.clone();
    let place = device.0.address.clone();
    let started = state
        .db
        .call(move |store| {
            if store.has_second_factor(&user_id)? {
                return Ok(Err(store.begin_pending_sign_in(&user_id, &place)?));
            }
            Ok(Ok(store.create_session_from(
                &user_id,
                SESSION_LIFETIME,
                &device.0,
            )?))
        })
        .await?;
    let https = state.config.public_url.https;
    match started {
        Ok(token) => {
            let cookie = session::session_cookie(&token, https);
            Ok(([(header::SET_COOKIE, cookie)], ApiJson(user)).into_response())
        }
        Err(pending) => {
            let cookie = session::pending_cookie(&pending, https);
            let challenge = SecondFactorChallenge {
                second_factor_required: true,
            };
            Ok((
                StatusCode::ACCEPTED,
                [(header::SET_COOKIE, cookie)],
                ApiJson(challenge),
            )
                .into_response())
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecondFactorBody {
    /// The six digits of the authenticator app, or a recovery code.
    pub code: String,
}

fn pending_expired() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthenticated", PENDING_EXPIRED)
}

/// The answer to a refused second factor.
fn second_factor_refused(failure: SecondFactorFailure) -> ApiError {
    match failure {
        SecondFactorFailure::Expired => pending_expired(),
        SecondFactorFailure::Invalid => {
            ApiError::new(StatusCode::UNAUTHORIZED, "invalid_code", CODE_INVALID)
        }
        SecondFactorFailure::PasskeyRefused => {
            ApiError::new(StatusCode::UNAUTHORIZED, "invalid_passkey", PASSKEY_REFUSED)
        }
        SecondFactorFailure::Throttled { retry_after_secs } => ApiError::rate_limited(
            format!(
                "Too many failed sign-ins. Please wait {retry_after_secs} seconds and try again."
            ),
            retry_after_secs,
        ),
    }
}

/// A second factor accepted: the session opens and the pending cookie is cleared.
async fn second_factor_passed(
    state: &AppState,
    client: &ClientAddr,
    device: Device,
    user: SessionUser,
) -> ApiResult<Response> {
    // A right second factor gives back the address's attempt: signing in with one spends
    // no more of it than a password alone did.
    if let Some(address) = client.ip() {
        state.throttle.refund(address);
    }
    let user_id = user.id.clone();
    let token = state
        .db
        .call(move |store| store.create_session_from(&user_id, SESSION_LIFETIME, &device.0))
        .await?;
    let https = state.config.public_url.https;
    let cookie = session::session_cookie(&token, https);
    let cleared = session::cleared_pending_cookie(https);
    Ok((
        axum::response::AppendHeaders([
            (header::SET_COOKIE, cookie),
            (header::SET_COOKIE, cleared),
        ]),
        ApiJson(user),
    )
        .into_response())
}

/// The second step of signing in: a code from the authenticator app (each accepted once)
/// or an unused recovery code, with the pending sign-in's cookie; opens the session.
/// Throttled like the password (a right code gives its attempt back to the address).
#[utoipa::path(post, path = "/api/auth/second-factor", tag = "auth", request_body = SecondFactorBody,
    responses((status = 200, body = SessionUser), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn second_factor(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: axum::http::HeaderMap,
    device: Device,
    ApiJson(body): ApiJson<SecondFactorBody>,
) -> ApiResult<Response> {
    throttle(&state, &client)?;
    let pending = session::pending_token(&headers).ok_or_else(pending_expired)?;
    let place = client.key();
    let keys = state.config.secret_keys();
    let outcome = state
        .db
        .call(move |store| store.finish_pending_sign_in(&keys, &pending, &body.code, &place))
        .await?;
    match outcome {
        Ok(user) => second_factor_passed(&state, &client, device, user).await,
        Err(failure) => Err(second_factor_refused(failure)),
    }
}

/// The second step of signing in with a passkey, first half: the options for
/// `navigator.credentials.get()`, with the pending sign-in's cookie. 422 when the user
/// has no passkey, or the server's public address cannot name a relying party.
#[utoipa::path(post, path = "/api/auth/second-factor/passkey/options", tag = "auth",
    responses((status = 200, body = PasskeyChallenge), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn start_passkey_sign_in(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: axum::http::HeaderMap,
) -> ApiResult<ApiJson<PasskeyChallenge>> {
    throttle(&state, &client)?;
    let pending = session::pending_token(&headers).ok_or_else(pending_expired)?;
    let rp = state.relying_party()?;
    let place = client.key();
    let outcome = state
        .db
        .call(move |store| store.start_passkey_sign_in(&rp, &pending, &place))
        .await?;
    let challenge = outcome.map_err(second_factor_refused)?;
    // A challenge for a live pending sign-in proves nothing yet: its attempt is given
    // back, so signing in with a passkey spends no more than with a code.
    if let Some(address) = client.ip() {
        state.throttle.refund(address);
    }
    Ok(ApiJson(challenge))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasskeySignInBody {
    /// The browser's answer to `navigator.credentials.get()` as WebAuthn's JSON
    /// (`AuthenticationResponseJSON`, bytes in base64url).
    #[schema(value_type = Object)]
    pub credential: serde_json::Value,
}

/// The second step of signing in with a passkey, second half: the browser's signed
/// answer to the challenge (used once); opens the session. A refused answer counts like
/// a wrong code.
#[utoipa::path(post, path = "/api/auth/second-factor/passkey", tag = "auth", request_body = PasskeySignInBody,
    responses((status = 200, body = SessionUser), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn passkey_sign_in(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: axum::http::HeaderMap,
    device: Device,
    ApiJson(body): ApiJson<PasskeySignInBody>,
) -> ApiResult<Response> {
    throttle(&state, &client)?;
    let pending = session::pending_token(&headers).ok_or_else(pending_expired)?;
    let rp = state.relying_party()?;
    let place = client.key();
    let outcome = state
        .db
        .call(move |store| store.finish_passkey_sign_in(&rp, &pending, &body.credential, &place))
        .await?;
    match outcome {
        Ok(user) => second_factor_passed(&state, &client, device, user).await,
        Err(failure) => Err(second_factor_refused(failure)),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignInBody {
    pub email: String,
    pub password: String,
}

/// Signs in with email and password; sets the session cookie, or, for a user with a
/// second factor, answers 202 and asks for the code.
#[utoipa::path(post, path = "/api/auth/sign-in", tag = "auth", request_body = SignInBody,
    responses((status = 200, body = SessionUser), (status = 202, body = SecondFactorChallenge), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn sign_in(
    State(state): State<AppState>,
    client: ClientAddr,
    device: Device,
    ApiJson(body): ApiJson<SignInBody>,
) -> ApiResult<Response> {
    throttle(&state, &client)?;
    let _hashing = state.hashing_permit().await?;
    let place = client.key();
    let outcome = state
        .db
        .call(move |store| store.verify_sign_in(&body.email, &body.password, &place))
        .await?;
    match outcome {
        Ok(user) => start_session(&state, user, device).await,
        Err(SignInFailure::Invalid) => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            INVALID_CREDENTIALS,
        )),
        Err(SignInFailure::Throttled { retry_after_secs }) => Err(ApiError::rate_limited(
            format!(
                "Too many failed sign-ins. Please wait {retry_after_secs} seconds and try again."
            ),
            retry_after_secs,
        )),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignOutBody {
    /// Ends every session of the user (all devices), not only this one.
    #[serde(default)]
    pub everywhere: bool,
}

/// Signs out of this device, or everywhere.
#[utoipa::path(post, path = "/api/auth/sign-out", tag = "auth", request_body = SignOutBody,
    responses((status = 204, description = "Signed out; the cookie is cleared"), (status = 401, body = ErrorBody)))]
pub async fn sign_out(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<SignOutBody>,
) -> ApiResult<Response> {
    let CurrentUser { user, token } = current;
    state
        .db
        .call(move |store| {
            if body.everywhere {
                store.end_all_sessions(&user.id)
            } else {
                store.end_session(&token)
            }
        })
        .await?;
    let cookie = session::cleared_cookie(state.config.public_url.https);
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// The signed-in user.
#[utoipa::path(get, path = "/api/auth/me", tag = "auth",
    responses((status = 200, body = SessionUser), (status = 401, body = ErrorBody)))]
pub async fn me(current: CurrentUser) -> ApiJson<SessionUser> {
    ApiJson(current.user)
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignUpBody {
    pub email: String,
    pub password: String,
    #[serde(default)]
    pub full_name: String,
    /// The token of the invitation link (`/login#type=invite&token=…`).
    pub token: String,
}

/// Creates the account of an invited email, with its invitation link's token, and signs
/// it in.
#[utoipa::path(post, path = "/api/auth/sign-up", tag = "auth", request_body = SignUpBody,
    responses((status = 200, body = SessionUser), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn sign_up(
    State(state): State<AppState>,
    client: ClientAddr,
    device: Device,
    ApiJson(body): ApiJson<SignUpBody>,
) -> ApiResult<Response> {
    throttle(&state, &client)?;
    let _hashing = state.hashing_permit().await?;
    let user = state
        .db
        .call(move |store| store.sign_up(&body.email, &body.full_name, &body.password, &body.token))
        .await?;
    let user = state
        .db
        .call(move |store| store.session_user_by_id(&user.id))
        .await?;
    start_session(&state, user, device).await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailBody {
    pub email: String,
}

/// Emails a single-use link in the background; the answer is the same whether or not the
/// email has an account, and arrives before the email is sent, so timing tells nothing.
async fn email_link(
    state: &AppState,
    client: &ClientAddr,
    email: String,
    purpose: AuthTokenPurpose,
) -> ApiResult<StatusCode> {
    throttle(state, client)?;
    validate_magic_link_email(&email)?;
    let state = state.clone();
    tokio::spawn(async move {
        let created = state
            .db
            .call(move |store| {
                let settings = store.settings()?;
                Ok(store
                    .create_auth_token(&email, purpose, LINK_LIFETIME)?
                    .map(|(token, user)| (token, user, settings)))
            })
            .await;
        let Ok(Some((token, user, settings))) = created else {
            return;
        };
        let kind = match purpose {
            AuthTokenPurpose::MagicLink => AccountEmail::MagicLink,
            AuthTokenPurpose::Recovery => AccountEmail::Recovery,
        };
        let link = account_link(&state.config.public_url.base, kind, &token, &user.email);
        let (subject, body) = account_email(kind, &user.full_name, &link);
        // To the account's own address alone: never the Settings' copies.
        let message = compose_private_email(
            &settings.email,
            &state.outbound.mail_from,
            &user.email,
            subject,
            &body,
        );
        if let Err(failure) = state.outbound.email.send(&message).await {
            tracing::warn!(reason = %failure.reason, "a sign-in link email was not sent");
        }
    });
    Ok(StatusCode::ACCEPTED)
}

/// Emails a magic sign-in link (`{public_url}/login#type=magiclink&token=…`).
#[utoipa::path(post, path = "/api/auth/magic-link", tag = "auth", request_body = EmailBody,
    responses((status = 202, description = "Accepted, whether or not the email has an account"), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn magic_link(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiJson(body): ApiJson<EmailBody>,
) -> ApiResult<StatusCode> {
    email_link(&state, &client, body.email, AuthTokenPurpose::MagicLink).await
}

/// Emails a password recovery link (`{public_url}/login#type=recovery&token=…`).
#[utoipa::path(post, path = "/api/auth/recover", tag = "auth", request_body = EmailBody,
    responses((status = 202, description = "Accepted, whether or not the email has an account"), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn recover(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiJson(body): ApiJson<EmailBody>,
) -> ApiResult<StatusCode> {
    email_link(&state, &client, body.email, AuthTokenPurpose::Recovery).await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    pub token: String,
}

/// Signs in with the token of a magic link.
#[utoipa::path(post, path = "/api/auth/verify", tag = "auth", request_body = TokenBody,
    responses((status = 200, body = SessionUser), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn verify(
    State(state): State<AppState>,
    client: ClientAddr,
    device: Device,
    ApiJson(body): ApiJson<TokenBody>,
) -> ApiResult<Response> {
    throttle(&state, &client)?;
    let user = state
        .db
        .call(move |store| store.consume_auth_token(&body.token, AuthTokenPurpose::MagicLink))
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "unauthenticated", LINK_INVALID))?;
    start_session(&state, user, device).await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetPasswordBody {
    pub token: String,
    pub password: String,
    pub confirm_password: String,
}

/// Sets a new password with the token of a recovery link; ends every other session and
/// signs in.
#[utoipa::path(post, path = "/api/auth/reset-password", tag = "auth", request_body = ResetPasswordBody,
    responses((status = 200, body = SessionUser), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn reset_password(
    State(state): State<AppState>,
    client: ClientAddr,
    device: Device,
    ApiJson(body): ApiJson<ResetPasswordBody>,
) -> ApiResult<Response> {
    throttle(&state, &client)?;
    let _hashing = state.hashing_permit().await?;
    // Checked before the token is used, so a typo does not spend the link.
    validate_new_password(&body.password, &body.confirm_password)?;
    let user = state
        .db
        .call(move |store| {
            let Some(user) = store.consume_auth_token(&body.token, AuthTokenPurpose::Recovery)?
            else {
                return Ok(None);
            };
            let actor = Actor::user(user.id.clone(), Channel::Web, user.is_admin);
            store.set_password(
                &actor,
                &user.id,
                &body.password,
                &body.confirm_password,
                None,
            )?;
            Ok(Some(user))
        })
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "unauthenticated", LINK_INVALID))?;
    start_session(&state, user, device).await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPasswordBody {
    pub current_password: String,
    pub password: String,
    pub confirm_password: String,
}

/// Changes the signed-in user's password, given the current one; their other sessions
/// and every sign-in or recovery link sent before end, this session stays. Checking the
/// current password is throttled like sign-in, so a session left open cannot be used to
/// guess it.
#[utoipa::path(put, path = "/api/auth/password", tag = "auth", request_body = NewPasswordBody,
    responses((status = 204, description = "Password changed"), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    client: ClientAddr,
    current: CurrentUser,
    ApiJson(body): ApiJson<NewPasswordBody>,
) -> ApiResult<StatusCode> {
    throttle(&state, &client)?;
    let _hashing = state.hashing_permit().await?;
    let actor = current.actor();
    state
        .db
        .call(move |store| {
            store.change_password(
                &actor,
                &current.user.id,
                &body.current_password,
                &body.password,
                &body.confirm_password,
                Some(&current.token),
            )
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
