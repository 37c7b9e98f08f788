//! The family's personal links: made when a proposal or contract is emailed (an earlier
//! open link for the same document is revoked), opened, and used once to approve the
//! proposal or sign the contract. Every bad link gets the same refusal and changes
//! nothing. Signing stores the evidence and the signed PDF with its SHA-256.
//!
//! This module reads links (a token's link, whether it can be used, what a used one did);
//! `sending` makes them with the emails that carry them, `proposal` and `contract` are
//! the family's two pages, and `evidence` keeps and reads the signatures.

mod contract;
mod evidence;
mod proposal;
mod sending;

use rusqlite::{Connection, OptionalExtension, params};

use super::{Store, audit, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, CarePlan, CarePlanId, CarePlanStatus, Channel, Contract, ContractId, ContractStatus,
    IntakeId, LinkOutcome, LinkPurpose, Parents, SignatureEvidence, SigningLinkInfo, UserId,
};
use crate::rules::contract_text::format_long_date;
use crate::rules::signing::{
    LinkFacts, approved_outcome, contract_document_sha256, link_state, link_token_hash,
    link_usable, proposal_document_sha256, signed_outcome, token_well_formed,
};
use crate::store;

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

/// What the family did through a link, for the audit log and the timeline.
struct FamilyAct<'a> {
    /// The audit action on the record ("approved", "signed").
    action: &'static str,
    entity: &'static str,
    entity_id: &'a str,
    fields: &'a [&'a str],
    /// The client's timeline line.
    entry: &'a str,
}

