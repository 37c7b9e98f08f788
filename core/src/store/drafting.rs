//! What a letter or an AI draft knows: the client's facts (from its care plan, else its
//! intake, else the name staff typed), the coordinator who signs it, and the agency's
//! name, phone and signature from Settings. Also the contract email's default text,
//! written here so every face sends the same words.

use serde::Serialize;

use super::Store;
use crate::error::Result;
use crate::model::{CarePlanId, ContractId, IntakeId};
use crate::outbound::{CONTRACT_SUBJECT, ClientFacts, contract_email};

/// An email as its send dialog starts: staff may edit both before sending.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailDraft {
    pub subject: String,
    pub body: String,
}

impl Store {
    /// The facts a draft is written from. A care plan gives the proposal's facts
    /// (services by their labels, schedule, costs, start date, family contact and
    /// coordinator); an intake gives its latest care plan's, else the client's and the
    /// caller's names, the services asked for and the assessment's coordinator.
    pub fn draft_facts(
        &self,
        care_plan_id: Option<&CarePlanId>,
        intake_id: Option<&IntakeId>,
        client_name: &str,
    ) -> Result<ClientFacts> {
        let mut facts = match (care_plan_id, intake_id) {
            (Some(id), _) => ClientFacts::from_care_plan(&self.get_care_plan(id)?),
            (None, Some(id)) => {
                let intake = self.get_intake_summary(id)?;
                let position = &intake.position;
                let mut facts = match &position.latest_care_plan_id {
                    Some(plan) => ClientFacts::from_care_plan(&self.get_care_plan(plan)?),
                    None => ClientFacts {
                        client_name: intake.client_full_name.clone(),
                        services: intake.services_required.clone(),
                        ..ClientFacts::default()
                    },
                };
                if facts.family_name.trim().is_empty() {
                    facts.family_name = intake.caller_name.clone();
                }
                if facts.coordinator_name.trim().is_empty()
                    && let Some(assessment) = &position.latest_assessment_id
                {
                    facts.coordinator_name = self.get_assessment(assessment)?.coordinator_name;
                }
                facts.stage = Some(position.stage);
                facts
            }
            (None, None) => ClientFacts {
                client_name: client_name.trim().to_owned(),
                ..ClientFacts::default()
            },
        };
        let settings = self.settings()?;
        // Without a signature of the staff's own, the email is signed with the agency's
        // name and address (the closing adds the phone).
        facts.signature = if settings.email.signature.trim().is_empty() {
            crate::outbound::agency_sign_off(&settings.general).join("\n")
        } else {
            settings.email.signature
        };
        facts.company_name = settings.general.company_name;
        facts.contact_phone = settings.general.contact_phone;
        Ok(facts)
    }

    /// The contract email as the Send Contract for Signature dialog starts it: to the
    /// family contact by name, the agreement's costs, signing through the personal link
    /// the email carries, and the coordinator's and agency's sign-off.
    pub fn contract_email_draft(&self, id: &ContractId) -> Result<EmailDraft> {
        let contract = self.get_contract(id)?;
        let mut facts = self.draft_facts(Some(&contract.care_plan_proposal_id), None, "")?;
        facts.client_name = contract.client_name.clone();
        Ok(EmailDraft {
            subject: CONTRACT_SUBJECT.to_owned(),
            body: contract_email(&facts, &contract.pricing_details),
        })
    }
}
