//! Personal links for the family (proposal approval, contract signing), what the public
//! pages show, what the family sends back, and the signature evidence kept.

use serde::{Deserialize, Serialize};

use super::ids::{CarePlanId, ContractId};

/// What a link is for; a link serves exactly one purpose and one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum LinkPurpose {
    ProposalApproval,
    ContractSigning,
}

impl LinkPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkPurpose::ProposalApproval => "proposal_approval",
            LinkPurpose::ContractSigning => "contract_signing",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "proposal_approval" => Some(LinkPurpose::ProposalApproval),
            "contract_signing" => Some(LinkPurpose::ContractSigning),
            _ => None,
        }
    }
}

/// Where a link stands, as staff see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum LinkState {
    /// Emailed, not opened yet.
    Sent,
    /// The family opened the page.
    Opened,
    /// Used: the proposal was approved or the contract signed.
    Used,
    Expired,
    /// Replaced by a newer link (Resend) or withdrawn.
    Revoked,
    /// The document changed after the link was sent.
    Outdated,
}

/// One link as the contract screen shows it. Never the token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SigningLinkInfo {
    pub id: String,
    pub purpose: LinkPurpose,
    pub state: LinkState,
    pub recipient_email: String,
    pub sent_at: String,
    pub expires_at: String,
    pub opened_at: Option<String>,
    pub used_at: Option<String>,
    pub revoked_at: Option<String>,
}

/// How a signature was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SignatureMethod {
    Typed,
    Drawn,
    Approval,
    /// Signed on paper; staff recorded it with Mark as Signed.
    Paper,
}

impl SignatureMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            SignatureMethod::Typed => "typed",
            SignatureMethod::Drawn => "drawn",
            SignatureMethod::Approval => "approval",
            SignatureMethod::Paper => "paper",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "typed" => Some(SignatureMethod::Typed),
            "drawn" => Some(SignatureMethod::Drawn),
            "approval" => Some(SignatureMethod::Approval),
            "paper" => Some(SignatureMethod::Paper),
            _ => None,
        }
    }
}

/// A drawn signature: strokes of points, each coordinate 0..1 of the signing pad
/// (x to the right, y downwards).
pub type Strokes = Vec<Vec<[f64; 2]>>;

/// The evidence kept for a signature or an approval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignatureEvidence {
    pub id: String,
    pub purpose: LinkPurpose,
    pub method: SignatureMethod,
    pub signer_name: String,
    pub relationship: String,
    pub typed_signature: String,
    pub consent_text: String,
    pub ip_address: String,
    pub user_agent: String,
    pub document_sha256: String,
    pub signed_at: String,
    /// When the link was emailed and first opened (none for a paper signature).
    pub link_sent_at: Option<String>,
    pub link_opened_at: Option<String>,
    /// The address the link was emailed to: whoever sent it chose it, so the evidence
    /// shows where the link went (a staff member's own address stands out).
    #[serde(default)]
    pub link_sent_to: Option<String>,
    /// SHA-256 of the signed PDF, when one was made.
    pub signed_pdf_sha256: Option<String>,
}

/// The contract screen's signing panel: the links sent and the signature, if any.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractSigningStatus {
    pub contract_id: ContractId,
    /// The newest link first.
    pub links: Vec<SigningLinkInfo>,
    pub signature: Option<SignatureEvidence>,
    /// A signed PDF can be downloaded.
    pub signed_pdf_available: bool,
}

/// One line of the proposal's schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduleLine {
    pub day: String,
    pub time: String,
    pub hours: f64,
}

/// One service of the proposal, as the letter names and describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProposalService {
    pub label: String,
    pub description: String,
}

/// The proposal letter the approval page shows, and nothing else about the client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProposalLetter {
    pub agency_name: String,
    pub agency_phone: String,
    /// The agency's postal address (may hold several lines).
    #[serde(default)]
    pub agency_address: String,
    /// Where the agency's logo is served, when it has one.
    #[serde(default)]
    pub agency_logo_url: Option<String>,
    pub client_name: String,
    pub family_contact_name: String,
    pub services: Vec<ProposalService>,
    pub schedule: Vec<ScheduleLine>,
    pub total_weekly_hours: f64,
    pub hourly_rate: f64,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
    pub proposed_start_date: Option<String>,
    pub additional_notes: String,
    pub expires_at: String,
}

/// The contract the signing page shows, with the consent the signer gives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractForSigning {
    pub agency_name: String,
    pub agency_phone: String,
    /// The agency's postal address (may hold several lines).
    #[serde(default)]
    pub agency_address: String,
    /// Where the agency's logo is served, when it has one.
    #[serde(default)]
    pub agency_logo_url: Option<String>,
    pub client_name: String,
    pub contract_content: String,
    pub hourly_rate: f64,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
    /// SHA-256 of the document shown; the signature names it back.
    pub document_sha256: String,
    pub consent_text: String,
    pub expires_at: String,
}

/// "Approve this proposal".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApprovalInput {
    /// The name typed by the person approving.
    pub name: String,
}

/// "I have questions".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuestionInput {
    pub name: String,
    pub message: String,
}

/// The signing page's submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignatureInput {
    pub signer_name: String,
    pub relationship: String,
    /// The e-sign consent box was ticked.
    pub consent: bool,
    /// `typed` or `drawn`.
    pub method: SignatureMethod,
    /// The typed signature (method `typed`).
    #[serde(default)]
    pub typed_signature: String,
    /// The drawn strokes (method `drawn`): each a list of `[x, y]` points, 0..1 of the pad.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Vec<Vec<f64>>>))]
    pub drawn_signature: Strokes,
    /// The SHA-256 the page was given with the document it showed.
    pub document_sha256: String,
}

/// Where a request came from, kept as evidence.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestOrigin {
    pub ip_address: String,
    pub user_agent: String,
}

/// Mark as Signed for a paper signature: when and who.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PaperSignatureInput {
    /// The date on the paper (YYYY-MM-DD).
    pub signed_on: String,
    pub signer_name: String,
    #[serde(default)]
    pub relationship: String,
}

/// What `contract verify` found for a PDF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PdfVerification {
    /// The file is byte for byte the signed PDF Carepath made.
    pub matches: bool,
    pub sha256: String,
    pub message: String,
    pub contract_id: Option<ContractId>,
    pub client_name: Option<String>,
    pub signer_name: Option<String>,
    pub signed_at: Option<String>,
}

/// The approval page's answer after "Approve".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PublicDone {
    pub message: String,
    pub at: String,
}

/// What a family sees when it opens a link it already used: what it did and when, and
/// whether the signed agreement can be downloaded from the same link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LinkOutcome {
    pub agency_name: String,
    pub agency_phone: String,
    pub agency_address: String,
    /// The logo's public address, when the agency has one.
    pub agency_logo_url: Option<String>,
    pub client_name: String,
    /// "You approved this proposal on March 3, 2026." or the signing's equivalent.
    pub message: String,
    pub signed_pdf_available: bool,
}

/// Which document a link belongs to (internal; never sent to the family).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkDocument {
    CarePlan(CarePlanId),
    Contract(ContractId),
}
