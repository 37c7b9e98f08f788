//! Sending a care plan proposal or a contract by email with its PDF attached (the same
//! renderer as the Print buttons). One operation for both documents, in two halves
//! around the transport, because core does no I/O: [`Store::prepare_document_email`]
//! checks, renders and records the email pending; the caller sends it; then
//! [`Store::finish_document_email`] records how the send ended and, when the email went
//! out, moves the document to sent (with its timeline line) in one transaction.

use serde_json::json;

use super::Store;
use crate::error::{Error, Result};
use crate::model::{
    AttachmentInfo, CarePlan, CarePlanId, CarePlanStatus, Communication, CommunicationType,
    Contract, ContractId, ContractStatus, EmailInput, Parents,
};
use crate::outbound::{
    CONTRACT_SUBJECT, EmailAttachment, PROPOSAL_SUBJECT, SendFailure, SentEmail,
};
use crate::pdf::PrintKind;
use crate::rules::transitions::{check_care_plan_transition, check_contract_transition};
use crate::rules::validation::validate_care_plan_email;

/// The document an email carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmailedDocument {
    CarePlan(CarePlanId),
    Contract(ContractId),
}

impl EmailedDocument {
    fn kind(&self) -> PrintKind {
        match self {
            EmailedDocument::CarePlan(_) => PrintKind::CarePlan,
            EmailedDocument::Contract(_) => PrintKind::Contract,
        }
    }

    fn id(&self) -> &str {
        match self {
            EmailedDocument::CarePlan(id) => id.as_str(),
            EmailedDocument::Contract(id) => id.as_str(),
        }
    }

    /// The email's metadata names its document, so a retry attaches it again.
    fn metadata(&self) -> serde_json::Value {
        json!({ "kind": self.kind().name(), "id": self.id() })
    }

    fn from_metadata(communication: &Communication) -> Option<Self> {
        let document = communication.metadata.get("document")?;
        let id = document.get("id")?.as_str()?.to_owned();
        match document.get("kind")?.as_str()? {
            "care-plan" => Some(EmailedDocument::CarePlan(CarePlanId::from(id))),
            "contract" => Some(EmailedDocument::Contract(ContractId::from(id))),
            _ => None,
        }
    }
}

/// What staff typed in the send dialog. The contract goes to the family contact email
/// stored with it, so `to` is only read for a care plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentEmailRequest {
    pub to: Option<String>,
    /// Empty or absent: the document's default subject.
    pub subject: Option<String>,
    pub body: String,
    /// The version of the document the sender is looking at. A send acts on exactly the
    /// figures on screen: when the stored document moved on since, the send is refused
    /// as a conflict carrying the stored record. `None` only for a resend of a recorded
    /// email, which names no screen.
    pub version: Option<i64>,
}

/// A document email recorded pending, with its PDF, ready for the transport.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedDocumentEmail {
    pub document: EmailedDocument,
    pub communication: Communication,
    pub attachment: EmailAttachment,
}

/// The document after the send.
#[derive(Debug, Clone, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "made once per email sent; boxing would only add an allocation"
)]
pub enum SentDocument {
    // Boxed: both records are large and of different sizes.
    CarePlan(Box<CarePlan>),
    Contract(Box<Contract>),
}

impl SentDocument {
    pub fn into_care_plan(self) -> Option<CarePlan> {
        match self {
            SentDocument::CarePlan(plan) => Some(*plan),
            SentDocument::Contract(_) => None,
        }
    }

    pub fn into_contract(self) -> Option<Contract> {
        match self {
            SentDocument::Contract(contract) => Some(*contract),
            SentDocument::CarePlan(_) => None,
        }
    }
}

impl Store {
    /// The PDF of a document, as an email attachment.
    pub fn document_attachment(&self, document: &EmailedDocument) -> Result<EmailAttachment> {
        let mut bytes = Vec::new();
        self.print(document.kind(), document.id(), &mut bytes)?;
        Ok(EmailAttachment {
            // Short enough to stay one header line (a long name is split in continuations
            // some mail programs show badly).
            file_name: format!("{}.pdf", document.kind().name()),
            content_type: "application/pdf".to_owned(),
            bytes,
        })
    }

