//! The hand-off to care of a signed client: its start-of-care checklist (read, tick an
//! item) and the record the agency's scheduling system imports, as JSON or CSV (the same
//! as `carepath export handoff`; docs/handoff.md lists every field).

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use carepath_core::export::handoff::HandoffFormat;
use carepath_core::model::{ChecklistItemId, Handoff, IntakeId, StartOfCare, StartOfCareItemInput};

use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_handoff, _, _>(handoff)
        .add::<__path_handoff_csv, _, _>(handoff_csv)
        .add::<__path_start_of_care, _, _>(start_of_care)
        .add::<__path_set_item, _, _>(set_item)
}

/// A signed client's hand-off: the schedule, hours, services and rate of the contract
/// as signed, with the client, contacts, address, care needs and preferences. 404 for a
/// client with no signed contract.
#[utoipa::path(get, path = "/api/clients/{id}/handoff", tag = "handoff", params(("id" = String, Path)),
    responses((status = 200, body = Handoff), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn handoff(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<Handoff>> {
    Ok(ApiJson(
        state.db.call(move |store| store.handoff(&id)).await?,
    ))
}

/// The same hand-off as a CSV of one row under the export's header, named
/// `handoff_{date}.csv`.
#[utoipa::path(get, path = "/api/clients/{id}/handoff.csv", tag = "handoff", params(("id" = String, Path)),
    responses((status = 200, description = "CSV file", content_type = "text/csv"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn handoff_csv(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<Response> {
    let (csv, file_name) = state
        .db
        .call(move |store| {
            let mut csv = Vec::new();
            store.write_handoff(&id, HandoffFormat::Csv, &mut csv)?;
            Ok((csv, store.handoff_file_name(HandoffFormat::Csv)?))
        })
        .await?;
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(HandoffFormat::Csv.content_type()),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        csv,
    )
        .into_response())
}

/// A signed client's start-of-care checklist: each item, whether it is done, by whom
/// and when.
#[utoipa::path(get, path = "/api/clients/{id}/start-of-care", tag = "handoff", params(("id" = String, Path)),
    responses((status = 200, body = StartOfCare), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn start_of_care(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<StartOfCare>> {
    Ok(ApiJson(
        state.db.call(move |store| store.start_of_care(&id)).await?,
    ))
}

/// Ticks or unticks one checklist item (the signed-in user and now are kept, and the
/// client's timeline says so). Answers the whole checklist; a stale version is a 409
/// carrying it.
#[utoipa::path(put, path = "/api/clients/{id}/start-of-care/{item_id}", tag = "handoff",
    params(("id" = String, Path), ("item_id" = String, Path)), request_body = StartOfCareItemInput,
    responses((status = 200, body = StartOfCare), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn set_item(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((id, item_id)): ApiPath<(IntakeId, ChecklistItemId)>,
    ApiJson(input): ApiJson<StartOfCareItemInput>,
) -> ApiResult<ApiJson<StartOfCare>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.set_start_of_care_item(&actor, &id, &item_id, &input))
            .await?,
    ))
}
