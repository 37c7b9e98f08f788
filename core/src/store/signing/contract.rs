//! The family's signing page: the contract as it will be signed, its PDF, and signing it
//! through the link (the evidence and the signed PDF are kept); the signed PDF afterwards.

use rusqlite::params;

use super::evidence::{NewSignature, record_signature};
use super::{FamilyAct, SignedContract, record_family_act, use_link};
use crate::error::{Error, Result};
use crate::model::{
    ContractForSigning, ContractStatus, LinkPurpose, RequestOrigin, SignatureEvidence,
    SignatureInput, SignatureMethod, Strokes,
};
use crate::pdf::{render, signed_contract_document};
use crate::rules::signing::{
    AGREEMENT_CHANGED, ESIGN_CONSENT, printable_user_agent, sha256_hex, signed_entry,
    validate_signature,
};
use crate::store::{self, Store, ts};

impl Store {
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
            return Err(Error::Rejected(AGREEMENT_CHANGED.to_owned()));
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
            let changed = store::exec(
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
                store::exec(
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
            store::handoff::start_checklist(tx, &contract_id, contract.intake_id.as_ref(), &now)?;
            record_family_act(
                tx,
                &link,
                &clock,
                &FamilyAct {
                    action: "signed",
                    entity: "contract",
                    entity_id: contract_id.as_str(),
                    fields: &["status", "signed_at"],
                    entry: &signed_entry(&evidence.signer_name, &evidence.relationship),
                },
            )
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

    /// The signed agreement, for the family through the signing link it used.
    pub fn link_signed_pdf(&self, token: &str) -> Result<Vec<u8>> {
        let link = self.used_link(token, LinkPurpose::ContractSigning)?;
        let contract_id = link.contract_id.ok_or(Error::LinkUnavailable)?;
        self.signed_contract_pdf(&contract_id)?
            .ok_or(Error::LinkUnavailable)
    }
}
