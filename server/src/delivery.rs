//! Sending what staff and families receive, as one use case each: record the
//! communication, send it through the outbound adapters, then mark it sent or failed in
//! core. Handlers (communications, care plans, contracts, signing, the family's pages,
//! replies) call these; none of them sends on its own.

use carepath_core::model::{Actor, Communication, ContractId, EmailInput, Parents};
use carepath_core::outbound::{
    EmailAttachment, SendFailure, SentEmail, SmsMessage, agency_signature, compose_email,
    link_email_with_copy,
};
use carepath_core::rules::signing::{
    LINK_PLACEHOLDER, SIGNED_SUBJECT, link_path, signed_email_body,
};
use carepath_core::store::{
    DocumentEmailRequest, EmailedDocument, NewSigningLink, SentDocument, SignedContract,
};

use crate::AppState;
use crate::error::ApiResult;

/// The family's link as it is emailed: the public address and the link's path.
fn link_url(state: &AppState, made: &NewSigningLink) -> String {
    format!(
        "{}{}",
        state.config.public_url.base,
        link_path(made.link.purpose, &made.token)
    )
}

/// The signed contract's file name, in the email and on download.
pub fn signed_pdf_name(id: &ContractId) -> String {
    format!("signed-contract-{id}.pdf")
}

/// Composes a recorded email with the Settings' sender, reply-to and copies, adds the
/// attachments and hands it to the transport.
async fn transmit(
    state: &AppState,
    communication: &Communication,
    attachments: Vec<EmailAttachment>,
) -> ApiResult<Result<SentEmail, SendFailure>> {
    let settings = state.db.call(|store| store.settings()).await?;
    let mut message = compose_email(
        &settings.email,
        &state.outbound.mail_from,
        communication.recipient_email.as_deref().unwrap_or_default(),
        communication.subject.as_deref().unwrap_or_default(),
        &communication.content,
    );
    message.attachments = attachments;
    Ok(state.outbound.email.send(&message).await)
}

/// Sends a recorded (pending) email and marks it sent with the transport's `email_id`,
/// or failed with the reason. A document email (proposal, contract) goes through
/// [`send_document`]'s second half instead, so a retry attaches its PDF again and moves
/// the document.
pub async fn deliver_email(
    state: &AppState,
    actor: Actor,
    communication: Communication,
) -> ApiResult<Communication> {
    // An email that carried a family's link goes out with a fresh one: the first
    // link's token was never delivered and is not kept.
    let (renewer, failed) = (actor.clone(), communication.clone());
    let renewed = state
        .db
        .call(move |store| store.renew_link_for_retry(&renewer, &failed))
        .await?;
    if let Some((made, communication, attachment)) = renewed {
        let outcome = send_link_email(state, &made, &communication, attachment).await?;
        let document = state
            .db
            .call({
                let communication = communication.clone();
                move |store| Ok(store.emailed_document(&communication))
            })
            .await?;
        let id = communication.id.clone();
        return state
            .db
            .call(move |store| match document {
                // A proposal or contract email moves its document, as the first send does.
                Some(document) => store
                    .finish_document_email(&actor, &document, &communication, outcome)
                    .map(|(communication, _)| communication),
                None => store.finish_email_send(&id, outcome),
            })
            .await;
    }
    // A calendar invitation goes again with its calendar, unless the visit moved on.
    let (lookup, from) = (communication.clone(), state.outbound.mail_from.clone());
    let invitation = state
        .db
        .call(move |store| store.invitation_to_resend(&lookup, &from))
        .await?;
    if let Some(invitation) = invitation {
        let outcome = match invitation {
            Ok(email) => state.outbound.email.send(&email).await,
            Err(reason) => Err(SendFailure::new(reason)),
        };
        let id = communication.id;
        return state
            .db
            .call(move |store| store.finish_email_send(&id, outcome))
            .await;
    }
    let lookup = communication.clone();
    let document = state
        .db
        .call(move |store| {
            Ok(match store.emailed_document(&lookup) {
                Some(document) => {
                    let attachment = store.document_attachment(&document)?;
                    Some((document, attachment))
                }
                None => None,
            })
        })
        .await?;
    if let Some((document, attachment)) = document {
        let outcome = transmit(state, &communication, vec![attachment]).await?;
        let (communication, _) = state
            .db
            .call(move |store| {
                store.finish_document_email(&actor, &document, &communication, outcome)
            })
            .await?;
        return Ok(communication);
    }
    let outcome = transmit(state, &communication, Vec::new()).await?;
    let id = communication.id;
    state
        .db
        .call(move |store| store.finish_email_send(&id, outcome))
        .await
}

/// Sends a recorded (pending) text message; marks it sent with `messageSid`, or failed.
pub async fn deliver_sms(
    state: &AppState,
    communication: Communication,
) -> ApiResult<Communication> {
    let settings = state.db.call(|store| store.settings()).await?;
    let message = SmsMessage {
        from: state.outbound.sms_sender(&settings.sms),
        to: communication.recipient_phone.clone().unwrap_or_default(),
        body: communication.content.clone(),
    };
    let outcome = state.outbound.sms.send(&message).await;
    let id = communication.id;
    state
        .db
        .call(move |store| store.finish_sms_send(&id, outcome))
        .await
}