/// Writes, in the transaction of the family's act, what follows it: the client's place in
/// the pipeline, the link's use and the act in the audit log, and the act's line in the
/// timeline. All in one transaction, so a family is never answered with an error for an
/// act that was recorded, and no act is recorded without its line.
fn record_family_act(
    tx: &Connection,
    link: &StoredLink,
    clock: &crate::rules::clock::AgencyClock,
    act: &FamilyAct<'_>,
) -> Result<()> {
    if let Some(intake_id) = &link.intake_id {
        store::position::refresh(tx, intake_id, clock)?;
    }
    let actor = family();
    let intake = intake_str(&link.intake_id);
    audit(
        tx,
        &actor,
        clock.now(),
        "use",
        "signing_link",
        &link.id,
        intake,
        &["used_at"],
    )?;
    audit(
        tx,
        &actor,
        clock.now(),
        act.action,
        act.entity,
        act.entity_id,
        intake,
        act.fields,
    )?;
    store::communications::log_description(tx, &actor, clock.now(), &link.parents(), act.entry)?;
    Ok(())
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

impl Store {
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
            let changed = store::exec(
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

    /// A link's last day as the family reads it, in the agency's zone.
    fn link_expiry_text(&self, expires_at: &str) -> Result<String> {
        let clock = self.clock()?;
        Ok(crate::rules::clock::parse_timestamp(expires_at)
            .map(|moment| format_long_date(clock.local_date(moment)))
            .unwrap_or_else(|| expires_at.to_owned()))
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
                let message = approved_outcome(&used_on);
                (plan.client_name, message, false)
            }
            LinkPurpose::ContractSigning => {
                let contract_id = link.contract_id.as_ref().ok_or(Error::LinkUnavailable)?;
                let contract = self.get_contract(contract_id)?;
                let available = self.signed_contract_pdf(contract_id)?.is_some();
                let message = signed_outcome(&used_on);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ApprovalInput, RequestOrigin};
    use crate::rules::signing::new_link_token;

    /// The signing tables alone (migration 6), on a connection of their own: what the
    /// link and signature writes need, without the documents they point to.
    pub(super) fn signing_tables() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        // The documents the rows point to are not there: their keys are not checked.
        conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
        conn.execute_batch(include_str!("../migrations/0006_signing.sql"))
            .unwrap();
        conn
    }

    const NOW: &str = "2026-11-22T15:00:00.000Z";

    #[test]
    fn a_link_is_spent_once_and_only_while_it_is_open() {
        let conn = signing_tables();
        let insert = |id: &str, expires_at: &str, revoked_at: Option<&str>| {
            conn.execute(
                "INSERT INTO signing_links (id, token_hash, purpose, contract_id, document_sha256,
                    recipient_email, created_at, expires_at, revoked_at)
                 VALUES (?1, ?1, 'contract_signing', 'k', 'sha', 'grace@family.test',
                    '2026-11-01T00:00:00.000Z', ?2, ?3)",
                params![id, expires_at, revoked_at],
            )
            .unwrap();
        };
        insert("open", "2026-12-01T00:00:00.000Z", None);
        insert("expiring", NOW, None);
        insert(
            "revoked",
            "2026-12-01T00:00:00.000Z",
            Some("2026-11-20T00:00:00.000Z"),
        );
        use_link(&conn, "open", NOW).unwrap();
        let used: Option<String> = conn
            .query_row(
                "SELECT used_at FROM signing_links WHERE id = 'open'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(used.as_deref(), Some(NOW));
        for id in ["open", "expiring", "revoked", "unknown"] {
            assert!(
                matches!(use_link(&conn, id, NOW), Err(Error::LinkUnavailable)),
                "{id}"
            );
        }
    }

    #[test]
    fn a_stored_link_shows_its_state_and_never_its_token() {
        let link = StoredLink {
            id: "l1".into(),
            purpose: LinkPurpose::ProposalApproval,
            care_plan_id: Some("p1".into()),
            contract_id: None,
            intake_id: Some("i1".into()),
            document_sha256: "sha".into(),
            recipient_email: "grace@family.test".into(),
            created_by: None,
            created_at: "2026-11-01T00:00:00.000Z".into(),
            expires_at: "2026-12-01T00:00:00.000Z".into(),
            opened_at: Some("2026-11-02T00:00:00.000Z".into()),
            used_at: None,
            revoked_at: None,
        };
        let info = link.info(Some("sha"), NOW);
        assert_eq!(info.state, crate::model::LinkState::Opened);
        assert_eq!(info.sent_at, link.created_at);
        assert_eq!(
            link.info(Some("changed"), NOW).state,
            crate::model::LinkState::Outdated
        );
        assert_eq!(
            link.info(None, NOW).state,
            crate::model::LinkState::Outdated,
            "the proposal no longer waits for this answer"
        );
        let parents = link.parents();
        assert_eq!(parents.care_plan_id, link.care_plan_id);
        assert_eq!(parents.intake_id, link.intake_id);
        assert_eq!(parents.contract_id, None);
    }

    #[test]
    fn a_malformed_or_unknown_token_gets_the_one_refusal_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path().join("carepath.db")).unwrap();
        let audited = |store: &Store| -> i64 {
            super::super::query_row(store.conn(), "SELECT count(*) FROM audit_log", [], |row| {
                row.get(0)
            })
            .unwrap()
        };
        let before = audited(&store);
        let unknown = new_link_token();
        for token in ["", "short", "not a token, with spaces!", unknown.as_str()] {
            for purpose in [LinkPurpose::ProposalApproval, LinkPurpose::ContractSigning] {
                assert!(matches!(
                    store.usable_link(token, purpose),
                    Err(Error::LinkUnavailable)
                ));
                assert!(matches!(
                    store.link_outcome(token, purpose),
                    Err(Error::LinkUnavailable)
                ));
            }
            assert!(matches!(
                store.open_proposal_link(token),
                Err(Error::LinkUnavailable)
            ));
            assert!(matches!(
                store.open_contract_link(token),
                Err(Error::LinkUnavailable)
            ));
            let approval = ApprovalInput {
                name: "Grace Hopper".into(),
            };
            assert!(matches!(
                store.approve_by_link(token, &approval, &RequestOrigin::default()),
                Err(Error::LinkUnavailable)
            ));
            assert!(matches!(
                store.link_signed_pdf(token),
                Err(Error::LinkUnavailable)
            ));
        }
        assert_eq!(audited(&store), before, "a refused link writes nothing");
    }
}
