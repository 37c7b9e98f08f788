//! Care plan proposals: list, pre-fill from an assessment, create and edit, the
//! marketing email, sending the proposal, approval, admin delete and restore.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{
    AssessmentId, CarePlan, CarePlanId, CarePlanInput, CarePlanQuoteInput, CarePlanStatus,
    Communication,
};
use carepath_core::outbound::{DraftKind, PROPOSAL_SUBJECT};
use carepath_core::rules::costs::CarePlanQuote;
use carepath_core::store::{
    CarePlanPage, CarePlanPrefill, CarePlanQuery, DocumentEmailRequest, EmailedDocument,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::Items;
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_list, _, _>(list)
        .add::<__path_sendable, _, _>(sendable)
        .add::<__path_prefill, _, _>(prefill)
        .add::<__path_quote, _, _>(quote)
        .add::<__path_create, _, _>(create)
        .add::<__path_get, _, _>(get)
        .add::<__path_update, _, _>(update)
        .add::<__path_marketing_email, _, _>(marketing_email)
        .add::<__path_send, _, _>(send)
        .add::<__path_approve, _, _>(approve)
        .add::<__path_delete, _, _>(delete)
        .add::<__path_restore, _, _>(restore)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    pub status: Option<CarePlanStatus>,
    pub q: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// Care plans, newest first.
#[utoipa::path(get, path = "/api/care-plans", tag = "care plans", params(ListQuery),
    responses((status = 200, body = CarePlanPage), (status = 400, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<ApiJson<CarePlanPage>> {
    let query = CarePlanQuery {
        status: query.status,
        search: query.q,
        cursor: query.cursor,
        limit: query.limit,
    };
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.care_plans_page(&query))
            .await?,
    ))
}

/// Care plans a contract can be generated from (sent or approved).
#[utoipa::path(get, path = "/api/care-plans/sendable", tag = "care plans",
    responses((status = 200, body = Items<CarePlan>), (status = 401, body = ErrorBody)))]
pub async fn sendable(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<Items<CarePlan>>> {
    Ok(ApiJson(
        state
            .db
            .call(|store| store.sendable_care_plans())
            .await?
            .into(),
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PrefillQuery {
    #[param(value_type = String)]
    pub assessment_id: AssessmentId,
}

/// A new care plan filled from an assessment, with the suggested pricing template.
#[utoipa::path(get, path = "/api/care-plans/prefill", tag = "care plans", params(PrefillQuery),
    responses((status = 200, body = CarePlanPrefill), (status = 404, body = ErrorBody)))]
pub async fn prefill(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<PrefillQuery>,
) -> ApiResult<ApiJson<CarePlanPrefill>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.care_plan_prefill(&query.assessment_id))
            .await?,
    ))
}

/// Prices a schedule before it is saved, by the rules the save uses: the rate given, else
/// the template's base rate; the template's weekend premium for the blended rate.
#[utoipa::path(post, path = "/api/care-plans/quote", tag = "care plans", request_body = CarePlanQuoteInput,
    responses((status = 200, body = CarePlanQuote), (status = 400, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn quote(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(input): ApiJson<CarePlanQuoteInput>,
) -> ApiResult<ApiJson<CarePlanQuote>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.quote_care_plan(&input))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CarePlanBody {
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub assessment_id: Option<AssessmentId>,
    pub plan: CarePlanInput,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CarePlanUpdate {
    pub version: i64,
    pub plan: CarePlanInput,
}

/// Saves a new care plan (draft).
#[utoipa::path(post, path = "/api/care-plans", tag = "care plans", request_body = CarePlanBody,
    responses((status = 200, body = CarePlan), (status = 422, body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<CarePlanBody>,
) -> ApiResult<ApiJson<CarePlan>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| {
                store.create_care_plan(&actor, body.assessment_id.as_ref(), body.plan)
            })
            .await?,
    ))
}

