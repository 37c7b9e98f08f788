//! The staff side of the family's links: the link emails (proposal and contract), the
//! contract screen's signing panel (link states, Resend, paper signature), the signed
//! PDF and checking whether a PDF is the one that was signed.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use carepath_core::model::EmailSettings;
use carepath_core::model::{
    Actor, Communication, Contract, ContractId, ContractSigningStatus, EmailInput,
    PaperSignatureInput, Parents, PdfVerification,
};
use carepath_core::outbound::{
    EmailAttachment, SendFailure, SentEmail, agency_signature, compose_email, link_email_with_copy,
};
use carepath_core::rules::signing::{
    LINK_PLACEHOLDER, SIGNED_SUBJECT, link_path, signed_email_body,
};
use carepath_core::store::{DocumentEmailRequest, EmailedDocument, SentDocument, SignedContract};
use serde_json::json;

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath};
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

/// Sends a proposal or contract with its PDF (the shared document email) and the
/// family's personal link: the link is made (an earlier open one is revoked) together
/// with the recorded email, whose kept copy shows [`LINK_PLACEHOLDER`] instead of the
/// link. The email goes to the recipient only, never to the Settings' copy or
/// blind-copy addresses.
pub(crate) async fn send_document_with_link(
    state: &AppState,
    actor: Actor,
    document: EmailedDocument,
    request: DocumentEmailRequest,
) -> ApiResult<(Communication, SentDocument)> {
    let preparer = actor.clone();
    let (made, prepared) = state
        .db
        .call(move |store| store.prepare_document_email_with_link(&preparer, document, request))
        .await?;
    let url = format!(
        "{}{}",
        state.config.public_url.base,
        link_path(made.link.purpose, &made.token)
    );
    let settings = state.db.call(|store| store.settings()).await?;
    let communication = &prepared.communication;
    let outcome = send_link_email(
        state,
        &settings.email,
        communication.recipient_email.as_deref().unwrap_or_default(),
        communication.subject.as_deref().unwrap_or_default(),
        &communication.content,
        &url,
        prepared.attachment.clone(),
    )
    .await;
    state
        .db
        .call(move |store| {
            store.finish_document_email(
                &actor,
                &prepared.document,
                &prepared.communication,
                outcome,
            )
        })
        .await
}

/// Sends a link email: the link to its recipient alone (a private message), then a copy
/// without the link to the Settings' copy and blind-copy addresses. The outcome is the
/// family's message's; a failed copy is logged.
pub(crate) async fn send_link_email(
    state: &AppState,
    settings: &EmailSettings,
    to: &str,
    subject: &str,
    body: &str,
    url: &str,
    attachment: EmailAttachment,
) -> Result<SentEmail, SendFailure> {
    let (mut message, copy) = link_email_with_copy(
        settings,
        &state.outbound.mail_from,
        to,
        subject,
        body,
        LINK_PLACEHOLDER,
        url,
    );
    message.attachments = vec![attachment.clone()];
    let sent = state.outbound.email.send(&message).await?;
    if let Some(mut copy) = copy {
        copy.attachments = vec![attachment];
        if let Err(failure) = state.outbound.email.send(&copy).await {
            tracing::warn!(reason = %failure.reason, "the copy of a link email was not sent");
        }
    }
    Ok(sent)
}

/// The confirmation after the family signed: to the family and to the staff member who
/// sent the link, with the signed PDF's details (recorded in the client's timeline).
pub(crate) async fn send_signed_confirmation(
    state: &AppState,
    signed: &SignedContract,
) -> ApiResult<Communication> {
    let contract = &signed.contract;
    let (settings, clock) = state
        .db
        .call(|store| Ok((store.settings()?, store.clock()?)))
        .await?;
    let signed_at =
        carepath_core::rules::format::format_stored_moment(&signed.evidence.signed_at, clock.tz());
    // Plain text: the agency signs with its name, address and phone.
    let body = format!(
        "{}\n\n{}",
        signed_email_body(
            &contract.client_name,
            &signed.evidence.signer_name,
            &signed_at,
            &signed.evidence.document_sha256,
        ),
        agency_signature(&settings.general)
    );
    let input = EmailInput {
        parents: Parents {
            intake_id: contract.intake_id.clone(),
            assessment_id: None,
            care_plan_id: Some(contract.care_plan_proposal_id.clone()),
            contract_id: Some(contract.id.clone()),
        },
        to: signed.family_email.clone(),
        subject: SIGNED_SUBJECT.to_owned(),
        body: body.clone(),
        attachments: vec![carepath_core::model::AttachmentInfo {
            name: signed_pdf_name(&contract.id),
            size: signed.signed_pdf.len() as u64,
        }],
    };
    let actor = Actor {
        user_id: None,
        channel: carepath_core::model::Channel::Link,
        is_admin: false,
    };
    let recorded = state
        .db
        .call(move |store| store.record_email(&actor, &input))
        .await?;
    let mut message = compose_email(
        &settings.email,
        &state.outbound.mail_from,
        &signed.family_email,
        SIGNED_SUBJECT,
        &body,
    );
    message.attachments = vec![carepath_core::outbound::EmailAttachment {
        file_name: signed_pdf_name(&contract.id),
        content_type: "application/pdf".to_owned(),
        bytes: signed.signed_pdf.clone(),
    }];
    if let Some(coordinator) = &signed.coordinator_email
        && !message.to.contains(coordinator)
    {
        message.to.push(coordinator.clone());
    }
    let outcome = state.outbound.email.send(&message).await;
    let id = recorded.id;
    state
        .db
        .call(move |store| match outcome {
            Ok(sent) => store.mark_communication_sent(&id, json!({ "email_id": sent.id })),
            Err(failure) => store.mark_communication_failed(&id, &failure.reason),
        })
        .await
}

fn signed_pdf_name(id: &ContractId) -> String {
    format!("signed-contract-{id}.pdf")
}

pub(crate) fn pdf_response(pdf: Vec<u8>, file_name: &str, disposition: &str) -> Response {
    let value = HeaderValue::from_str(&format!("{disposition}; filename=\"{file_name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("inline"));
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (header::CONTENT_DISPOSITION, value),
        ],
        pdf,
    )
        .into_response()
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
    let (actor, contract) = (user.actor(), id.clone());
    let (made, recorded, attachment) = state
        .db
        .call(move |store| store.prepare_signing_link_resend(&actor, &contract))
        .await?;
    let url = format!(
        "{}{}",
        state.config.public_url.base,
        link_path(made.link.purpose, &made.token)
    );
    let settings = state.db.call(|store| store.settings()).await?;
    let outcome = send_link_email(
        &state,
        &settings.email,
        recorded.recipient_email.as_deref().unwrap_or_default(),
        recorded.subject.as_deref().unwrap_or_default(),
        &recorded.content,
        &url,
        attachment,
    )
    .await;
    let sent_id = recorded.id;
    let communication = state
        .db
        .call(move |store| match outcome {
            Ok(sent) => store.mark_communication_sent(&sent_id, json!({ "email_id": sent.id })),
            Err(failure) => store.mark_communication_failed(&sent_id, &failure.reason),
        })
        .await?;
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
