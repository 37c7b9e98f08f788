//! Assessments: the list with its four stats, pre-fill from an intake, save (draft or
//! completed), generating the care plan, admin delete and restore.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{Assessment, AssessmentForm, AssessmentId, CarePlan, IntakeId};
use carepath_core::store::{AssessmentFilter, AssessmentPage, AssessmentQuery, AssessmentSave};
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
        .add::<__path_prefill, _, _>(prefill)
        .add::<__path_create, _, _>(create)
        .add::<__path_create_draft, _, _>(create_draft)
        .add::<__path_get, _, _>(get)
        .add::<__path_update, _, _>(update)
        .add::<__path_update_draft, _, _>(update_draft)
        .add::<__path_generate_care_plan, _, _>(generate_care_plan)
        .add::<__path_delete, _, _>(delete)
        .add::<__path_restore, _, _>(restore)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `draft`, `completed` or `care_plan_generated`.
    pub status: Option<AssessmentFilter>,
    /// Client name.
    pub q: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// Assessments, newest first, with the four stats.
#[utoipa::path(get, path = "/api/assessments", tag = "assessments", params(ListQuery),
    responses((status = 200, body = AssessmentPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<ApiJson<AssessmentPage>> {
    let query = AssessmentQuery {
        filter: query.status,
        search: query.q,
        cursor: query.cursor,
        limit: query.limit,
    };
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.assessments_page(&query))
            .await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PrefillQuery {
    #[param(value_type = String)]
    pub intake_id: IntakeId,
}

/// A new assessment form pre-filled from an intake.
#[utoipa::path(get, path = "/api/assessments/prefill", tag = "assessments", params(PrefillQuery),
    responses((status = 200, body = AssessmentForm), (status = 404, body = ErrorBody)))]
pub async fn prefill(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<PrefillQuery>,
) -> ApiResult<ApiJson<AssessmentForm>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.assessment_prefill(&query.intake_id))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssessmentBody {
    /// The intake the assessment comes from, if any.
    #[serde(default)]
    pub intake_id: Option<IntakeId>,
    pub form: AssessmentForm,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssessmentUpdate {
    pub version: i64,
    pub form: AssessmentForm,
}

async fn save(
    state: &AppState,
    user: &CurrentUser,
    save: AssessmentSave,
) -> ApiResult<ApiJson<Assessment>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.save_assessment(&actor, save))
            .await?,
    ))
}

/// Saves a new, completed assessment (the spec's checks apply).
#[utoipa::path(post, path = "/api/assessments", tag = "assessments", request_body = AssessmentBody,
    responses((status = 200, body = Assessment), (status = 422, body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<AssessmentBody>,
) -> ApiResult<ApiJson<Assessment>> {
    save(
        &state,
        &user,
        AssessmentSave {
            existing: None,
            intake_id: body.intake_id,
            form: body.form,
            complete: true,
        },
    )
    .await
}

/// Saves a new assessment as a draft.
#[utoipa::path(post, path = "/api/assessments/draft", tag = "assessments", request_body = AssessmentBody,
    responses((status = 200, body = Assessment), (status = 422, body = ErrorBody)))]
pub async fn create_draft(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<AssessmentBody>,
) -> ApiResult<ApiJson<Assessment>> {
    save(
        &state,
        &user,
        AssessmentSave {
            existing: None,
            intake_id: body.intake_id,
            form: body.form,
            complete: false,
        },
    )
    .await
}

/// One assessment.
#[utoipa::path(get, path = "/api/assessments/{id}", tag = "assessments", params(("id" = String, Path)),
    responses((status = 200, body = Assessment), (status = 404, body = ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<AssessmentId>,
) -> ApiResult<ApiJson<Assessment>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.get_assessment(&id))
            .await?,
    ))
}

/// Updates an assessment and marks it completed.
#[utoipa::path(put, path = "/api/assessments/{id}", tag = "assessments", params(("id" = String, Path)), request_body = AssessmentUpdate,
    responses((status = 200, body = Assessment), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<AssessmentId>,
    ApiJson(body): ApiJson<AssessmentUpdate>,
) -> ApiResult<ApiJson<Assessment>> {
    save(
        &state,
        &user,
        AssessmentSave {
            existing: Some((id, body.version)),
            intake_id: None,
            form: body.form,
            complete: true,
        },
    )
    .await
}

/// Updates a draft assessment.
#[utoipa::path(put, path = "/api/assessments/{id}/draft", tag = "assessments", params(("id" = String, Path)), request_body = AssessmentUpdate,
    responses((status = 200, body = Assessment), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn update_draft(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<AssessmentId>,
    ApiJson(body): ApiJson<AssessmentUpdate>,
) -> ApiResult<ApiJson<Assessment>> {
    save(
        &state,
        &user,
        AssessmentSave {
            existing: Some((id, body.version)),
            intake_id: None,
            form: body.form,
            complete: false,
        },
    )
    .await
}

/// Generates the care plan of a saved assessment (draft, rate 25).
#[utoipa::path(post, path = "/api/assessments/{id}/care-plan", tag = "assessments", params(("id" = String, Path)),
    responses((status = 200, body = CarePlan), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn generate_care_plan(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<AssessmentId>,
) -> ApiResult<ApiJson<CarePlan>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.generate_care_plan(&actor, &id))
            .await?,
    ))
}

/// Soft-deletes an assessment (admin).
#[utoipa::path(delete, path = "/api/assessments/{id}", tag = "assessments", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<AssessmentId>,
) -> ApiResult<StatusCode> {
    let actor = admin.actor();
    state
        .db
        .call(move |store| store.delete_assessment(&actor, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Restores a deleted assessment (admin).
#[utoipa::path(post, path = "/api/assessments/{id}/restore", tag = "assessments", params(("id" = String, Path)),
    responses((status = 200, body = Assessment), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn restore(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<AssessmentId>,
) -> ApiResult<ApiJson<Assessment>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.restore_assessment(&actor, &id))
            .await?,
    ))
}
