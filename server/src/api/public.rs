//! The family's pages, open without a staff account: the proposal to approve (or ask
//! about) and the contract to sign, each reached by its personal link's token. They
//! answer the document and nothing else, set no session, and give every bad link the
//! same answer. Bad links are throttled per client address.

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use carepath_core::model::{
    ApprovalInput, ContractForSigning, LinkOutcome, LinkPurpose, ProposalLetter, PublicDone,
    QuestionInput, RequestOrigin, SignatureInput,
};

use crate::AppState;
use crate::delivery::send_signed_confirmation;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ClientAddr, pdf_response};
use crate::routes::ApiRoutes;
use crate::throttle::with_link;

/// The public routes: the OpenAPI document marks them open (no session).
pub const PUBLIC_PATHS: &[&str] = &[
    "/api/public/approve/{token}",
    "/api/public/approve/{token}/questions",
    "/api/public/sign/{token}",
    "/api/public/sign/{token}/pdf",
    "/api/public/approve/{token}/outcome",
    "/api/public/sign/{token}/outcome",
    "/api/public/sign/{token}/signed.pdf",
    "/api/public/logo",
];

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_proposal, _, _>(proposal)
        .add::<__path_approve, _, _>(approve)
        .add::<__path_question, _, _>(question)
        .add::<__path_contract, _, _>(contract)
        .add::<__path_contract_pdf, _, _>(contract_pdf)
        .add::<__path_sign, _, _>(sign)
        .add::<__path_approval_outcome, _, _>(approval_outcome)
        .add::<__path_signing_outcome, _, _>(signing_outcome)
        .add::<__path_signed_pdf, _, _>(signed_pdf)
        .add::<__path_logo, _, _>(logo)
}

/// Asks for the logo with the fingerprint its address names (`?v=`).
#[derive(serde::Deserialize, utoipa::IntoParams)]
pub struct LogoQuery {
    /// The first characters of the logo's SHA-256, as Settings give its address.
    pub v: Option<String>,
}

/// The agency's logo, as printed on its documents: open to anyone (it is on every
/// letter the family gets). An address naming the current fingerprint may be kept for
/// good; without one, for five minutes.
#[utoipa::path(get, path = "/api/public/logo", tag = "public", params(LogoQuery),
    responses((status = 200, description = "The logo file", content_type = "image/png"), (status = 404, body = ErrorBody)))]
pub async fn logo(
    State(state): State<AppState>,
    axum::extract::Query(query): axum::extract::Query<LogoQuery>,
) -> ApiResult<Response> {
    use axum::http::HeaderValue;
    use axum::response::IntoResponse;
    let file = state
        .db
        .call(|store| store.logo_file())
        .await?
        .ok_or_else(|| ApiError::not_found("The agency has no logo."))?;
    let current = query
        .v
        .as_deref()
        .is_some_and(|v| v.len() >= 8 && file.info.sha256.starts_with(v));
    let cache = if current {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=300"
    };
    let content_type = HeaderValue::from_str(&file.info.content_type)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
        ],
        file.bytes,
    )
        .into_response())
}

/// Where the request came from, kept with a signature or an approval.
fn origin(client: &ClientAddr, headers: &HeaderMap) -> RequestOrigin {
    RequestOrigin {
        ip_address: client.ip().map(|ip| ip.to_string()).unwrap_or_default(),
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned(),
    }
}

