//! Making the family's links, always together with the email that carries them: the
//! first proposal or contract email, Resend, and the retry of a failed send (a new link,
//! since a token is never kept).

use std::ops::Range;

use rusqlite::params;

use super::{NewSigningLink, intake_str};
use crate::error::{Error, Result, ValidationErrors};
use crate::model::{
    Actor, ContractId, ContractStatus, LinkDocument, LinkPurpose, Parents, SigningLinkInfo,
};
use crate::rules::signing::{
    LINK_PARAGRAPH_END, LINK_PLACEHOLDER, RESEND_NEEDS_SENT_CONTRACT, SIGNING_NEEDS_OPEN_CONTRACT,
    contract_document_sha256, link_expiry, link_paragraph, link_token_hash, new_link_token,
    proposal_document_sha256,
};
use crate::rules::validation::{FILL_IN_ALL_FIELDS, validate_care_plan_email};
use crate::store::{
    self, DocumentEmailRequest, EmailedDocument, PreparedDocumentEmail, Store, audit, ts,
};

/// Where the link paragraph of a recorded link email stands (above the sign-off): from
/// its action line to its closing sentence. None for an email without a link.
fn link_paragraph_span(content: &str) -> Option<Range<usize>> {
    let at = content.rfind(LINK_PLACEHOLDER)?;
    let start = content[..at].rfind("\n\n").map_or(0, |end| end + 2);
    let end = content[at..]
        .find(LINK_PARAGRAPH_END)
        .map_or(content.len(), |found| at + found + LINK_PARAGRAPH_END.len());
    Some(start..end)
}

impl Store {
    /// The shared document email (proposal or contract, PDF attached) with the family's
    /// personal link: the link and the recorded email are made together, all or nothing.
    /// The recorded body ends with the link paragraph showing [`LINK_PLACEHOLDER`]; the
    /// caller puts the token's address in its place in the email it sends, and nowhere
    /// else.
    pub fn prepare_document_email_with_link(
        &mut self,
        actor: &Actor,
        document: EmailedDocument,
        request: DocumentEmailRequest,
    ) -> Result<(NewSigningLink, PreparedDocumentEmail)> {
        self.batch(|store| {
            let (link_document, recipient) = match &document {
                EmailedDocument::CarePlan(id) => {
                    let to = request.to.clone().unwrap_or_default();
                    // Checked before the link paragraph makes the body non-empty.
                    validate_care_plan_email(&to, &request.body)?;
                    (LinkDocument::CarePlan(id.clone()), to)
                }
                EmailedDocument::Contract(id) => (
                    LinkDocument::Contract(id.clone()),
                    store.get_contract(id)?.family_contact_email,
                ),
            };
            if request.body.trim().is_empty() {
                return Err(Error::Validation(ValidationErrors::single(
                    "body",
                    FILL_IN_ALL_FIELDS,
                )));
            }
            let made = store.create_signing_link(actor, &link_document, &recipient)?;
            // The link goes above the sign-off, so the email ends with who wrote it.
            let body = crate::outbound::with_paragraph_before_sign_off(
                &request.body,
                &link_paragraph(
                    made.link.purpose,
                    LINK_PLACEHOLDER,
                    &store.link_expiry_text(&made.link.expires_at)?,
                ),
            );
            let prepared = store.prepare_document_email(
                actor,
                document,
                DocumentEmailRequest { body, ..request },
            )?;
            Ok((made, prepared))
        })
    }

