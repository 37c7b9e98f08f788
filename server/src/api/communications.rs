//! Communications: a client's timeline, the hub, sending emails and text messages
//! (recorded pending, sent, then marked sent or failed), notes, call logs and retries.

use axum::extract::State;
use carepath_core::model::{
    CallLogInput, Communication, CommunicationId, CommunicationStatus, CommunicationType,
    Direction, EmailInput, NoteInput, Parents, SmsInput, Visibility,
};
use carepath_core::store::{CommunicationFilter, HubQuery, OwnerFilter, Page};
use serde::Deserialize;
use utoipa::IntoParams;

use super::Items;
use crate::AppState;
use crate::delivery::{deliver_email, deliver_sms, notify_coordinator, record_and_send_email};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::outbound::OutboxEntry;
use crate::outbound::outbox::{OpenError, OutboxMessage};
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_timeline, _, _>(timeline)
        .add::<__path_hub, _, _>(hub)
        .add::<__path_send_email, _, _>(send_email)
        .add::<__path_send_sms, _, _>(send_sms)
        .add::<__path_add_note, _, _>(add_note)
        .add::<__path_log_call, _, _>(log_call)
        .add::<__path_retry, _, _>(retry)
        .add::<__path_outbox, _, _>(outbox)
        .add::<__path_outbox_message, _, _>(outbox_message)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TimelineQuery {
    #[param(value_type = Option<String>)]
    pub intake_id: Option<carepath_core::model::IntakeId>,
    #[param(value_type = Option<String>)]
    pub assessment_id: Option<carepath_core::model::AssessmentId>,
    #[param(value_type = Option<String>)]
    pub care_plan_id: Option<carepath_core::model::CarePlanId>,
    #[param(value_type = Option<String>)]
    pub contract_id: Option<carepath_core::model::ContractId>,
    /// `internal` or `client`; all when absent.
    pub visibility: Option<Visibility>,
}

/// One client's communications, newest first (by intake, assessment, care plan or contract).
#[utoipa::path(get, path = "/api/communications", tag = "communications", params(TimelineQuery),
    responses((status = 200, body = Items<Communication>), (status = 400, body = ErrorBody)))]
pub async fn timeline(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<TimelineQuery>,
) -> ApiResult<ApiJson<Items<Communication>>> {
    let filter = CommunicationFilter {
        parents: Parents {
            intake_id: query.intake_id,
            assessment_id: query.assessment_id,
            care_plan_id: query.care_plan_id,
            contract_id: query.contract_id,
        },
        visibility: query.visibility,
    };
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.communications(&filter))
            .await?
            .into(),
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HubParams {
    /// `me`: only the communications of the signed-in user's clients; or a user's id.
    pub owner: Option<String>,
    /// `email`, `sms`, `note`, `phone_log` or `system_event`.
    #[serde(rename = "type")]
    pub communication_type: Option<CommunicationType>,
    /// `pending`, `sent`, `delivered` or `failed`.
    pub status: Option<CommunicationStatus>,
    /// `inbound` (replies), `outbound` or `internal`.
    pub direction: Option<Direction>,
    pub q: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// Every communication, newest first, with the client's name.
#[utoipa::path(get, path = "/api/communications/hub", tag = "communications", params(HubParams),
    responses((status = 200, body = Page<Communication>), (status = 400, body = ErrorBody)))]
pub async fn hub(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(query): ApiQuery<HubParams>,
) -> ApiResult<ApiJson<Page<Communication>>> {
    let owner = match OwnerFilter::parse(query.owner.as_deref(), &user.user.id) {
        Some(OwnerFilter::User(user_id)) => Some(user_id),
        _ => None,
    };
    let query = HubQuery {
        owner,
        communication_type: query.communication_type,
        status: query.status,
        direction: query.direction,
        search: query.q,
        cursor: query.cursor,
        limit: query.limit,
    };
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.communications_hub(&query))
            .await?,
    ))
}

/// Sends an email. The answer is the communication as it ended: `sent`, or `failed` with
/// `failure_reason` (then POST …/retry).
#[utoipa::path(post, path = "/api/communications/email", tag = "communications", request_body = EmailInput,
    responses((status = 200, body = Communication), (status = 422, body = ErrorBody)))]