    /// Checks the send (recipient, content, the document may become sent), renders the
    /// PDF and records the email pending with the document as its parent.
    pub fn prepare_document_email(
        &mut self,
        actor: &crate::model::Actor,
        document: EmailedDocument,
        request: DocumentEmailRequest,
    ) -> Result<PreparedDocumentEmail> {
        let subject = |default: &str| {
            request
                .subject
                .as_deref()
                .map(str::trim)
                .filter(|subject| !subject.is_empty())
                .unwrap_or(default)
                .to_owned()
        };
        let input = match &document {
            EmailedDocument::CarePlan(id) => {
                let plan = self.get_care_plan(id)?;
                if plan.deleted_at.is_some() {
                    return Err(Error::not_found("care plan", id));
                }
                if request.version.is_some_and(|seen| seen != plan.version) {
                    return Err(Error::conflict("care plan", &plan));
                }
                let to = request.to.clone().unwrap_or_default();
                validate_care_plan_email(&to, &request.body)?;
                check_care_plan_transition(plan.status, CarePlanStatus::Sent)?;
                EmailInput {
                    parents: Parents {
                        intake_id: plan.intake_id,
                        assessment_id: plan.assessment_id,
                        care_plan_id: Some(id.clone()),
                        contract_id: None,
                    },
                    to,
                    subject: subject(PROPOSAL_SUBJECT),
                    body: request.body,
                    attachments: Vec::new(),
                }
            }
            EmailedDocument::Contract(id) => {
                let contract = self.get_contract(id)?;
                if contract.deleted_at.is_some() {
                    return Err(Error::not_found("contract", id));
                }
                if request.version.is_some_and(|seen| seen != contract.version) {
                    return Err(Error::conflict("contract", &contract));
                }
                check_contract_transition(contract.status, ContractStatus::Sent)?;
                EmailInput {
                    parents: Parents {
                        intake_id: contract.intake_id,
                        assessment_id: None,
                        care_plan_id: Some(contract.care_plan_proposal_id),
                        contract_id: Some(id.clone()),
                    },
                    to: contract.family_contact_email,
                    subject: subject(CONTRACT_SUBJECT),
                    body: request.body,
                    attachments: Vec::new(),
                }
            }
        };
        let attachment = self.document_attachment(&document)?;
        let input = EmailInput {
            attachments: vec![AttachmentInfo {
                name: attachment.file_name.clone(),
                size: attachment.bytes.len() as u64,
            }],
            ..input
        };
        let communication =
            self.record_email_with(actor, &input, json!({ "document": document.metadata() }))?;
        Ok(PreparedDocumentEmail {
            document,
            communication,
            attachment,
        })
    }

    /// Records how the send ended: sent (with the transport's `email_id`) and the
    /// document moved to sent, together; or failed with the reason, the document as it
    /// was.
    pub fn finish_document_email(
        &mut self,
        actor: &crate::model::Actor,
        document: &EmailedDocument,
        communication: &Communication,
        outcome: std::result::Result<SentEmail, SendFailure>,
    ) -> Result<(Communication, SentDocument)> {
        let id = communication.id.clone();
        match outcome {
            Ok(sent) => self.batch(|store| {
                let communication =
                    store.mark_communication_sent(&id, json!({ "email_id": sent.id }))?;
                let document = match document {
                    EmailedDocument::CarePlan(id) => {
                        SentDocument::CarePlan(Box::new(store.mark_care_plan_sent(actor, id)?))
                    }
                    EmailedDocument::Contract(id) => {
                        SentDocument::Contract(Box::new(store.mark_contract_sent(actor, id)?))
                    }
                };
                Ok((communication, document))
            }),
            Err(failure) => {
                let communication = self.mark_communication_failed(&id, &failure.reason)?;
                let document = match document {
                    EmailedDocument::CarePlan(id) => {
                        SentDocument::CarePlan(Box::new(self.get_care_plan(id)?))
                    }
                    EmailedDocument::Contract(id) => {
                        SentDocument::Contract(Box::new(self.get_contract(id)?))
                    }
                };
                Ok((communication, document))
            }
        }
    }

    /// The document a recorded email carries, if it is a document email (for a retry).
    pub fn emailed_document(&self, communication: &Communication) -> Option<EmailedDocument> {
        (communication.communication_type == CommunicationType::Email)
            .then(|| EmailedDocument::from_metadata(communication))
            .flatten()
    }
}
