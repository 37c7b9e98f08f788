//! Replies that come back: Settings → Email's reply mailbox (its secret never answered)
//! and a fetch on demand, the Unmatched list and its assignment to a client, a reply
//! marked read, the files an emailed reply carried, and the approval a family's plain
//! yes offers staff. The rules, messages and SQL are core's.

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use carepath_core::model::{
    AssignReplyInput, CarePlan, Communication, CommunicationId, IntakeId, PendingAcceptance,
    ReplyMailbox, ReplyMailboxForm,
};
use carepath_core::store::Page;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::delivery::notify_coordinator;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::inbound::{FetchFailure, ReplyStore, fetch_round};
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_reply_mailbox, _, _>(reply_mailbox)
        .add::<__path_save_reply_mailbox, _, _>(save_reply_mailbox)
        .add::<__path_fetch_replies, _, _>(fetch_replies)
        .add::<__path_unmatched, _, _>(unmatched)
        .add::<__path_assign, _, _>(assign)
        .add::<__path_mark_read, _, _>(mark_read)
        .add::<__path_attachment, _, _>(attachment)
        .add::<__path_pending_acceptance, _, _>(pending_acceptance)
        .add::<__path_approve_from_reply, _, _>(approve_from_reply)
}

/// Settings → Email's reply mailbox, read over IMAP (never its password or token: only
/// whether one is set). Administrators only.
#[utoipa::path(get, path = "/api/settings/reply-mailbox", tag = "settings",
    responses((status = 200, body = ReplyMailbox), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn reply_mailbox(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> ApiResult<ApiJson<ReplyMailbox>> {
    Ok(ApiJson(state.db.call(|store| store.reply_mailbox()).await?))
}

/// Saves the reply mailbox; the secret is sealed like the SMTP password. Administrators
/// only.
#[utoipa::path(put, path = "/api/settings/reply-mailbox", tag = "settings", request_body = ReplyMailboxForm,
    responses((status = 200, body = ReplyMailbox), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_reply_mailbox(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiJson(form): ApiJson<ReplyMailboxForm>,
) -> ApiResult<ApiJson<ReplyMailbox>> {
    let actor = admin.actor();
    let keys = state.config.secret_keys();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.save_reply_mailbox(&actor, &keys, &form))
            .await?,
    ))
}

/// How a fetch on demand went.
#[derive(Debug, Serialize, ToSchema)]
pub struct FetchOutcome {
    pub ok: bool,
    /// What the mail server said, in words.
    pub message: String,
    /// Replies kept for the first time, and how many of them are unmatched.
    pub kept: usize,
    pub unmatched: usize,
}

/// Reads the reply mailbox now (Settings → Email's "Fetch now") and answers what
/// happened in words. Administrators only.
#[utoipa::path(post, path = "/api/settings/reply-mailbox/fetch", tag = "settings",
    responses((status = 200, body = FetchOutcome), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn fetch_replies(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> ApiResult<ApiJson<FetchOutcome>> {
    let config = state.config.clone();
    let store = ReplyStore::open(&config).map_err(crate::error::ApiError::internal)?;
    let outcome = match fetch_round(&config, &store).await {
        Ok(round) => {
            let unmatched = round.unmatched();
            let kept = round.kept.len();
            for reply in &round.kept {
                notify_coordinator(&state, reply).await;
            }
            let message = state
                .db
                .call(|store| Ok(store.reply_mailbox()?.check_answer))
                .await?;
            FetchOutcome {
                ok: true,
                message,
                kept,
                unmatched,
            }
        }
        Err(FetchFailure::NoMailbox) => {
            return Err(carepath_core::Error::Rejected(
                carepath_core::rules::setup::NO_REPLY_MAILBOX.to_owned(),
            )
            .into());
        }
        Err(FetchFailure::Mailbox(message)) => FetchOutcome {
            ok: false,
            message,
            kept: 0,
            unmatched: 0,
        },
        Err(FetchFailure::Internal(error)) => return Err(crate::error::ApiError::internal(error)),
    };
    Ok(ApiJson(outcome))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnmatchedParams {
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// Replies (emails and texts) from senders no client could be found for, newest first.
#[utoipa::path(get, path = "/api/communications/unmatched", tag = "communications", params(UnmatchedParams),
    responses((status = 200, body = Page<Communication>), (status = 400, body = ErrorBody)))]
pub async fn unmatched(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<UnmatchedParams>,
) -> ApiResult<ApiJson<Page<Communication>>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.unmatched_replies(query.cursor.as_deref(), query.limit))
            .await?,
    ))
}

