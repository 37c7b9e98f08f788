//! The all-clients list with its seven counts, and one client's profile.

use axum::extract::State;
use carepath_core::model::{ArchiveInput, IntakeId};
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{
    ClientPage, ClientProfile, ClientQuery, ClientSort, OwnerFilter, StageFilter,
};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_list, _, _>(list)
        .add::<__path_profile, _, _>(profile)
        .add::<__path_archive, _, _>(archive)
        .add::<__path_reopen, _, _>(reopen)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `me` (the signed-in user's clients), `unassigned`, or a user's id.
    pub owner: Option<String>,
    /// `intake`, `assessment`, `care_plan`, `contract` or `archived`.
    pub stage: Option<StageFilter>,
    /// `overdue`, `due_soon` or `on_track`.
    pub urgency: Option<ClientUrgency>,
    /// Client name, caller name or caller phone.
    pub q: Option<String>,
    /// `newest` (default) or `name`.
    pub sort: Option<ClientSort>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// One page of clients with the seven counts.
#[utoipa::path(get, path = "/api/clients", tag = "clients", params(ListQuery),
    responses((status = 200, body = ClientPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<ApiJson<ClientPage>> {
    let owner = OwnerFilter::parse(query.owner.as_deref(), &user.user.id);
    let query = ClientQuery {
        owner,
        stage: query.stage,
        urgency: query.urgency,
        search: query.q,
        sort: query.sort.unwrap_or_default(),
        cursor: query.cursor,
        limit: query.limit,
    };
    let page = state
        .db
        .call(move |store| store.clients_page(&query))
        .await?;
    Ok(ApiJson(page))
}

/// A client's profile: journey, stage, next action and latest records.
#[utoipa::path(get, path = "/api/clients/{id}", tag = "clients", params(("id" = String, Path)),
    responses((status = 200, body = ClientProfile), (status = 404, body = ErrorBody)))]
pub async fn profile(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<ClientProfile>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.client_profile(&id))
            .await?,
    ))
}

/// Marks a lead declined or not interested with a reason; it leaves the active lists and
/// shows under "Archived / Declined". Answers the profile as it is now.
#[utoipa::path(post, path = "/api/clients/{id}/archive", tag = "clients", params(("id" = String, Path)), request_body = ArchiveInput,
    responses((status = 200, body = ClientProfile), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn archive(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
    ApiJson(input): ApiJson<ArchiveInput>,
) -> ApiResult<ApiJson<ClientProfile>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.archive_client(&actor, &id, &input)?;
                store.client_profile(&id)
            })
            .await?,
    ))
}

/// Puts an archived client back in the pipeline where it was.
#[utoipa::path(post, path = "/api/clients/{id}/reopen", tag = "clients", params(("id" = String, Path)),
    responses((status = 200, body = ClientProfile), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn reopen(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<ClientProfile>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.reopen_client(&actor, &id)?;
                store.client_profile(&id)
            })
            .await?,
    ))
}
