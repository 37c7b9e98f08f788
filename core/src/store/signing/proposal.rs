//! The family's approval page: the proposal letter, "Approve this proposal" and "I have
//! questions".

use rusqlite::params;

use super::evidence::{NewSignature, record_signature};
use super::{FamilyAct, family, record_family_act, use_link};
use crate::error::{Error, Result};
use crate::model::{
    ApprovalInput, CarePlanService, LinkPurpose, ProposalLetter, ProposalService, PublicDone,
    QuestionInput, RequestOrigin, ScheduleLine, SignatureMethod,
};
use crate::rules::signing::{
    APPROVED_THANKS, MAX_QUESTIONS_PER_HOUR, QUESTION_ENTRY_START, QUESTION_THANKS,
    TOO_MANY_QUESTIONS, approved_entry, question_entry, validate_approval, validate_question,
};
use crate::store::communications::log_description;
use crate::store::{self, Store, ts};

impl Store {
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
            let changed = store::exec(
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
            record_family_act(
                tx,
                &link,
                &clock,
                &FamilyAct {
                    action: "approved",
                    entity: "care_plan",
                    entity_id: plan_id.as_str(),
                    fields: &["status", "approved_at"],
                    entry: &approved_entry(&name),
                },
            )
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
        let text = question_entry(input.name.trim(), input.message.trim());
        // The family's questions are the link's system events; counted per care plan,
        // which has one live approval link at a time. Counted and written in one
        // transaction, so questions sent at once cannot pass the limit together.
        self.write(|tx| {
            let recent: u32 = store::query_row(
                tx,
                "SELECT COUNT(*) FROM communications
                  WHERE care_plan_id = ?1 AND created_at >= ?2
                    AND communication_type = 'system_event' AND sender_user_id IS NULL
                    AND content LIKE ?3",
                params![
                    link.care_plan_id.as_ref().map(|id| id.as_str()),
                    hour_ago,
                    format!("{QUESTION_ENTRY_START}%")
                ],
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
}