/// Puts an unmatched reply on a client's timeline. Administrators only.
#[utoipa::path(post, path = "/api/communications/{id}/assign", tag = "communications", params(("id" = String, Path)),
    request_body = AssignReplyInput,
    responses((status = 200, body = Communication), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn assign(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<CommunicationId>,
    ApiJson(input): ApiJson<AssignReplyInput>,
) -> ApiResult<ApiJson<Communication>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.assign_reply(&actor, &id, &input.intake_id))
            .await?,
    ))
}

/// Marks a reply read (staff opened it).
#[utoipa::path(post, path = "/api/communications/{id}/read", tag = "communications", params(("id" = String, Path)),
    responses((status = 200, body = Communication), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn mark_read(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<CommunicationId>,
) -> ApiResult<ApiJson<Communication>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.mark_reply_read(&id))
            .await?,
    ))
}

/// The content type a kept file is served as: chosen by its (checked) extension, never
/// by what the sender declared, so no reply can make the browser run a page.
fn served_type(name: &str) -> &'static str {
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase());
    match extension.as_deref() {
        Some("pdf") => "application/pdf",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("txt") => "text/plain; charset=utf-8",
        Some("doc") => "application/msword",
        Some("docx") => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        _ => "application/octet-stream",
    }
}

/// A file an emailed reply carried, as a download.
#[utoipa::path(get, path = "/api/communications/{id}/attachments/{attachment_id}", tag = "communications",
    params(("id" = String, Path), ("attachment_id" = String, Path)),
    responses((status = 200, description = "The file", content_type = "application/octet-stream", body = Vec<u8>), (status = 404, body = ErrorBody)))]
pub async fn attachment(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath((id, attachment_id)): ApiPath<(CommunicationId, String)>,
) -> ApiResult<Response> {
    let file = state
        .db
        .call(move |store| store.reply_attachment(&id, &attachment_id))
        .await?;
    // The name as a quoted ASCII string: anything else is replaced.
    let safe: String = file
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(served_type(&file.name)),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        file.bytes,
    )
        .into_response())
}

/// A client's pending acceptance, if any.
#[derive(Debug, Serialize, ToSchema)]
pub struct PendingAcceptanceAnswer {
    /// The reply that offers the approval; None when no proposal waits on a plain yes.
    pub pending: Option<PendingAcceptance>,
}

/// Whether the family's latest reply to the client's sent proposal reads as a plain yes:
/// the reply and the question staff are asked ("Family replied YES to the proposal —
/// approve?"). Nothing is approved until staff click.
#[utoipa::path(get, path = "/api/intakes/{id}/pending-acceptance", tag = "communications", params(("id" = String, Path)),
    responses((status = 200, body = PendingAcceptanceAnswer), (status = 404, body = ErrorBody)))]
pub async fn pending_acceptance(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<PendingAcceptanceAnswer>> {
    let pending = state
        .db
        .call(move |store| store.pending_acceptance(&id))
        .await?;
    Ok(ApiJson(PendingAcceptanceAnswer { pending }))
}

/// Staff's one click: approves the proposal the reply accepts, with the reply as the
/// evidence in the timeline.
#[utoipa::path(post, path = "/api/communications/{id}/approve-proposal", tag = "communications", params(("id" = String, Path)),
    responses((status = 200, body = CarePlan), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn approve_from_reply(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CommunicationId>,
) -> ApiResult<ApiJson<CarePlan>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.approve_proposal_from_reply(&actor, &id))
            .await?,
    ))
}
