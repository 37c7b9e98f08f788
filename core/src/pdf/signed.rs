//! The signed contract: the contract as it was shown, the signature given on the signing
//! page, and a final certificate page with the evidence (signer, times, address, consent,
//! the SHA-256 of the document shown, the link's send and open times).

use jiff::tz::TimeZone;

use super::{Block, PrintDocument, contract_document};
use crate::model::{Contract, GeneralSettings, SignatureEvidence, SignatureMethod, Strokes};
use crate::rules::clock::AgencyClock;
use crate::rules::format::format_stored_moment;

/// The title of the certificate page.
pub const CERTIFICATE_TITLE: &str = "Signature Certificate";

fn field(label: &str, value: impl Into<String>) -> Block {
    Block::Field(label.to_owned(), value.into())
}

/// The signed contract, ready to render.
pub fn signed_contract_document(
    contract: &Contract,
    agency: &GeneralSettings,
    evidence: &SignatureEvidence,
    strokes: &Strokes,
) -> PrintDocument {
    let tz = AgencyClock::zone_named(&agency.time_zone);
    let mut document = contract_document(contract, agency);
    // The client's signature line is replaced by the signature given; the agency's stays.
    let signature_line = document
        .blocks
        .iter()
        .position(|block| matches!(block, Block::Signature(_)))
        .unwrap_or(document.blocks.len());
    let mut signed = vec![Block::Heading("Signed".to_owned())];
    match evidence.method {
        SignatureMethod::Drawn => signed.push(Block::Drawn(strokes.clone())),
        _ => signed.push(Block::Typed(evidence.typed_signature.clone())),
    }
    signed.push(Block::Text(format!(
        "Signed electronically by {} ({}) on {}. See the signature certificate.",
        evidence.signer_name,
        evidence.relationship,
        format_stored_moment(&evidence.signed_at, &tz)
    )));
    document.blocks.splice(
        signature_line..(signature_line + 1).min(document.blocks.len()),
        signed,
    );
    document.blocks.push(Block::PageBreak);
    document.blocks.extend(certificate(contract, evidence, &tz));
    document.title = format!("Signed Contract - {}", contract.client_name);
    document
}

fn certificate(contract: &Contract, evidence: &SignatureEvidence, tz: &TimeZone) -> Vec<Block> {
    let moment = |text: &str| format_stored_moment(text, tz);
    let method = match evidence.method {
        SignatureMethod::Drawn => "Drawn on screen",
        SignatureMethod::Typed => "Typed",
        SignatureMethod::Approval => "Approval",
        SignatureMethod::Paper => "On paper",
    };
    vec![
        Block::Title(CERTIFICATE_TITLE.to_owned()),
        field("Document", "Home Care Service Agreement"),
        field("Client", &contract.client_name),
        field("Contract ID", contract.id.as_str()),
        field("Signer", &evidence.signer_name),
        field("Relationship to client", &evidence.relationship),
        field("Signature", method),
        field("Signed at", moment(&evidence.signed_at)),
        field(
            "Link sent at",
            moment(evidence.link_sent_at.as_deref().unwrap_or_default()),
        ),
        field(
            "Link opened at",
            moment(evidence.link_opened_at.as_deref().unwrap_or_default()),
        ),
        // In UTC as well, as the evidence is recorded.
        field(
            "Signed at (UTC)",
            format_stored_moment(&evidence.signed_at, &TimeZone::UTC),
        ),
        field(
            "Link sent to",
            evidence.link_sent_to.clone().unwrap_or_default(),
        ),
        field("IP address", &evidence.ip_address),
        field("User agent", &evidence.user_agent),
        Block::Heading("Document SHA-256".to_owned()),
        Block::Text(evidence.document_sha256.clone()),
        Block::Text(
            "The SHA-256 fingerprint of the agreement exactly as it was shown to the signer \
             (client, rate, costs and text)."
                .to_owned(),
        ),
        Block::Heading("Consent to sign electronically".to_owned()),
        Block::Text(evidence.consent_text.clone()),
        Block::Heading("Checking this file".to_owned()),
        Block::Text(
            "The agency keeps the SHA-256 fingerprint of this signed PDF. Carepath's contract \
             screen (Verify a signed PDF) or the command `carepath contract verify FILE.pdf` \
             says whether a file is exactly the one that was signed; a file changed in any way \
             does not match."
                .to_owned(),
        ),
    ]
}
