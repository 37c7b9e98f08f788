//! The family's personal links: made when a proposal or contract is emailed (an earlier
//! open link for the same document is revoked), opened, and used once to approve the
//! proposal or sign the contract. Every bad link gets the same refusal and changes
//! nothing. Signing stores the evidence and the signed PDF with its SHA-256.

use rusqlite::{Connection, OptionalExtension, params};

use super::communications::log_description;
use super::{
    DocumentEmailRequest, EmailedDocument, PreparedDocumentEmail, Store, audit, position, ts,
};
use crate::error::{Error, Result, ValidationErrors};
use crate::model::{
    Actor, ApprovalInput, CarePlan, CarePlanId, CarePlanService, CarePlanStatus, Channel, Contract,
    ContractForSigning, ContractId, ContractSigningStatus, ContractStatus, IntakeId, LinkDocument,
    LinkOutcome, LinkPurpose, PaperSignatureInput, Parents, PdfVerification, ProposalLetter,
    ProposalService, PublicDone, QuestionInput, RequestOrigin, ScheduleLine, SignatureEvidence,
    SignatureInput, SignatureMethod, SigningLinkInfo, Strokes, UserId,
};
use crate::pdf::{render, signed_contract_document};
use crate::rules::clock::format_timestamp;
use crate::rules::contract_text::format_long_date;
use crate::rules::signing::{
    APPROVED_THANKS, ESIGN_CONSENT, LINK_PARAGRAPH_END, LINK_PLACEHOLDER, LinkFacts,
    MAX_QUESTIONS_PER_HOUR, QUESTION_THANKS, TOO_MANY_QUESTIONS, contract_document_sha256,
    link_expiry, link_paragraph, link_state, link_token_hash, link_usable, new_link_token,
    printable_user_agent, proposal_document_sha256, sha256_hex, token_well_formed,
    validate_approval, validate_paper_signature, validate_question, validate_signature,
};
use crate::rules::validation::{FILL_IN_ALL_FIELDS, validate_care_plan_email};

/// A link just made: the token goes into the email, and nowhere else.
#[derive(Debug, Clone)]
pub struct NewSigningLink {
    pub token: String,
    pub link: SigningLinkInfo,
}

/// A contract just signed through its link, with what the confirmation email needs.
#[derive(Debug, Clone)]
pub struct SignedContract {
    pub contract: Contract,
    pub evidence: SignatureEvidence,
    pub signed_pdf: Vec<u8>,
    /// The address the link was emailed to.
    pub family_email: String,
    /// The email of the staff member who sent the link, when known.
    pub coordinator_email: Option<String>,
}

/// A link row as stored.
struct StoredLink {
    id: String,
    purpose: LinkPurpose,
    care_plan_id: Option<CarePlanId>,
    contract_id: Option<ContractId>,
    intake_id: Option<IntakeId>,
    document_sha256: String,
    recipient_email: String,
    created_by: Option<UserId>,
    created_at: String,
    expires_at: String,
    opened_at: Option<String>,
    used_at: Option<String>,
    revoked_at: Option<String>,
}

const LINK_COLUMNS: &str = "id, purpose, care_plan_id, contract_id, intake_id, document_sha256, \
    recipient_email, created_by, created_at, expires_at, opened_at, used_at, revoked_at";

fn link_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredLink> {
    let purpose: String = row.get(1)?;
    Ok(StoredLink {
        id: row.get(0)?,
        purpose: LinkPurpose::parse(&purpose).unwrap_or(LinkPurpose::ContractSigning),
        care_plan_id: row.get(2)?,
        contract_id: row.get(3)?,
        intake_id: row.get(4)?,
        document_sha256: row.get(5)?,
        recipient_email: row.get(6)?,
        created_by: row.get(7)?,
        created_at: row.get(8)?,
        expires_at: row.get(9)?,
        opened_at: row.get(10)?,
        used_at: row.get(11)?,
        revoked_at: row.get(12)?,
    })
}

impl StoredLink {
    fn info(&self, current_document_sha256: Option<&str>, now: &str) -> SigningLinkInfo {
        SigningLinkInfo {
            id: self.id.clone(),
            purpose: self.purpose,
            state: link_state(&self.facts(current_document_sha256), now),
            recipient_email: self.recipient_email.clone(),
            sent_at: self.created_at.clone(),
            expires_at: self.expires_at.clone(),
            opened_at: self.opened_at.clone(),
            used_at: self.used_at.clone(),
            revoked_at: self.revoked_at.clone(),
        }
    }

