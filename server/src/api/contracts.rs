//! Contracts: list with stats, preview from a care plan, draft and edit, send for
//! signature, mark signed, admin delete and restore.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{
    CarePlanId, Communication, Contract, ContractId, ContractPreview, ContractStatus,
};
use carepath_core::store::{
    ContractList, ContractQuery, DocumentEmailRequest, EmailDraft, EmailedDocument,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_list, _, _>(list)
        .add::<__path_preview, _, _>(preview)
        .add::<__path_create, _, _>(create)
        .add::<__path_get, _, _>(get)
        .add::<__path_email_draft, _, _>(email_draft)
        .add::<__path_update, _, _>(update)
        .add::<__path_send, _, _>(send)
        .add::<__path_sign, _, _>(sign)
        .add::<__path_delete, _, _>(delete)
        .add::<__path_restore, _, _>(restore)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `draft`, `sent` or `signed`.
    pub status: Option<ContractStatus>,
    /// Client name.
    pub q: Option<String>,
}

/// The 20 newest contracts with the three stats.
#[utoipa::path(get, path = "/api/contracts", tag = "contracts", params(ListQuery),
    responses((status = 200, body = ContractList), (status = 400, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<ApiJson<ContractList>> {
    let query = ContractQuery {
        status: query.status,
        search: query.q,
        limit: None,
    };
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.contracts_list(&query))
            .await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PreviewQuery {
    #[param(value_type = String)]
    pub care_plan_id: CarePlanId,
}

/// The contract text for a care plan, every placeholder filled.
#[utoipa::path(get, path = "/api/contracts/preview", tag = "contracts", params(PreviewQuery),
    responses((status = 200, body = ContractPreview), (status = 404, body = ErrorBody)))]
pub async fn preview(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<PreviewQuery>,
) -> ApiResult<ApiJson<ContractPreview>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.contract_preview(&query.care_plan_id))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractBody {
    #[schema(value_type = String)]
    pub care_plan_id: CarePlanId,
    /// The version of the care plan whose preview the user saw; a plan saved since is 409.
    pub care_plan_version: i64,
    pub content: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractUpdate {
    pub version: i64,
    pub content: String,
}

/// Saves a contract draft from a sent or approved care plan.
#[utoipa::path(post, path = "/api/contracts", tag = "contracts", request_body = ContractBody,
    responses((status = 200, body = Contract), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<ContractBody>,
) -> ApiResult<ApiJson<Contract>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.create_contract(
                    &actor,
                    &body.care_plan_id,
                    Some(body.care_plan_version),
                    &body.content,
                )
            })
            .await?,
    ))
}

/// The email the Send Contract for Signature dialog starts with (core writes it: the
/// family contact by name, signing through the personal link, the sign-off).
#[utoipa::path(get, path = "/api/contracts/{id}/email-draft", tag = "contracts", params(("id" = String, Path)),
    responses((status = 200, body = EmailDraft), (status = 404, body = ErrorBody)))]
pub async fn email_draft(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<ApiJson<EmailDraft>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.contract_email_draft(&id))
            .await?,
    ))
}

/// One contract.
#[utoipa::path(get, path = "/api/contracts/{id}", tag = "contracts", params(("id" = String, Path)),
    responses((status = 200, body = Contract), (status = 404, body = ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<ApiJson<Contract>> {
    Ok(ApiJson(
        state.db.call(move |store| store.get_contract(&id)).await?,
    ))
}

/// Updates a draft contract's text.
#[utoipa::path(put, path = "/api/contracts/{id}", tag = "contracts", params(("id" = String, Path)), request_body = ContractUpdate,
    responses((status = 200, body = Contract), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
    ApiJson(body): ApiJson<ContractUpdate>,
) -> ApiResult<ApiJson<Contract>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.update_contract(&actor, &id, body.version, &body.content))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendContractBody {
    /// Default "Home Care Service Agreement - Ready for Signature".
    #[serde(default)]
    pub subject: Option<String>,
    pub body: String,
    /// The version of the contract on the sender's screen; a contract saved since is 409.
    pub version: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ContractSent {
    pub communication: Communication,
    pub contract: Contract,
}

/// Emails the contract to the family contact for signature; on success it becomes sent.
#[utoipa::path(post, path = "/api/contracts/{id}/send", tag = "contracts", params(("id" = String, Path)), request_body = SendContractBody,
    responses((status = 200, body = ContractSent), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn send(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
    ApiJson(body): ApiJson<SendContractBody>,
) -> ApiResult<ApiJson<ContractSent>> {
    let request = DocumentEmailRequest {
        to: None,
        subject: body.subject,
        body: body.body,
        version: Some(body.version),
    };
    // The email carries the family's personal signing link.
    let (communication, document) = crate::delivery::send_document_with_link(
        &state,
        user.actor(),
        EmailedDocument::Contract(id),
        request,
    )
    .await?;
    let contract = document
        .into_contract()
        .ok_or_else(|| ApiError::internal("a contract send answered another document"))?;
    Ok(ApiJson(ContractSent {
        communication,
        contract,
    }))
}

/// Marks a sent contract signed.
#[utoipa::path(post, path = "/api/contracts/{id}/sign", tag = "contracts", params(("id" = String, Path)),
    responses((status = 200, body = Contract), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn sign(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<ApiJson<Contract>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.sign_contract(&actor, &id))
            .await?,
    ))
}

/// Soft-deletes a contract (admin).
#[utoipa::path(delete, path = "/api/contracts/{id}", tag = "contracts", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<StatusCode> {
    let actor = admin.actor();
    state
        .db
        .call(move |store| store.delete_contract(&actor, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Restores a deleted contract (admin).
#[utoipa::path(post, path = "/api/contracts/{id}/restore", tag = "contracts", params(("id" = String, Path)),
    responses((status = 200, body = Contract), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn restore(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<ApiJson<Contract>> {
    let actor = admin.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.restore_contract(&actor, &id))
            .await?,
    ))
}
