//! The evidence of signatures: what a signature or an approval records (by link or, for
//! a paper signature, by staff), the contract screen's signing panel, and checking that a
//! PDF is a signed contract Carepath made.

use rusqlite::{Connection, OptionalExtension, params};

use super::{LINK_COLUMNS, intake_str, link_from_row, waiting_contract_sha256};
use crate::error::{Error, Result};
use crate::model::{
    Actor, CarePlanId, Contract, ContractId, ContractSigningStatus, ContractStatus, LinkPurpose,
    PaperSignatureInput, Parents, PdfVerification, RequestOrigin, SignatureEvidence,
    SignatureMethod, UserId,
};
use crate::rules::clock::format_timestamp;
use crate::rules::signing::{
    PDF_NOT_SIGNED_HERE, contract_document_sha256, paper_signed_entry, pdf_verified,
    printable_user_agent, sha256_hex, validate_paper_signature,
};
use crate::store::communications::log_description;
use crate::store::{self, Store, audit, position, ts};

impl Store {
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
            let changed = store::exec(
                tx,
                "UPDATE contracts SET status = 'signed', signed_at = ?2, updated_at = ?3,
                    version = version + 1
                 WHERE id = ?1 AND status = ?4 AND deleted_at IS NULL",
                params![contract_id, signed_at, now, contract.status],
            )?;
            if changed == 0 {
                return Err(Error::conflict("contract", &contract));
            }
            store::exec(
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
                &paper_signed_entry(&signer, date),
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
        Ok(store::query_row(
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
        Ok(store::query_row(
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
        let found = store::query_row(
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
                message: pdf_verified(&client, &signer, &signed_at),
                sha256: sha,
                contract_id: Some(contract_id),
                client_name: Some(client),
                signer_name: Some(signer),
                signed_at: Some(signed_at),
            },
            None => PdfVerification {
                matches: false,
                message: PDF_NOT_SIGNED_HERE.to_owned(),
                sha256: sha,
                contract_id: None,
                client_name: None,
                signer_name: None,
                signed_at: None,
            },
        })
    }
}

/// A signature or an approval to record, with its evidence.
pub(super) struct NewSignature<'a> {
    pub(super) link_id: Option<&'a str>,
    pub(super) purpose: LinkPurpose,
    pub(super) care_plan_id: Option<&'a CarePlanId>,
    pub(super) contract_id: Option<&'a ContractId>,
    pub(super) method: SignatureMethod,
    pub(super) signer_name: &'a str,
    pub(super) relationship: &'a str,
    pub(super) typed_signature: &'a str,
    pub(super) strokes: &'a [Vec<[f64; 2]>],
    pub(super) consent_text: &'a str,
    pub(super) origin: &'a RequestOrigin,
    pub(super) document_sha256: &'a str,
    pub(super) signed_at: &'a str,
    pub(super) recorded_by: Option<&'a UserId>,
    pub(super) signed_pdf: Option<(&'a [u8], &'a str)>,
}

pub(super) fn record_signature(tx: &Connection, signature: &NewSignature<'_>) -> Result<()> {
    store::exec(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::signing::ESIGN_CONSENT;

    #[test]
    fn a_signature_keeps_its_evidence_with_the_origin_clipped_to_printable_text() {
        let conn = super::super::tests::signing_tables();
        let origin = RequestOrigin {
            ip_address: "1".repeat(150),
            user_agent: "Browser\u{7}/1.0\n".into(),
        };
        record_signature(
            &conn,
            &NewSignature {
                link_id: None,
                purpose: LinkPurpose::ContractSigning,
                care_plan_id: None,
                contract_id: Some(&ContractId::from("k1")),
                method: SignatureMethod::Drawn,
                signer_name: "Grace Hopper",
                relationship: "Daughter",
                typed_signature: "",
                strokes: &[vec![[0.25, 0.5], [0.75, 0.5]]],
                consent_text: ESIGN_CONSENT,
                origin: &origin,
                document_sha256: "doc-sha",
                signed_at: "2026-11-22T15:00:00.000Z",
                recorded_by: None,
                signed_pdf: Some((b"%PDF-1.7", "pdf-sha")),
            },
        )
        .unwrap();
        let stored: (String, String, String, String, Option<String>, String) = conn
            .query_row(
                "SELECT ip_address, user_agent, drawn_signature, method, signed_pdf_sha256,
                        created_at
                 FROM signatures",
                [],
                |row| {
                    Ok((
                        row.get(0)?,
                        row.get(1)?,
                        row.get(2)?,
                        row.get(3)?,
                        row.get(4)?,
                        row.get(5)?,
                    ))
                },
            )
            .unwrap();
        assert_eq!(stored.0.len(), 100, "the address is clipped");
        assert_eq!(stored.1, "Browser /1.0");
        assert_eq!(stored.2, "[[[0.25,0.5],[0.75,0.5]]]");
        assert_eq!(stored.3, "drawn");
        assert_eq!(stored.4.as_deref(), Some("pdf-sha"));
        assert_eq!(stored.5, "2026-11-22T15:00:00.000Z");
    }

    #[test]
    fn a_file_carepath_did_not_sign_is_not_verified() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("carepath.db")).unwrap();
        let file = b"%PDF-1.7 a contract from elsewhere";
        let answer = store.verify_signed_pdf(file).unwrap();
        assert!(!answer.matches);
        assert_eq!(answer.message, PDF_NOT_SIGNED_HERE);
        assert_eq!(answer.sha256, sha256_hex(file));
        assert_eq!(answer.contract_id, None);
        let missing = ContractId::from("missing");
        assert_eq!(store.contract_signature(&missing).unwrap(), None);
        assert_eq!(store.signed_contract_pdf(&missing).unwrap(), None);
    }
}
