//! Staff profiles for tagging, and user management for administrators.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{Profile, TrashItem, User, UserId};
use carepath_core::outbound::{AccountEmail, account_email, account_link, compose_private_email};
use carepath_core::store::NewUser;
use serde::Deserialize;
use utoipa::ToSchema;

use super::Items;
use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_profiles, _, _>(profiles)
        .add::<__path_list, _, _>(list)
        .add::<__path_create, _, _>(create)
        .add::<__path_invite, _, _>(invite)
        .add::<__path_set_admin, _, _>(set_admin)
        .add::<__path_disable, _, _>(disable)
        .add::<__path_enable, _, _>(enable)
        .add::<__path_reset_second_factor, _, _>(reset_second_factor)
        .add::<__path_set_phone, _, _>(set_phone)
        .add::<__path_trash, _, _>(trash)
}

/// Every active profile, by name (the team-member picker).
#[utoipa::path(get, path = "/api/users", tag = "users",
    responses((status = 200, body = Items<Profile>), (status = 401, body = ErrorBody)))]
pub async fn profiles(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<Items<Profile>>> {
    Ok(ApiJson(
        state.db.call(|store| store.profiles()).await?.into(),
    ))
}

/// Every user with role and state (admin).
#[utoipa::path(get, path = "/api/admin/users", tag = "users",
    responses((status = 200, body = Items<User>), (status = 403, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> ApiResult<ApiJson<Items<User>>> {
    Ok(ApiJson(state.db.call(|store| store.users()).await?.into()))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewUserBody {
    pub email: String,
    pub full_name: String,
    /// None: the user signs in by magic link or recovers a password.
    #[serde(default)]
    pub password: Option<String>,
    #[serde(default)]
    pub is_admin: bool,
}

/// Adds a user (admin).
#[utoipa::path(post, path = "/api/admin/users", tag = "users", request_body = NewUserBody,
    responses((status = 200, body = User), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiJson(body): ApiJson<NewUserBody>,
) -> ApiResult<ApiJson<User>> {
    let actor = admin.actor();
    let new = NewUser {
        email: body.email,
        full_name: body.full_name,
        password: body.password,
        is_admin: body.is_admin,
    };
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.create_user(&actor, new))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InvitationBody {
    pub email: String,
    #[serde(default)]
    pub is_admin: bool,
}

/// Invites an email address to sign up (admin).
#[utoipa::path(post, path = "/api/admin/invitations", tag = "users", request_body = InvitationBody,
    responses((status = 204, description = "Invited"), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn invite(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiJson(body): ApiJson<InvitationBody>,
) -> ApiResult<StatusCode> {
    let actor = admin.actor();
    let email = body.email.trim().to_owned();
    let (token, settings) = state
        .db
        .call(move |store| {
            let token = store.invite(&actor, &body.email, body.is_admin)?;
            Ok((token, store.settings()?))
        })
        .await?;
    // The invitation email goes out in the background; the invitation stands either way.
    let link = account_link(
        &state.config.public_url.base,
        AccountEmail::Invitation,
        &token,
        &email,
    );
    let (subject, text) = account_email(AccountEmail::Invitation, &admin.0.user.full_name, &link);
    // The link is the invitation's secret: to the invited address alone.
    let message = compose_private_email(
        &settings.email,
        &state.outbound.mail_from,
        &email,
        subject,
        &text,
    );
    let sender = state.outbound.email.clone();
    tokio::spawn(async move {
        if let Err(failure) = sender.send(&message).await {
            tracing::warn!(reason = %failure.reason, "an invitation email was not sent");
        }
    });
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdminRoleBody {
    pub is_admin: bool,
}

/// Grants or revokes the admin role (admin; the last administrator stays).
#[utoipa::path(put, path = "/api/admin/users/{id}/admin", tag = "users", params(("id" = String, Path)), request_body = AdminRoleBody,
    responses((status = 200, body = User), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn set_admin(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<UserId>,
    ApiJson(body): ApiJson<AdminRoleBody>,
) -> ApiResult<ApiJson<User>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.set_admin(&actor, &id, body.is_admin))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PhoneBody {
    /// Their mobile number; empty stops the texts.
    pub phone: String,
    /// The user's `version` as shown; a stale one is a conflict.
    pub version: i64,
}

/// Sets a user's mobile number for texts on urgent updates (admin).
#[utoipa::path(put, path = "/api/admin/users/{id}/phone", tag = "users", params(("id" = String, Path)), request_body = PhoneBody,
    responses((status = 200, body = User), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn set_phone(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<UserId>,
    ApiJson(body): ApiJson<PhoneBody>,
) -> ApiResult<ApiJson<User>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.set_user_phone(&actor, &id, &body.phone, body.version))
            .await?,
    ))
}

/// Disables a user and ends their sessions (admin).
#[utoipa::path(post, path = "/api/admin/users/{id}/disable", tag = "users", params(("id" = String, Path)),
    responses((status = 200, body = User), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn disable(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<UserId>,
) -> ApiResult<ApiJson<User>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.disable_user(&actor, &id))
            .await?,
    ))
}

/// Re-enables a disabled user; they sign in again with the password they had (admin).
#[utoipa::path(post, path = "/api/admin/users/{id}/enable", tag = "users", params(("id" = String, Path)),
    responses((status = 200, body = User), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn enable(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<UserId>,
) -> ApiResult<ApiJson<User>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.enable_user(&actor, &id))
            .await?,
    ))
}

/// Removes a user's second factors (authenticator app and passkeys) and recovery codes,
/// for one who lost their phone or key; they sign in with their password alone until they
/// set one up again (admin; audited).
#[utoipa::path(post, path = "/api/admin/users/{id}/reset-second-factor", tag = "users", params(("id" = String, Path)),
    responses((status = 200, body = User), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn reset_second_factor(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<UserId>,
) -> ApiResult<ApiJson<User>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.reset_second_factor(&actor, &id))
            .await?,
    ))
}

/// The trash: soft-deleted intakes, assessments, care plans and contracts with who
/// deleted them and when, most recent first (admin). Each is restored through its own
/// `POST …/{id}/restore`.
#[utoipa::path(get, path = "/api/admin/trash", tag = "users",
    responses((status = 200, body = Items<TrashItem>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn trash(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> ApiResult<ApiJson<Items<TrashItem>>> {
    Ok(ApiJson(state.db.call(|store| store.trash()).await?.into()))
}