    /// Resend: a new signing link for a contract still waiting for its signature (the
    /// old one is revoked), recorded as an email to the family with the contract's PDF;
    /// the contract stays sent. As with the first email, the recorded body shows
    /// [`LINK_PLACEHOLDER`] where the caller puts the link.
    pub fn prepare_signing_link_resend(
        &mut self,
        actor: &Actor,
        contract_id: &ContractId,
    ) -> Result<(
        NewSigningLink,
        crate::model::Communication,
        crate::outbound::EmailAttachment,
    )> {
        let contract = self.get_contract(contract_id)?;
        if contract.deleted_at.is_some() {
            return Err(Error::not_found("contract", contract_id));
        }
        if contract.status != ContractStatus::Sent {
            return Err(Error::Rejected(RESEND_NEEDS_SENT_CONTRACT.to_owned()));
        }
        let document = EmailedDocument::Contract(contract_id.clone());
        let mut facts = self.draft_facts(Some(&contract.care_plan_proposal_id), None, "")?;
        facts.client_name = contract.client_name.clone();
        self.batch(|store| {
            let made = store.create_signing_link(
                actor,
                &LinkDocument::Contract(contract_id.clone()),
                &contract.family_contact_email,
            )?;
            let attachment = store.document_attachment(&document)?;
            let input = crate::model::EmailInput {
                parents: Parents {
                    intake_id: contract.intake_id.clone(),
                    assessment_id: None,
                    care_plan_id: Some(contract.care_plan_proposal_id.clone()),
                    contract_id: Some(contract_id.clone()),
                },
                to: contract.family_contact_email.clone(),
                subject: crate::outbound::CONTRACT_SUBJECT.to_owned(),
                body: crate::outbound::resend_email(
                    &facts,
                    &link_paragraph(
                        made.link.purpose,
                        LINK_PLACEHOLDER,
                        &store.link_expiry_text(&made.link.expires_at)?,
                    ),
                ),
                attachments: vec![crate::model::AttachmentInfo {
                    name: attachment.file_name.clone(),
                    size: attachment.bytes.len() as u64,
                }],
            };
            let communication = store.record_email(actor, &input)?;
            Ok((made, communication, attachment))
        })
    }

    /// Retry of a failed email that carried a family's personal link (a proposal or
    /// contract email, or a resend): its token was never delivered and is not kept, so a
    /// fresh link is made (revoking the one made for the failed send, as every send
    /// does), and the recorded body's link paragraph gets the new link's expiry. Answers
    /// the link, the email as recorded now, and the document's PDF to attach; None for an
    /// email without a link.
    pub fn renew_link_for_retry(
        &mut self,
        actor: &Actor,
        communication: &crate::model::Communication,
    ) -> Result<
        Option<(
            NewSigningLink,
            crate::model::Communication,
            crate::outbound::EmailAttachment,
        )>,
    > {
        let content = &communication.content;
        let Some(span) = link_paragraph_span(content) else {
            return Ok(None);
        };
        let (link_document, document) = match (
            &communication.parents.contract_id,
            &communication.parents.care_plan_id,
        ) {
            (Some(id), _) => (
                LinkDocument::Contract(id.clone()),
                EmailedDocument::Contract(id.clone()),
            ),
            (None, Some(id)) => (
                LinkDocument::CarePlan(id.clone()),
                EmailedDocument::CarePlan(id.clone()),
            ),
            (None, None) => return Ok(None),
        };
        let recipient = communication.recipient_email.clone().unwrap_or_default();
        let (before, after) = (&content[..span.start], &content[span.end..]);
        self.batch(|store| {
            let made = store.create_signing_link(actor, &link_document, &recipient)?;
            let paragraph = link_paragraph(
                made.link.purpose,
                LINK_PLACEHOLDER,
                &store.link_expiry_text(&made.link.expires_at)?,
            );
            let body = format!("{before}{paragraph}{after}");
            let now = store.now();
            store.write(|tx| {
                store::exec(
                    tx,
                    "UPDATE communications SET content = ?2, updated_at = ?3, version = version + 1
                      WHERE id = ?1",
                    params![communication.id, body, ts(now)],
                )?;
                audit(
                    tx,
                    actor,
                    now,
                    "update",
                    "communication",
                    communication.id.as_str(),
                    communication
                        .parents
                        .intake_id
                        .as_ref()
                        .map(|id| id.as_str()),
                    &["content"],
                )
            })?;
            let attachment = store.document_attachment(&document)?;
            let communication = store.get_communication(&communication.id)?;
            Ok(Some((made, communication, attachment)))
        })
    }