    fn facts<'a>(&'a self, current: Option<&'a str>) -> LinkFacts<'a> {
        LinkFacts {
            expires_at: &self.expires_at,
            opened_at: self.opened_at.as_deref(),
            used_at: self.used_at.as_deref(),
            revoked_at: self.revoked_at.as_deref(),
            sent_document_sha256: &self.document_sha256,
            current_document_sha256: current,
        }
    }

    fn parents(&self) -> Parents {
        Parents {
            intake_id: self.intake_id.clone(),
            assessment_id: None,
            care_plan_id: self.care_plan_id.clone(),
            contract_id: self.contract_id.clone(),
        }
    }
}

/// The family acts without a staff account; the audit log says it came through a link.
fn family() -> Actor {
    Actor {
        user_id: None,
        channel: Channel::Link,
        is_admin: false,
    }
}

fn intake_str(intake_id: &Option<IntakeId>) -> Option<&str> {
    intake_id.as_ref().map(|id| id.as_str())
}

/// The hash of the proposal as it stands, when it still waits for the family's answer.
fn waiting_proposal_sha256(plan: &CarePlan) -> Option<String> {
    (plan.deleted_at.is_none() && plan.status == CarePlanStatus::Sent)
        .then(|| proposal_document_sha256(plan))
}

/// The hash of the contract as it stands, when it still waits for a signature.
fn waiting_contract_sha256(contract: &Contract) -> Option<String> {
    (contract.deleted_at.is_none() && contract.status == ContractStatus::Sent)
        .then(|| contract_document_sha256(contract))
}

