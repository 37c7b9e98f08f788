//! The staff side of the family's links: the link emails (proposal and contract), the
//! contract screen's signing panel (link states, Resend, paper signature), the signed
//! PDF and checking whether a PDF is the one that was signed.

use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use carepath_core::model::{
    Contract, ContractId, ContractSigningStatus, PaperSignatureInput, PdfVerification,
};

use crate::AppState;
use crate::delivery::{self, signed_pdf_name};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, pdf_response};
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_status, _, _>(status)
        .add::<__path_resend, _, _>(resend)
        .add::<__path_paper_signature, _, _>(paper_signature)
        .add::<__path_signed_pdf, _, _>(signed_pdf)
        .add::<__path_verify_pdf, _, _>(verify_pdf)
}

/// The contract's links (sent, opened, used, expired, revoked, outdated, with times) and
/// its signature evidence.
#[utoipa::path(get, path = "/api/contracts/{id}/signing", tag = "signing", params(("id" = String, Path)),
    responses((status = 200, body = ContractSigningStatus), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn status(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<ApiJson<ContractSigningStatus>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.contract_signing_status(&id))
            .await?,
    ))
}

/// Resend: emails the family a new signing link and revokes the old one.
#[utoipa::path(post, path = "/api/contracts/{id}/signing/resend", tag = "signing", params(("id" = String, Path)),
    responses((status = 200, body = ContractSigningStatus), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn resend(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<ApiJson<ContractSigningStatus>> {
    let communication = delivery::resend_signing_link(&state, user.actor(), id.clone()).await?;
    if let Some(reason) = communication.failure_reason {
        return Err(ApiError::new(
            axum::http::StatusCode::BAD_GATEWAY,
            "send_failed",
            reason,
        ));
    }
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.contract_signing_status(&id))
            .await?,
    ))
}

/// Mark as Signed for a paper signature: the date on the paper and who signed.
#[utoipa::path(post, path = "/api/contracts/{id}/paper-signature", tag = "signing", params(("id" = String, Path)),
    request_body = PaperSignatureInput,
    responses((status = 200, body = Contract), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn paper_signature(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
    ApiJson(body): ApiJson<PaperSignatureInput>,
) -> ApiResult<ApiJson<Contract>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.sign_contract_on_paper(&actor, &id, &body))
            .await?,
    ))
}

/// The signed PDF (contract, signature, certificate page) of a contract signed online.
#[utoipa::path(get, path = "/api/contracts/{id}/signed-pdf", tag = "signing", params(("id" = String, Path)),
    responses((status = 200, description = "PDF file", content_type = "application/pdf"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn signed_pdf(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<ContractId>,
) -> ApiResult<Response> {
    let lookup = id.clone();
    let pdf = state
        .db
        .call(move |store| store.signed_contract_pdf(&lookup))
        .await?
        .ok_or_else(|| ApiError::not_found("This contract has no signed PDF."))?;
    Ok(pdf_response(pdf, &signed_pdf_name(&id), "attachment"))
}

/// Says whether a PDF (the request body, `application/pdf`) is exactly a signed PDF
/// Carepath made.
#[utoipa::path(post, path = "/api/contracts/verify-pdf", tag = "signing",
    request_body(content = Vec<u8>, content_type = "application/pdf"),
    responses((status = 200, body = PdfVerification), (status = 401, body = ErrorBody), (status = 413, body = ErrorBody)))]
pub async fn verify_pdf(
    State(state): State<AppState>,
    _user: CurrentUser,
    body: Bytes,
) -> ApiResult<ApiJson<PdfVerification>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.verify_signed_pdf(&body))
            .await?,
    ))
}