    /// Makes the personal link for a document about to be emailed to `recipient`, and
    /// revokes every earlier link of the same document and purpose that is still open
    /// (Resend). The token is returned once; only its hash is kept.
    pub fn create_signing_link(
        &mut self,
        actor: &Actor,
        document: &LinkDocument,
        recipient: &str,
    ) -> Result<NewSigningLink> {
        let clock = self.clock()?;
        let days = self.settings()?.workflow.signing_link_days;
        let (purpose, care_plan_id, contract_id, intake_id, sha) = match document {
            LinkDocument::CarePlan(id) => {
                let plan = self.get_care_plan(id)?;
                if plan.deleted_at.is_some() {
                    return Err(Error::not_found("care plan", id));
                }
                let sha = proposal_document_sha256(&plan);
                (
                    LinkPurpose::ProposalApproval,
                    Some(id.clone()),
                    None,
                    plan.intake_id,
                    sha,
                )
            }
            LinkDocument::Contract(id) => {
                let contract = self.get_contract(id)?;
                if contract.deleted_at.is_some() {
                    return Err(Error::not_found("contract", id));
                }
                if !matches!(
                    contract.status,
                    ContractStatus::Draft | ContractStatus::Sent
                ) {
                    return Err(Error::Rejected(SIGNING_NEEDS_OPEN_CONTRACT.to_owned()));
                }
                let sha = contract_document_sha256(&contract);
                (
                    LinkPurpose::ContractSigning,
                    None,
                    Some(id.clone()),
                    contract.intake_id,
                    sha,
                )
            }
        };
        let token = new_link_token();
        let id = uuid::Uuid::now_v7().to_string();
        let now = ts(clock.now());
        let expires = ts(link_expiry(clock.now(), days));
        let recipient = recipient.trim().to_owned();
        self.write(|tx| {
            let revoked = store::exec(
                tx,
                "UPDATE signing_links SET revoked_at = ?1, version = version + 1
                 WHERE purpose = ?2 AND (care_plan_id IS ?3 AND contract_id IS ?4)
                   AND used_at IS NULL AND revoked_at IS NULL",
                params![now, purpose.as_str(), care_plan_id, contract_id],
            )?;
            store::exec(
                tx,
                "INSERT INTO signing_links (id, token_hash, purpose, care_plan_id, contract_id,
                    intake_id, document_sha256, recipient_email, created_by, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    id,
                    link_token_hash(&token),
                    purpose.as_str(),
                    care_plan_id,
                    contract_id,
                    intake_id,
                    sha,
                    recipient,
                    actor.user_id,
                    now,
                    expires,
                ],
            )?;
            let fields: &[&str] = if revoked > 0 {
                &["created", "revoked_earlier"]
            } else {
                &["created"]
            };
            audit(
                tx,
                actor,
                clock.now(),
                "create",
                "signing_link",
                &id,
                intake_str(&intake_id),
                fields,
            )
        })?;
        let link = SigningLinkInfo {
            id,
            purpose,
            state: crate::model::LinkState::Sent,
            recipient_email: recipient,
            sent_at: now,
            expires_at: expires,
            opened_at: None,
            used_at: None,
            revoked_at: None,
        };
        Ok(NewSigningLink { token, link })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_paragraph_is_found_whole_above_the_sign_off() {
        let paragraph = link_paragraph(
            LinkPurpose::ContractSigning,
            LINK_PLACEHOLDER,
            "December 10, 2026",
        );
        let body =
            format!("Dear Grace,\n\nPlease sign.\n\n{paragraph}\n\nWarm regards,\nSam Staff");
        let span = link_paragraph_span(&body).unwrap();
        assert_eq!(&body[span.clone()], paragraph);
        let renewed = format!("{}NEW{}", &body[..span.start], &body[span.end..]);
        assert_eq!(
            renewed,
            "Dear Grace,\n\nPlease sign.\n\nNEW\n\nWarm regards,\nSam Staff"
        );
    }

    #[test]
    fn a_link_paragraph_first_or_cut_short_is_still_found_and_none_without_a_link() {
        let paragraph = link_paragraph(
            LinkPurpose::ProposalApproval,
            LINK_PLACEHOLDER,
            "May 1, 2027",
        );
        assert_eq!(link_paragraph_span(&paragraph), Some(0..paragraph.len()));
        // Without its closing sentence (edited away) the paragraph runs to the end.
        let cut = format!("Hello\n\nApprove:\n{LINK_PLACEHOLDER}\n\nThanks");
        assert_eq!(link_paragraph_span(&cut), Some(7..cut.len()));
        assert_eq!(link_paragraph_span("Hello\n\nNo link here."), None);
    }
}