/// One care plan.
#[utoipa::path(get, path = "/api/care-plans/{id}", tag = "care plans", params(("id" = String, Path)),
    responses((status = 200, body = CarePlan), (status = 404, body = ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<CarePlanId>,
) -> ApiResult<ApiJson<CarePlan>> {
    Ok(ApiJson(
        state.db.call(move |store| store.get_care_plan(&id)).await?,
    ))
}

/// Updates a care plan.
#[utoipa::path(put, path = "/api/care-plans/{id}", tag = "care plans", params(("id" = String, Path)), request_body = CarePlanUpdate,
    responses((status = 200, body = CarePlan), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CarePlanId>,
    ApiJson(body): ApiJson<CarePlanUpdate>,
) -> ApiResult<ApiJson<CarePlan>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| store.update_care_plan(&actor, &id, body.version, body.plan))
            .await?,
    ))
}

#[derive(Serialize, ToSchema)]
pub struct MarketingEmail {
    pub generated_text: String,
    pub subject: String,
    pub care_plan: CarePlan,
}

/// Writes the proposal's marketing email and keeps it with the plan.
#[utoipa::path(post, path = "/api/care-plans/{id}/marketing-email", tag = "care plans", params(("id" = String, Path)),
    responses((status = 200, body = MarketingEmail), (status = 402, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn marketing_email(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CarePlanId>,
) -> ApiResult<ApiJson<MarketingEmail>> {
    let lookup = id.clone();
    let facts = state
        .db
        .call(move |store| store.draft_facts(Some(&lookup), None, ""))
        .await?;
    let (text, _) = crate::drafting::write(
        &state,
        DraftKind::MarketingEmail,
        String::new(),
        facts,
        None,
    )
    .await?;
    let (actor, content) = (user.actor(), text.clone());
    let care_plan = state
        .db
        .call(move |store| store.set_marketing_email(&actor, &id, &content))
        .await?;
    Ok(ApiJson(MarketingEmail {
        generated_text: text,
        subject: PROPOSAL_SUBJECT.to_owned(),
        care_plan,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendProposalBody {
    pub to: String,
    /// Default "Home Care Proposal".
    #[serde(default)]
    pub subject: Option<String>,
    pub body: String,
    /// The version of the care plan on the sender's screen; a plan saved since is 409.
    pub version: i64,
}

/// What a send did: the communication (sent, or failed with its reason) and the record.
#[derive(Serialize, ToSchema)]
pub struct CarePlanSent {
    pub communication: Communication,
    pub care_plan: CarePlan,
}

/// Emails the proposal to the family with the proposal letter's PDF attached; on success
/// the plan becomes sent.
#[utoipa::path(post, path = "/api/care-plans/{id}/send", tag = "care plans", params(("id" = String, Path)), request_body = SendProposalBody,
    responses((status = 200, body = CarePlanSent), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn send(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CarePlanId>,
    ApiJson(body): ApiJson<SendProposalBody>,
) -> ApiResult<ApiJson<CarePlanSent>> {
    let request = DocumentEmailRequest {
        to: Some(body.to),
        subject: body.subject,
        body: body.body,
        version: Some(body.version),
    };
    // The email carries the family's personal approval link.
    let (communication, document) = crate::delivery::send_document_with_link(
        &state,
        user.actor(),
        EmailedDocument::CarePlan(id),
        request,
    )
    .await?;
    let care_plan = document
        .into_care_plan()
        .ok_or_else(|| ApiError::internal("a care plan send answered another document"))?;
    Ok(ApiJson(CarePlanSent {
        communication,
        care_plan,
    }))
}

/// The family said yes: sent → approved.
#[utoipa::path(post, path = "/api/care-plans/{id}/approve", tag = "care plans", params(("id" = String, Path)),
    responses((status = 200, body = CarePlan), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn approve(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CarePlanId>,
) -> ApiResult<ApiJson<CarePlan>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| store.approve_care_plan(&actor, &id))
            .await?,
    ))
}

/// Soft-deletes a care plan (admin).
#[utoipa::path(delete, path = "/api/care-plans/{id}", tag = "care plans", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<CarePlanId>,
) -> ApiResult<StatusCode> {
    let actor = admin.actor();
    state
        .db
        .write(move |store| store.delete_care_plan(&actor, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Restores a deleted care plan (admin).
#[utoipa::path(post, path = "/api/care-plans/{id}/restore", tag = "care plans", params(("id" = String, Path)),
    responses((status = 200, body = CarePlan), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn restore(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<CarePlanId>,
) -> ApiResult<ApiJson<CarePlan>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| store.restore_care_plan(&actor, &id))
            .await?,
    ))
}