pub async fn send_email(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<EmailInput>,
) -> ApiResult<ApiJson<Communication>> {
    let sent = record_and_send_email(&state, user.actor(), input).await?;
    notify_coordinator(&state, &sent).await;
    Ok(ApiJson(sent))
}

/// Sends a text message; answers like the email route.
#[utoipa::path(post, path = "/api/communications/sms", tag = "communications", request_body = SmsInput,
    responses((status = 200, body = Communication), (status = 422, body = ErrorBody)))]
pub async fn send_sms(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<SmsInput>,
) -> ApiResult<ApiJson<Communication>> {
    let actor = user.actor();
    let recorded = state
        .db
        .call(move |store| store.record_sms(&actor, &input))
        .await?;
    let sent = deliver_sms(&state, recorded).await?;
    notify_coordinator(&state, &sent).await;
    Ok(ApiJson(sent))
}

/// Adds a note (internal unless `internal` is false).
#[utoipa::path(post, path = "/api/communications/notes", tag = "communications", request_body = NoteInput,
    responses((status = 200, body = Communication), (status = 422, body = ErrorBody)))]
pub async fn add_note(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<NoteInput>,
) -> ApiResult<ApiJson<Communication>> {
    let actor = user.actor();
    let note = state
        .db
        .write(move |store| store.add_note(&actor, &input))
        .await?;
    notify_coordinator(&state, &note).await;
    Ok(ApiJson(note))
}

/// Logs a phone call.
#[utoipa::path(post, path = "/api/communications/calls", tag = "communications", request_body = CallLogInput,
    responses((status = 200, body = Communication), (status = 422, body = ErrorBody)))]
pub async fn log_call(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<CallLogInput>,
) -> ApiResult<ApiJson<Communication>> {
    let actor = user.actor();
    let call = state
        .db
        .write(move |store| store.log_call(&actor, &input))
        .await?;
    notify_coordinator(&state, &call).await;
    Ok(ApiJson(call))
}

/// Sends a failed email or text message again.
#[utoipa::path(post, path = "/api/communications/{id}/retry", tag = "communications", params(("id" = String, Path)),
    responses((status = 200, body = Communication), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn retry(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CommunicationId>,
) -> ApiResult<ApiJson<Communication>> {
    let actor = user.actor();
    let pending = state
        .db
        .call(move |store| store.retry_communication(&actor, &id))
        .await?;
    let sent = match pending.communication_type {
        CommunicationType::Sms => deliver_sms(&state, pending).await?,
        _ => deliver_email(&state, user.actor(), pending).await?,
    };
    Ok(ApiJson(sent))
}

/// Emails and text messages written to the outbox (no mail server or SMS provider set
/// up), newest first.
#[utoipa::path(get, path = "/api/outbox", tag = "communications",
    responses((status = 200, body = Items<OutboxEntry>), (status = 401, body = ErrorBody)))]
pub async fn outbox(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<Items<OutboxEntry>>> {
    let dir = state.config.outbox_dir();
    let entries = tokio::task::spawn_blocking(move || crate::outbound::outbox::list(&dir, 200))
        .await
        .map_err(crate::error::ApiError::internal)?
        .map_err(crate::error::ApiError::internal)?;
    Ok(ApiJson(entries.into()))
}

/// One outbox message opened by the file name the listing gave: its headers and text.
/// Only names the outbox writes are accepted, and a message marked private (it holds a
/// sign-in, recovery or invitation link) is refused.
#[utoipa::path(get, path = "/api/outbox/{file}", tag = "communications", params(("file" = String, Path)),
    responses((status = 200, body = OutboxMessage), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn outbox_message(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(file): ApiPath<String>,
) -> ApiResult<ApiJson<OutboxMessage>> {
    let dir = state.config.outbox_dir();
    let opened = tokio::task::spawn_blocking(move || crate::outbound::outbox::open(&dir, &file))
        .await
        .map_err(ApiError::internal)?;
    match opened {
        Ok(message) => Ok(ApiJson(message)),
        Err(OpenError::NotFound) => Err(ApiError::not_found("No such message in the outbox.")),
        Err(OpenError::Private) => Err(ApiError::forbidden(
            "This message holds a private link and is shown only to its recipient.",
        )),
        Err(OpenError::Io(error)) => Err(ApiError::internal(error)),
    }
}