/// Settings → Notifications: tells the client's assigned coordinator about a
/// communication someone else logged (or a family's reply): the email, the text message
/// when the client is overdue, and the reply alerts. A notice that cannot be sent is
/// logged; it never fails the request that logged the communication.
pub async fn notify_coordinator(state: &AppState, communication: &Communication) {
    let logged = communication.clone();
    let base_url = state.config.public_url.base.clone();
    let found = state
        .db
        .call(move |store| {
            let mut notices = store.reply_alerts(&logged, &base_url)?;
            notices.extend(store.communication_notice(&logged, &base_url)?);
            let text = store.urgent_text(&logged, &base_url)?;
            Ok((notices, text, store.settings()?))
        })
        .await;
    let (notices, text, settings) = match found {
        Ok(found) => found,
        Err(error) => {
            tracing::warn!(error = ?error, "the coordinator notice was not sent");
            return;
        }
    };
    for notice in notices {
        if let Err(failure) = state
            .outbound
            .send_staff_notice(&settings.email, notice)
            .await
        {
            tracing::warn!(reason = %failure.reason, "the coordinator notice was not sent");
        }
    }
    if let Some(text) = text
        && let Err(failure) = state.outbound.send_staff_text(&settings.sms, text).await
    {
        tracing::warn!(reason = %failure.reason, "the urgent text to the coordinator was not sent");
    }
}

/// Records an email pending, then sends it.
pub async fn record_and_send_email(
    state: &AppState,
    actor: Actor,
    input: EmailInput,
) -> ApiResult<Communication> {
    let recorder = actor.clone();
    let recorded = state
        .db
        .call(move |store| store.record_email(&recorder, &input))
        .await?;
    deliver_email(state, actor, recorded).await
}

/// Sends a proposal or contract with its PDF (the shared document email) and the
/// family's personal link: the link is made (an earlier open one is revoked) together
/// with the recorded email, whose kept copy shows [`LINK_PLACEHOLDER`] instead of the
/// link. The email goes to the recipient only, never to the Settings' copy or
/// blind-copy addresses.
pub async fn send_document_with_link(
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
    let outcome = send_link_email(
        state,
        &made,
        &prepared.communication,
        prepared.attachment.clone(),
    )
    .await?;
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

/// Sends a recorded link email: the link to its recipient alone (a private message),
/// then a copy without the link to the Settings' copy and blind-copy addresses. The
/// outcome is the family's message's; a failed copy is logged.
async fn send_link_email(
    state: &AppState,
    made: &NewSigningLink,
    communication: &Communication,
    attachment: EmailAttachment,
) -> ApiResult<Result<SentEmail, SendFailure>> {
    let settings = state.db.call(|store| store.settings()).await?;
    let (mut message, copy) = link_email_with_copy(
        &settings.email,
        &state.outbound.mail_from,
        communication.recipient_email.as_deref().unwrap_or_default(),
        communication.subject.as_deref().unwrap_or_default(),
        &communication.content,
        LINK_PLACEHOLDER,
        &link_url(state, made),
    );
    message.attachments = vec![attachment.clone()];
    let sent = match state.outbound.email.send(&message).await {
        Ok(sent) => sent,
        Err(failure) => return Ok(Err(failure)),
    };
    if let Some(mut copy) = copy {
        copy.attachments = vec![attachment];
        if let Err(failure) = state.outbound.email.send(&copy).await {
            tracing::warn!(reason = %failure.reason, "the copy of a link email was not sent");
        }
    }
    Ok(Ok(sent))
}

/// The confirmation after the family signed: to the family and to the staff member who
/// sent the link, with the signed PDF's details (recorded in the client's timeline).
pub async fn send_signed_confirmation(
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
        .call(move |store| store.finish_email_send(&id, outcome))
        .await
}

/// Resend: a new signing link for the contract (the old one revoked), emailed to the
/// family; the recorded email, sent or failed.
pub async fn resend_signing_link(
    state: &AppState,
    actor: Actor,
    contract: ContractId,
) -> ApiResult<Communication> {
    let (made, recorded, attachment) = state
        .db
        .call(move |store| store.prepare_signing_link_resend(&actor, &contract))
        .await?;
    let outcome = send_link_email(state, &made, &recorded, attachment).await?;
    let id = recorded.id;
    state
        .db
        .call(move |store| store.finish_email_send(&id, outcome))
        .await
}

/// Emails the visit's calendar invitation to the family contact and the assessor, each
/// recorded in the client's timeline as an email (sent, or failed with its reason: the
/// reminders' scheduler and the timeline's Retry send a failed one again); what could
/// not be sent comes back as warnings for staff (the visit itself is saved).
pub async fn send_invitations(
    state: &AppState,
    actor: Actor,
    id: carepath_core::model::VisitId,
) -> Vec<String> {
    let from = state.outbound.mail_from.clone();
    let recorded = match state
        .db
        .call(move |store| store.record_visit_invitations(&actor, &id, &from))
        .await
    {
        Ok(recorded) => recorded,
        Err(error) => {
            tracing::warn!(?error, "visit invitations were not prepared");
            return vec!["The calendar invitations could not be prepared.".to_owned()];
        }
    };
    let mut warnings = Vec::new();
    for (communication, email) in recorded {
        let outcome = state.outbound.email.send(&email).await;
        if let Err(failure) = &outcome {
            tracing::warn!(reason = %failure.reason, "a visit invitation was not sent");
            warnings.push(format!(
                "The calendar invitation to {} was not sent: {}",
                email.to.join(", "),
                failure.reason
            ));
        }
        let marked = state
            .db
            .call(move |store| store.finish_email_send(&communication, outcome))
            .await;
        if let Err(error) = marked {
            tracing::warn!(?error, "a visit invitation's outcome was not recorded");
        }
    }
    warnings
}