fn load_link_by_hash(conn: &Connection, hash: &str) -> Result<Option<StoredLink>> {
    Ok(super::query_row(
        conn,
        &format!("SELECT {LINK_COLUMNS} FROM signing_links WHERE token_hash = ?1"),
        [hash],
        link_from_row,
    )
    .optional()?)
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
            return Err(Error::Rejected(
                "Only a contract sent for signature can get a new link.".to_owned(),
            ));
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
        let Some(at) = content.rfind(LINK_PLACEHOLDER) else {
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
        // The old link paragraph is replaced where it stands (above the sign-off): from
        // its action line to its closing sentence.
        let start = content[..at].rfind("\n\n").map_or(0, |end| end + 2);
        let end = content[at..]
            .find(LINK_PARAGRAPH_END)
            .map_or(content.len(), |found| at + found + LINK_PARAGRAPH_END.len());
        let (before, after) = (&content[..start], &content[end..]);
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
                super::exec(
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
                    return Err(Error::Rejected(
                        "Only a contract waiting for its signature can be sent for signing."
                            .to_owned(),
                    ));
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
            let revoked = super::exec(
                tx,
                "UPDATE signing_links SET revoked_at = ?1, version = version + 1
                 WHERE purpose = ?2 AND (care_plan_id IS ?3 AND contract_id IS ?4)
                   AND used_at IS NULL AND revoked_at IS NULL",
                params![now, purpose.as_str(), care_plan_id, contract_id],
            )?;
            super::exec(
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

    /// The link a token names, if it can be used for `purpose` now, with the hash of
    /// its document as it stands. Anything else is [`Error::LinkUnavailable`].
    ///
    /// Also returns the document's version: the write that uses the link changes the
    /// document only at that version, so a change in between refuses the link too.
    fn usable_link(&self, token: &str, purpose: LinkPurpose) -> Result<(StoredLink, String, i64)> {
        if !token_well_formed(token) {
            return Err(Error::LinkUnavailable);
        }
        let link = load_link_by_hash(self.conn(), &link_token_hash(token))?
            .ok_or(Error::LinkUnavailable)?;
        if link.purpose != purpose {
            return Err(Error::LinkUnavailable);
        }
        let current = self.current_document(&link)?;
        let state = link_state(
            &link.facts(current.as_ref().map(|(sha, _)| sha.as_str())),
            &ts(self.now()),
        );
        match current {
            Some((sha, version)) if link_usable(state) => Ok((link, sha, version)),
            _ => Err(Error::LinkUnavailable),
        }
    }

    /// A link's last day as the family reads it, in the agency's zone.
    fn link_expiry_text(&self, expires_at: &str) -> Result<String> {
        let clock = self.clock()?;
        Ok(crate::rules::clock::parse_timestamp(expires_at)
            .map(|moment| format_long_date(clock.local_date(moment)))
            .unwrap_or_else(|| expires_at.to_owned()))
    }

    /// A link the family already used, within its lifetime: what it did and when. Any
    /// other link (unknown, unused, revoked, expired, another purpose) is
    /// [`Error::LinkUnavailable`], the answer every bad link gets.
    fn used_link(&self, token: &str, purpose: LinkPurpose) -> Result<StoredLink> {
        if !token_well_formed(token) {
            return Err(Error::LinkUnavailable);
        }
        let link = load_link_by_hash(self.conn(), &link_token_hash(token))?
            .ok_or(Error::LinkUnavailable)?;
        let live = link.expires_at > ts(self.now());
        if link.purpose != purpose || link.used_at.is_none() || !live {
            return Err(Error::LinkUnavailable);
        }
        Ok(link)
    }

    /// The page a family gets when it opens a link it already used: "You approved this
    /// proposal on …" or "This agreement was signed on …", with the signed PDF.
    pub fn link_outcome(&self, token: &str, purpose: LinkPurpose) -> Result<LinkOutcome> {
        let link = self.used_link(token, purpose)?;
        let clock = self.clock()?;
        let used_on = link
            .used_at
            .as_deref()
            .and_then(crate::rules::clock::parse_timestamp)
            .map(|moment| format_long_date(clock.local_date(moment)))
            .unwrap_or_default();
        let agency = self.settings()?.general;
        let (client_name, message, signed_pdf_available) = match purpose {
            LinkPurpose::ProposalApproval => {
                let plan_id = link.care_plan_id.as_ref().ok_or(Error::LinkUnavailable)?;
                let plan = self.get_care_plan(plan_id)?;
                let message = format!(
                    "You approved this care plan proposal on {used_on}. Thank you: we will be in touch about the agreement."
                );
                (plan.client_name, message, false)
            }
            LinkPurpose::ContractSigning => {
                let contract_id = link.contract_id.as_ref().ok_or(Error::LinkUnavailable)?;
                let contract = self.get_contract(contract_id)?;
                let available = self.signed_contract_pdf(contract_id)?.is_some();
                let message = format!("This agreement was signed on {used_on}. Thank you.");
                (contract.client_name, message, available)
            }
        };
        Ok(LinkOutcome {
            agency_logo_url: self.logo_info()?.map(|logo| logo.url),
            agency_address: agency.postal_address,
            agency_name: agency.company_name,
            agency_phone: agency.contact_phone,
            client_name,
            message,
            signed_pdf_available,
        })
    }

    /// The signed agreement, for the family through the signing link it used.
    pub fn link_signed_pdf(&self, token: &str) -> Result<Vec<u8>> {
        let link = self.used_link(token, LinkPurpose::ContractSigning)?;
        let contract_id = link.contract_id.ok_or(Error::LinkUnavailable)?;
        self.signed_contract_pdf(&contract_id)?
            .ok_or(Error::LinkUnavailable)
    }

    /// The hash and version of a link's document, when it still waits for the answer.
    fn current_document(&self, link: &StoredLink) -> Result<Option<(String, i64)>> {
        Ok(match (&link.care_plan_id, &link.contract_id) {
            (Some(id), _) if link.purpose == LinkPurpose::ProposalApproval => {
                match self.get_care_plan(id) {
                    Ok(plan) => waiting_proposal_sha256(&plan).map(|sha| (sha, plan.version)),
                    Err(Error::NotFound { .. }) => None,
                    Err(other) => return Err(other),
                }
            }
            (_, Some(id)) => match self.get_contract(id) {
                Ok(contract) => {
                    waiting_contract_sha256(&contract).map(|sha| (sha, contract.version))
                }
                Err(Error::NotFound { .. }) => None,
                Err(other) => return Err(other),
            },
            _ => None,
        })
    }

    /// Notes the first time the family opens a link (its "opened" time).
    fn mark_link_opened(&mut self, link: &StoredLink) -> Result<()> {
        if link.opened_at.is_some() {
            return Ok(());
        }
        let now = self.now();
        self.write(|tx| {
            let changed = super::exec(
                tx,
                "UPDATE signing_links SET opened_at = ?2, version = version + 1
                 WHERE id = ?1 AND opened_at IS NULL",
                params![link.id, ts(now)],
            )?;
            if changed > 0 {
                audit(
                    tx,
                    &family(),
                    now,
                    "open",
                    "signing_link",
                    &link.id,
                    intake_str(&link.intake_id),
                    &["opened_at"],
                )?;
            }
            Ok(())
        })
    }

    /// The approval page: the proposal letter, and nothing else about the client.
    pub fn open_proposal_link(&mut self, token: &str) -> Result<ProposalLetter> {
        let (link, _, _) = self.usable_link(token, LinkPurpose::ProposalApproval)?;
        let plan_id = link.care_plan_id.clone().ok_or(Error::LinkUnavailable)?;
        let plan = self.get_care_plan(&plan_id)?;
        self.mark_link_opened(&link)?;
        let agency = self.settings()?.general;
        Ok(ProposalLetter {
            agency_logo_url: self.logo_info()?.map(|logo| logo.url),
            agency_address: agency.postal_address,
            agency_name: agency.company_name,
            agency_phone: agency.contact_phone,
            client_name: plan.client_name.clone(),
            family_contact_name: plan.family_contact_name.clone(),
            services: plan
                .services
                .iter()
                .map(|service| ProposalService {
                    label: CarePlanService::label(*service).to_owned(),
                    description: CarePlanService::description(*service).to_owned(),
                })
                .collect(),
            schedule: plan
                .schedule
                .days()
                .iter()
                .filter(|(_, day)| day.hours > 0.0)
                .map(|(name, day)| ScheduleLine {
                    day: (*name).to_owned(),
                    time: day.time.trim().to_owned(),
                    hours: day.hours,
                })
                .collect(),
            total_weekly_hours: plan.total_weekly_hours,
            hourly_rate: plan.hourly_rate,
            weekly_cost: plan.weekly_cost,
            monthly_cost: plan.monthly_cost,
            proposed_start_date: plan.proposed_start_date.clone(),
            additional_notes: plan.additional_notes.clone(),
            expires_at: link.expires_at,
        })
    }

    /// "Approve this proposal": the care plan becomes approved, the link is used, the
    /// approval is kept as evidence and written into the client's timeline.
    pub fn approve_by_link(
        &mut self,
        token: &str,
        input: &ApprovalInput,
        origin: &RequestOrigin,
    ) -> Result<PublicDone> {
        // The link is checked before the input, so a bad link always gets the same answer.
        let (link, sha, version) = self.usable_link(token, LinkPurpose::ProposalApproval)?;
        validate_approval(&input.name)?;
        let clock = self.clock()?;
        let now = ts(clock.now());
        let name = input.name.trim().to_owned();
        let plan_id = link.care_plan_id.clone().ok_or(Error::LinkUnavailable)?;
        self.write(|tx| {
            // Both conditions are checked again in the transaction: two submissions of
            // the same link cannot both win, and a proposal changed meanwhile is refused.
            use_link(tx, &link.id, &now)?;
            let changed = super::exec(
                tx,
                "UPDATE care_plan_proposals SET status = 'approved', approved_at = ?3,
                    updated_at = ?3, version = version + 1
                 WHERE id = ?1 AND version = ?2 AND status = 'sent' AND deleted_at IS NULL",
                params![plan_id, version, now],
            )?;
            if changed == 0 {
                return Err(Error::LinkUnavailable);
            }
            record_signature(
                tx,
                &NewSignature {
                    link_id: Some(&link.id),
                    purpose: LinkPurpose::ProposalApproval,
                    care_plan_id: Some(&plan_id),
                    contract_id: None,
                    method: SignatureMethod::Approval,
                    signer_name: &name,
                    relationship: "",
                    typed_signature: &name,
                    strokes: &[],
                    consent_text: "",
                    origin,
                    document_sha256: &sha,
                    signed_at: &now,
                    recorded_by: None,
                    signed_pdf: None,
                },
            )?;
            if let Some(intake_id) = &link.intake_id {
                position::refresh(tx, intake_id, &clock)?;
            }
            let actor = family();
            audit(
                tx,
                &actor,
                clock.now(),
                "use",
                "signing_link",
                &link.id,
                intake_str(&link.intake_id),
                &["used_at"],
            )?;
            audit(
                tx,
                &actor,
                clock.now(),
                "approved",
                "care_plan",
                plan_id.as_str(),
                intake_str(&link.intake_id),
                &["status", "approved_at"],
            )?;
            // In the same transaction: an approval is never recorded without its line in
            // the timeline, nor answered with an error once it is recorded.
            log_description(
                tx,
                &actor,
                clock.now(),
                &link.parents(),
                &format!("Proposal approved by {name} through the emailed approval link."),
            )?;
            Ok(())
        })?;
        Ok(PublicDone {
            message: APPROVED_THANKS.to_owned(),
            at: now,
        })
    }

    /// "I have questions": a message for the coordinator in the client's timeline. The
    /// link stays usable.
    pub fn question_by_link(&mut self, token: &str, input: &QuestionInput) -> Result<PublicDone> {
        let (link, _, _) = self.usable_link(token, LinkPurpose::ProposalApproval)?;
        validate_question(input)?;
        let moment = self.now();
        let now = ts(moment);
        let hour_ago = ts(moment - jiff::SignedDuration::from_hours(1));
        let text = format!(
            "Question about the proposal from {} (through the approval link): {}",
            input.name.trim(),
            input.message.trim()
        );
        // The family's questions are the link's system events; counted per care plan,
        // which has one live approval link at a time. Counted and written in one
        // transaction, so questions sent at once cannot pass the limit together.
        self.write(|tx| {
            let recent: u32 = super::query_row(
                tx,
                "SELECT COUNT(*) FROM communications
                  WHERE care_plan_id = ?1 AND created_at >= ?2
                    AND communication_type = 'system_event' AND sender_user_id IS NULL
                    AND content LIKE 'Question about the proposal from %'",
                params![link.care_plan_id.as_ref().map(|id| id.as_str()), hour_ago],
                |row| row.get(0),
            )?;
            if recent >= MAX_QUESTIONS_PER_HOUR {
                return Err(Error::TooMany {
                    message: TOO_MANY_QUESTIONS,
                    retry_after_secs: 3600,
                });
            }
            log_description(tx, &family(), moment, &link.parents(), &text)?;
            Ok(())
        })?;
        Ok(PublicDone {
            message: QUESTION_THANKS.to_owned(),
            at: now,
        })
    }

    /// The signing page: the contract as it will be signed, its hash and the consent.
    pub fn open_contract_link(&mut self, token: &str) -> Result<ContractForSigning> {
        let (link, sha, _) = self.usable_link(token, LinkPurpose::ContractSigning)?;
        let contract_id = link.contract_id.clone().ok_or(Error::LinkUnavailable)?;
        let contract = self.get_contract(&contract_id)?;
        self.mark_link_opened(&link)?;
        let agency = self.settings()?.general;
        Ok(ContractForSigning {
            agency_logo_url: self.logo_info()?.map(|logo| logo.url),
            agency_address: agency.postal_address,
            agency_name: agency.company_name,
            agency_phone: agency.contact_phone,
            client_name: contract.client_name.clone(),
            contract_content: contract.contract_content.clone(),
            hourly_rate: contract.pricing_details.hourly_rate,
            weekly_cost: contract.pricing_details.weekly_cost,
            monthly_cost: contract.pricing_details.monthly_cost,
            document_sha256: sha,
            consent_text: ESIGN_CONSENT.to_owned(),
            expires_at: link.expires_at,
        })
    }

    /// The contract's PDF for the signing page (the unsigned agreement).
    pub fn contract_link_pdf(&self, token: &str, out: &mut impl std::io::Write) -> Result<()> {
        let (link, _, _) = self.usable_link(token, LinkPurpose::ContractSigning)?;
        let contract_id = link.contract_id.ok_or(Error::LinkUnavailable)?;
        let contract = self.get_contract(&contract_id)?;
        let agency = self.settings()?.general;
        let mut document = crate::pdf::contract_document(&contract, &agency);
        document.logo = self.print_logo()?;
        render(&document, out)
    }

    /// Signs the contract through its link: the contract becomes signed (the client an
    /// active patient), the evidence and the signed PDF are kept, the link is used, and
    /// the signing is written into the client's timeline.
    pub fn sign_by_link(
        &mut self,
        token: &str,
        input: &SignatureInput,
        origin: &RequestOrigin,
    ) -> Result<SignedContract> {
        let (link, sha, version) = self.usable_link(token, LinkPurpose::ContractSigning)?;
        validate_signature(input)?;
        if input.document_sha256.trim() != sha {
            return Err(Error::Rejected(
                "The agreement changed while it was open. Please reload the page and read it again."
                    .to_owned(),
            ));
        }
        let contract_id = link.contract_id.clone().ok_or(Error::LinkUnavailable)?;
        let clock = self.clock()?;
        let now = ts(clock.now());
        let mut contract = self.get_contract(&contract_id)?;
        contract.status = ContractStatus::Signed;
        contract.signed_at = Some(now.clone());
        let typed = match input.method {
            SignatureMethod::Typed => input.typed_signature.trim().to_owned(),
            _ => String::new(),
        };
        let strokes: Strokes = match input.method {
            SignatureMethod::Drawn => input.drawn_signature.clone(),
            _ => Vec::new(),
        };
        let evidence = SignatureEvidence {
            id: uuid::Uuid::now_v7().to_string(),
            purpose: LinkPurpose::ContractSigning,
            method: input.method,
            signer_name: input.signer_name.trim().to_owned(),
            relationship: input.relationship.trim().to_owned(),
            typed_signature: typed,
            consent_text: ESIGN_CONSENT.to_owned(),
            ip_address: origin.ip_address.clone(),
            user_agent: printable_user_agent(&origin.user_agent),
            document_sha256: sha.clone(),
            signed_at: now.clone(),
            link_sent_at: Some(link.created_at.clone()),
            link_opened_at: Some(link.opened_at.clone().unwrap_or_else(|| now.clone())),
            link_sent_to: Some(link.recipient_email.clone()),
            signed_pdf_sha256: None,
        };
        // The PDF is made before the transaction, so the write lock is held only briefly.
        let agency = self.settings()?.general;
        let mut document = signed_contract_document(&contract, &agency, &evidence, &strokes);
        document.logo = self.print_logo()?;
        let mut pdf = Vec::new();
        render(&document, &mut pdf)?;
        let pdf_sha = sha256_hex(&pdf);
        self.write(|tx| {
            use_link(tx, &link.id, &now)?;
            let changed = super::exec(
                tx,
                "UPDATE contracts SET status = 'signed', signed_at = ?3, updated_at = ?3,
                    version = version + 1
                 WHERE id = ?1 AND version = ?2 AND status = 'sent' AND deleted_at IS NULL",
                params![contract_id, version, now],
            )?;
            if changed == 0 {
                return Err(Error::LinkUnavailable);
            }
            if link.opened_at.is_none() {
                super::exec(
                    tx,
                    "UPDATE signing_links SET opened_at = ?2 WHERE id = ?1",
                    params![link.id, now],
                )?;
            }
            record_signature(
                tx,
                &NewSignature {
                    link_id: Some(&link.id),
                    purpose: LinkPurpose::ContractSigning,
                    care_plan_id: None,
                    contract_id: Some(&contract_id),
                    method: input.method,
                    signer_name: &evidence.signer_name,
                    relationship: &evidence.relationship,
                    typed_signature: &evidence.typed_signature,
                    strokes: &strokes,
                    consent_text: &evidence.consent_text,
                    origin,
                    document_sha256: &sha,
                    signed_at: &now,
                    recorded_by: None,
                    signed_pdf: Some((&pdf, &pdf_sha)),
                },
            )?;
            if let Some(intake_id) = &link.intake_id {
                position::refresh(tx, intake_id, &clock)?;
            }
            let actor = family();
            audit(
                tx,
                &actor,
                clock.now(),
                "use",
                "signing_link",
                &link.id,
                intake_str(&link.intake_id),
                &["used_at"],
            )?;
            audit(
                tx,
                &actor,
                clock.now(),
                "signed",
                "contract",
                contract_id.as_str(),
                intake_str(&link.intake_id),
                &["status", "signed_at"],
            )?;
            // In the same transaction, so a family never gets an error for a contract that
            // was signed.
            log_description(
                tx,
                &actor,
                clock.now(),
                &link.parents(),
                &format!(
                    "Contract signed by {} ({}) through the emailed signing link.",
                    evidence.signer_name, evidence.relationship
                ),
            )?;
            Ok(())
        })?;
        let coordinator_email = match &link.created_by {
            Some(user) => self.get_user(user).ok().map(|user| user.email),
            None => None,
        };
        Ok(SignedContract {
            contract: self.get_contract(&contract_id)?,
            evidence: SignatureEvidence {
                signed_pdf_sha256: Some(pdf_sha),
                ..evidence
            },
            signed_pdf: pdf,
            family_email: link.recipient_email,
            coordinator_email,
        })
    }

    /// Mark as Signed for a paper signature: the date on the paper and who signed. Open
    /// links of the contract are revoked.
    pub fn sign_contract_on_paper(
        &mut self,
        actor: &Actor,
        contract_id: &ContractId,
        input: &PaperSignatureInput,
    ) -> Result<Contract> {
        let clock = self.clock()?;
        let date = validate_paper_signature(input, clock.today())?;
        let contract = self.get_contract(contract_id)?;
        if contract.deleted_at.is_some() {
            return Err(Error::not_found("contract", contract_id));
        }
        crate::rules::transitions::check_contract_transition(
            contract.status,
            ContractStatus::Signed,
        )?;
        let signed_at = if date == clock.today() {
            clock.now()
        } else {
            date.at(12, 0, 0, 0)
                .to_zoned(clock.tz().clone())
                .map(|zoned| zoned.timestamp())
                .unwrap_or(clock.now())
        };
        let signed_at = format_timestamp(signed_at);
        let now = ts(clock.now());
        let signer = input.signer_name.trim().to_owned();
        let relationship = input.relationship.trim().to_owned();
        let sha = contract_document_sha256(&contract);
        self.write(|tx| {
            let changed = super::exec(
                tx,
                "UPDATE contracts SET status = 'signed', signed_at = ?2, updated_at = ?3,
                    version = version + 1
                 WHERE id = ?1 AND status = ?4 AND deleted_at IS NULL",
                params![contract_id, signed_at, now, contract.status],
            )?;
            if changed == 0 {
                return Err(Error::conflict("contract", &contract));
            }
            super::exec(
                tx,
                "UPDATE signing_links SET revoked_at = ?2, version = version + 1
                 WHERE contract_id = ?1 AND used_at IS NULL AND revoked_at IS NULL",
                params![contract_id, now],
            )?;
            record_signature(
                tx,
                &NewSignature {
                    link_id: None,
                    purpose: LinkPurpose::ContractSigning,
                    care_plan_id: None,
                    contract_id: Some(contract_id),
                    method: SignatureMethod::Paper,
                    signer_name: &signer,
                    relationship: &relationship,
                    typed_signature: "",
                    strokes: &[],
                    consent_text: "",
                    origin: &RequestOrigin::default(),
                    document_sha256: &sha,
                    signed_at: &signed_at,
                    recorded_by: actor.user_id.as_ref(),
                    signed_pdf: None,
                },
            )?;
            if let Some(intake_id) = &contract.intake_id {
                position::refresh(tx, intake_id, &clock)?;
            }
            audit(
                tx,
                actor,
                clock.now(),
                "signed",
                "contract",
                contract_id.as_str(),
                intake_str(&contract.intake_id),
                &["status", "signed_at"],
            )?;
            let parents = Parents {
                intake_id: contract.intake_id.clone(),
                assessment_id: None,
                care_plan_id: Some(contract.care_plan_proposal_id.clone()),
                contract_id: Some(contract_id.clone()),
            };
            log_description(
                tx,
                actor,
                clock.now(),
                &parents,
                &format!("Contract marked signed on paper: signed by {signer} on {date}."),
            )?;
            Ok(())
        })?;
        self.get_contract(contract_id)
    }

    /// The contract screen's signing panel.
    pub fn contract_signing_status(
        &self,
        contract_id: &ContractId,
    ) -> Result<ContractSigningStatus> {
        let contract = self.get_contract(contract_id)?;
        let current = waiting_contract_sha256(&contract);
        let now = ts(self.now());
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {LINK_COLUMNS} FROM signing_links WHERE contract_id = ?1
             ORDER BY created_at DESC, id DESC LIMIT 50"
        ))?;
        let links = statement
            .query_map([contract_id], link_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        let links = links
            .iter()
            .map(|link| link.info(current.as_deref(), &now))
            .collect();
        let signature = self.contract_signature(contract_id)?;
        Ok(ContractSigningStatus {
            contract_id: contract_id.clone(),
            links,
            signed_pdf_available: signature
                .as_ref()
                .is_some_and(|s| s.signed_pdf_sha256.is_some()),
            signature,
        })
    }

    /// The newest signature of a contract, if any.
    pub fn contract_signature(
        &self,
        contract_id: &ContractId,
    ) -> Result<Option<SignatureEvidence>> {
        Ok(super::query_row(
            self.conn(),
            "SELECT s.id, s.method, s.signer_name, s.relationship, s.typed_signature,
                    s.consent_text, s.ip_address, s.user_agent, s.document_sha256, s.signed_at,
                    l.created_at, l.opened_at, s.signed_pdf_sha256, l.recipient_email
             FROM signatures s LEFT JOIN signing_links l ON l.id = s.link_id
             WHERE s.contract_id = ?1 ORDER BY s.created_at DESC, s.id DESC LIMIT 1",
            [contract_id],
            |row| {
                let method: String = row.get(1)?;
                Ok(SignatureEvidence {
                    id: row.get(0)?,
                    purpose: LinkPurpose::ContractSigning,
                    method: SignatureMethod::parse(&method).unwrap_or(SignatureMethod::Paper),
                    signer_name: row.get(2)?,
                    relationship: row.get(3)?,
                    typed_signature: row.get(4)?,
                    consent_text: row.get(5)?,
                    ip_address: row.get(6)?,
                    user_agent: row.get(7)?,
                    document_sha256: row.get(8)?,
                    signed_at: row.get(9)?,
                    link_sent_at: row.get(10)?,
                    link_opened_at: row.get(11)?,
                    signed_pdf_sha256: row.get(12)?,
                    link_sent_to: row.get(13)?,
                })
            },
        )
        .optional()?)
    }

    /// The signed PDF of a contract signed through its link.
    pub fn signed_contract_pdf(&self, contract_id: &ContractId) -> Result<Option<Vec<u8>>> {
        Ok(super::query_row(
            self.conn(),
            "SELECT signed_pdf FROM signatures WHERE contract_id = ?1 AND signed_pdf IS NOT NULL
             ORDER BY created_at DESC LIMIT 1",
            [contract_id],
            |row| row.get(0),
        )
        .optional()?)
    }

    /// Whether `pdf` is, byte for byte, a signed PDF Carepath made.
    pub fn verify_signed_pdf(&self, pdf: &[u8]) -> Result<PdfVerification> {
        self.verify_signed_pdf_sha256(sha256_hex(pdf))
    }

    /// [`Store::verify_signed_pdf`] for a file's SHA-256 computed by the caller (from a
    /// file read piece by piece, say, with [`crate::rules::signing::sha256_of`]).
    pub fn verify_signed_pdf_sha256(&self, sha: String) -> Result<PdfVerification> {
        let found = super::query_row(
            self.conn(),
            "SELECT s.contract_id, c.client_name, s.signer_name, s.signed_at
             FROM signatures s JOIN contracts c ON c.id = s.contract_id
             WHERE s.signed_pdf_sha256 = ?1",
            [&sha],
            |row| {
                Ok((
                    row.get::<_, ContractId>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            },
        )
        .optional()?;
        Ok(match found {
            Some((contract_id, client, signer, signed_at)) => PdfVerification {
                matches: true,
                message: format!(
                    "This is the signed contract of {client}, signed by {signer} at {signed_at} (UTC). It has not been changed."
                ),
                sha256: sha,
                contract_id: Some(contract_id),
                client_name: Some(client),
                signer_name: Some(signer),
                signed_at: Some(signed_at),
            },
            None => PdfVerification {
                matches: false,
                message: "This file is not a signed contract Carepath made, or it was changed after signing."
                    .to_owned(),
                sha256: sha,
                contract_id: None,
                client_name: None,
                signer_name: None,
                signed_at: None,
            },
        })
    }
}

struct NewSignature<'a> {
    link_id: Option<&'a str>,
    purpose: LinkPurpose,
    care_plan_id: Option<&'a CarePlanId>,
    contract_id: Option<&'a ContractId>,
    method: SignatureMethod,
    signer_name: &'a str,
    relationship: &'a str,
    typed_signature: &'a str,
    strokes: &'a [Vec<[f64; 2]>],
    consent_text: &'a str,
    origin: &'a RequestOrigin,
    document_sha256: &'a str,
    signed_at: &'a str,
    recorded_by: Option<&'a UserId>,
    signed_pdf: Option<(&'a [u8], &'a str)>,
}

fn record_signature(tx: &Connection, signature: &NewSignature<'_>) -> Result<()> {
    super::exec(
        tx,
        "INSERT INTO signatures (id, link_id, purpose, care_plan_id, contract_id, method,
            signer_name, relationship, typed_signature, drawn_signature, consent_text,
            ip_address, user_agent, document_sha256, signed_at, recorded_by, signed_pdf,
            signed_pdf_sha256, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
        params![
            uuid::Uuid::now_v7().to_string(),
            signature.link_id,
            signature.purpose.as_str(),
            signature.care_plan_id,
            signature.contract_id,
            signature.method.as_str(),
            signature.signer_name,
            signature.relationship,
            signature.typed_signature,
            serde_json::to_string(signature.strokes)?,
            signature.consent_text,
            signature.origin.ip_address.chars().take(100).collect::<String>(),
            printable_user_agent(&signature.origin.user_agent),
            signature.document_sha256,
            signature.signed_at,
            signature.recorded_by,
            signature.signed_pdf.map(|(pdf, _)| pdf),
            signature.signed_pdf.map(|(_, sha)| sha),
            signature.signed_at,
        ],
    )?;
    Ok(())
}

/// Spends a link, if it is still open at `now`.
fn use_link(tx: &Connection, link_id: &str, now: &str) -> Result<()> {
    let changed = super::exec(
        tx,
        "UPDATE signing_links SET used_at = ?2, version = version + 1
         WHERE id = ?1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?2",
        params![link_id, now],
    )?;
    if changed == 0 {
        return Err(Error::LinkUnavailable);
    }
    Ok(())
}