/// The proposal letter to approve.
#[utoipa::path(get, path = "/api/public/approve/{token}", tag = "public", params(("token" = String, Path)),
    responses((status = 200, body = ProposalLetter), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn proposal(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<ApiJson<ProposalLetter>> {
    Ok(ApiJson(
        with_link(&state, &client, move |store| {
            store.open_proposal_link(&token)
        })
        .await?,
    ))
}

/// "Approve this proposal": the care plan becomes approved.
#[utoipa::path(post, path = "/api/public/approve/{token}", tag = "public", params(("token" = String, Path)),
    request_body = ApprovalInput,
    responses((status = 200, body = PublicDone), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn approve(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: HeaderMap,
    ApiPath(token): ApiPath<String>,
    ApiJson(body): ApiJson<ApprovalInput>,
) -> ApiResult<ApiJson<PublicDone>> {
    let origin = origin(&client, &headers);
    Ok(ApiJson(
        with_link(&state, &client, move |store| {
            store.approve_by_link(&token, &body, &origin)
        })
        .await?,
    ))
}

/// "I have questions": a message for the care coordinator.
#[utoipa::path(post, path = "/api/public/approve/{token}/questions", tag = "public", params(("token" = String, Path)),
    request_body = QuestionInput,
    responses((status = 200, body = PublicDone), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn question(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiPath(token): ApiPath<String>,
    ApiJson(body): ApiJson<QuestionInput>,
) -> ApiResult<ApiJson<PublicDone>> {
    Ok(ApiJson(
        with_link(&state, &client, move |store| {
            store.question_by_link(&token, &body)
        })
        .await?,
    ))
}

/// The contract to sign, with its document hash and the e-sign consent.
#[utoipa::path(get, path = "/api/public/sign/{token}", tag = "public", params(("token" = String, Path)),
    responses((status = 200, body = ContractForSigning), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn contract(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<ApiJson<ContractForSigning>> {
    Ok(ApiJson(
        with_link(&state, &client, move |store| {
            store.open_contract_link(&token)
        })
        .await?,
    ))
}

/// The contract to sign as a PDF.
#[utoipa::path(get, path = "/api/public/sign/{token}/pdf", tag = "public", params(("token" = String, Path)),
    responses((status = 200, description = "PDF file", content_type = "application/pdf"),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn contract_pdf(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<Response> {
    let pdf = with_link(&state, &client, move |store| {
        let mut pdf = Vec::new();
        store.contract_link_pdf(&token, &mut pdf)?;
        Ok(pdf)
    })
    .await?;
    Ok(pdf_response(
        pdf,
        "home-care-service-agreement.pdf",
        "inline",
    ))
}

/// Signs the contract. The signed PDF is emailed to the family and the coordinator.
#[utoipa::path(post, path = "/api/public/sign/{token}", tag = "public", params(("token" = String, Path)),
    request_body = SignatureInput,
    responses((status = 200, body = PublicDone), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn sign(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: HeaderMap,
    ApiPath(token): ApiPath<String>,
    ApiJson(body): ApiJson<SignatureInput>,
) -> ApiResult<ApiJson<PublicDone>> {
    let origin = origin(&client, &headers);
    let signed = with_link(&state, &client, move |store| {
        store.sign_by_link(&token, &body, &origin)
    })
    .await?;
    // The signature stands whatever happens to the email; a failed send is kept as
    // failed in the client's timeline, where staff can send it again.
    if let Err(error) = send_signed_confirmation(&state, &signed).await {
        tracing::warn!(
            code = error.code,
            "the signed contract's confirmation was not sent"
        );
    }
    Ok(ApiJson(carepath_core::model::PublicDone {
        message: carepath_core::rules::signing::SIGNED_THANKS.to_owned(),
        at: signed.evidence.signed_at,
    }))
}

/// A used approval link, within its lifetime: when the family approved.
#[utoipa::path(get, path = "/api/public/approve/{token}/outcome", tag = "public", params(("token" = String, Path)),
    responses((status = 200, body = LinkOutcome), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn approval_outcome(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<ApiJson<LinkOutcome>> {
    Ok(ApiJson(
        with_link(&state, &client, move |store| {
            store.link_outcome(&token, LinkPurpose::ProposalApproval)
        })
        .await?,
    ))
}

/// A used signing link, within its lifetime: when the agreement was signed.
#[utoipa::path(get, path = "/api/public/sign/{token}/outcome", tag = "public", params(("token" = String, Path)),
    responses((status = 200, body = LinkOutcome), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn signing_outcome(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<ApiJson<LinkOutcome>> {
    Ok(ApiJson(
        with_link(&state, &client, move |store| {
            store.link_outcome(&token, LinkPurpose::ContractSigning)
        })
        .await?,
    ))
}

/// The signed agreement, through the signing link that signed it.
#[utoipa::path(get, path = "/api/public/sign/{token}/signed.pdf", tag = "public", params(("token" = String, Path)),
    responses((status = 200, description = "PDF file", content_type = "application/pdf"),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn signed_pdf(
    State(state): State<AppState>,
    client: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<Response> {
    let pdf = with_link(&state, &client, move |store| store.link_signed_pdf(&token)).await?;
    Ok(pdf_response(
        pdf,
        "signed-home-care-service-agreement.pdf",
        "attachment",
    ))
}
