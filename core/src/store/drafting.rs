//! What an AI draft knows: the client's facts (from its care plan, else its intake, else
//! the name staff typed) and the agency's name, phone and signature from Settings.

use super::Store;
use crate::error::Result;
use crate::model::{CarePlanId, IntakeId};
use crate::outbound::ClientFacts;

impl Store {
    /// The facts a draft is written from. A care plan gives the marketing email's facts
    /// (services, schedule, costs); an intake gives the client's and the caller's names
    /// and the services asked for.
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
                ClientFacts {
                    client_name: intake.client_full_name,
                    family_name: intake.caller_name,
                    services: intake.services_required,
                    ..ClientFacts::default()
                }
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
}
