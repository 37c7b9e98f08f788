//! Intakes: the list with its urgency counts, awaiting assessment, the intake form
//! (submit, draft, update), admin delete and restore.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{FormJson, Intake, IntakeForm, IntakeId, UserId};
use carepath_core::rules::stage::Urgency;
use carepath_core::store::{AwaitingAssessment, IntakeListQuery, IntakePage};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_list, _, _>(list)
        .add::<__path_awaiting_assessment, _, _>(awaiting_assessment)
        .add::<__path_create, _, _>(create)
        .add::<__path_create_draft, _, _>(create_draft)
        .add::<__path_get, _, _>(get)
        .add::<__path_update, _, _>(update)
        .add::<__path_update_draft, _, _>(update_draft)
        .add::<__path_delete, _, _>(delete)
        .add::<__path_restore, _, _>(restore)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `new`, `attention` or `urgent`.
    pub urgency: Option<Urgency>,
    pub cursor: Option<String>,
    /// Default 50, at most 200.
    pub limit: Option<u32>,
}

/// Intakes, newest first, with the three urgency counts.
#[utoipa::path(get, path = "/api/intakes", tag = "intakes", params(ListQuery),
    responses((status = 200, body = IntakePage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<ApiJson<IntakePage>> {
    let query = IntakeListQuery {
        urgency: query.urgency,
        cursor: query.cursor,
        limit: query.limit,
    };
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.intakes_page(&query))
            .await?,
    ))
}

/// Intakes with no assessment scheduled yet: how many, and the oldest of them.
#[utoipa::path(get, path = "/api/intakes/awaiting-assessment", tag = "intakes",
    responses((status = 200, body = AwaitingAssessment), (status = 401, body = ErrorBody)))]
pub async fn awaiting_assessment(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<AwaitingAssessment>> {
    Ok(ApiJson(
        state
            .db
            .call(|store| store.intakes_awaiting_assessment())
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IntakeBody {
    pub form: IntakeForm,
    /// Who owns the new client (an active member of staff); when absent, the member of
    /// staff the form's coordinator names, else the signed-in user.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub owner_id: Option<UserId>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IntakeUpdate {
    /// The version read.
    pub version: i64,
    pub form: IntakeForm,
}

/// Submits a new intake (the spec's required fields are checked).
#[utoipa::path(post, path = "/api/intakes", tag = "intakes", request_body = IntakeBody,
    responses((status = 200, body = Intake), (status = 400, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<IntakeBody>,
) -> ApiResult<ApiJson<Intake>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| store.create_intake_for(&actor, body.owner_id.as_ref(), body.form))
            .await?,
    ))
}

/// Saves a new intake as a draft (no required fields).
#[utoipa::path(post, path = "/api/intakes/draft", tag = "intakes", request_body = IntakeBody,
    responses((status = 200, body = Intake), (status = 400, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_draft(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<IntakeBody>,
) -> ApiResult<ApiJson<Intake>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| store.save_intake_draft(&actor, None, body.form))
            .await?,
    ))
}

/// One intake with its form, status and derived pipeline status.
#[utoipa::path(get, path = "/api/intakes/{id}", tag = "intakes", params(("id" = String, Path)),
    responses((status = 200, body = Intake), (status = 404, body = ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<Intake<FormJson>>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.get_intake_answer(&id))
            .await?,
    ))
}

/// Updates an intake; a stale version is 409 with the stored record.
#[utoipa::path(put, path = "/api/intakes/{id}", tag = "intakes", params(("id" = String, Path)), request_body = IntakeUpdate,
    responses((status = 200, body = Intake), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
    ApiJson(body): ApiJson<IntakeUpdate>,
) -> ApiResult<ApiJson<Intake>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| store.update_intake(&actor, &id, body.version, body.form))
            .await?,
    ))
}

/// Saves an existing intake as a draft.
#[utoipa::path(put, path = "/api/intakes/{id}/draft", tag = "intakes", params(("id" = String, Path)), request_body = IntakeUpdate,
    responses((status = 200, body = Intake), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn update_draft(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
    ApiJson(body): ApiJson<IntakeUpdate>,
) -> ApiResult<ApiJson<Intake>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| {
                store.save_intake_draft(&actor, Some((&id, body.version)), body.form)
            })
            .await?,
    ))
}

/// Soft-deletes an intake (admin).
#[utoipa::path(delete, path = "/api/intakes/{id}", tag = "intakes", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<StatusCode> {
    let actor = admin.actor();
    state
        .db
        .write(move |store| store.delete_intake(&actor, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Restores a deleted intake (admin).
#[utoipa::path(post, path = "/api/intakes/{id}/restore", tag = "intakes", params(("id" = String, Path)),
    responses((status = 200, body = Intake), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn restore(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<Intake>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .write(move |store| store.restore_intake(&actor, &id))
            .await?,
    ))
}
