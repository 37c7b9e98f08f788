//! AI drafting of messages and notes: an outside chat model when one is set up, otherwise
//! core's built-in template writer, so the buttons always work.

use axum::extract::State;
use carepath_core::model::{AssessmentId, CarePlanId, ContractId, IntakeId, MessageTemplateId};
use carepath_core::outbound::{ClientFacts, DraftKind, validate_draft_request};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::ApiJson;
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes.add::<__path_draft, _, _>(draft)
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftBody {
    /// `email`, `sms`, `note` or `marketing_email`.
    pub message_type: DraftKind,
    /// What staff want the draft to say.
    #[serde(default)]
    pub user_input: String,
    /// The client's name when no record is named (the email and SMS dialogs).
    #[serde(default)]
    pub client_name: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub intake_id: Option<IntakeId>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub assessment_id: Option<AssessmentId>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub care_plan_id: Option<CarePlanId>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub contract_id: Option<ContractId>,
    /// A message template the dialog offered for this client (GET
    /// /api/message-templates/offered); the draft follows it.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub template_id: Option<MessageTemplateId>,
}

#[derive(Serialize, ToSchema)]
pub struct DraftAnswer {
    pub generated_text: String,
    /// A subject line, for emails that have a fixed one.
    pub subject: Option<String>,
}

/// The facts of the named records: client name, family name and services, nothing more.
async fn facts_for(state: &AppState, body: &DraftBody) -> ApiResult<ClientFacts> {
    let (intake_id, care_plan_id) = (body.intake_id.clone(), body.care_plan_id.clone());
    let client_name = body.client_name.clone().unwrap_or_default();
    state
        .db
        .call(move |store| {
            store.draft_facts(care_plan_id.as_ref(), intake_id.as_ref(), &client_name)
        })
        .await
}

/// Drafts a message, text, note or marketing email from what staff typed.
#[utoipa::path(post, path = "/api/ai/draft", tag = "communications", request_body = DraftBody,
    responses((status = 200, body = DraftAnswer), (status = 402, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn draft(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<DraftBody>,
) -> ApiResult<ApiJson<DraftAnswer>> {
    validate_draft_request(
        body.message_type,
        &body.user_input,
        body.template_id.is_some(),
    )?;
    let template = match body.template_id.clone() {
        Some(id) => {
            let (kind, intake_id) = (body.message_type, body.intake_id.clone());
            Some(
                state
                    .db
                    .call(move |store| store.chosen_message_template(kind, intake_id.as_ref(), &id))
                    .await?,
            )
        }
        None => None,
    };
    let facts = facts_for(&state, &body).await?;
    let (generated_text, subject) =
        crate::drafting::write(&state, body.message_type, body.user_input, facts, template).await?;
    let subject = (body.message_type == DraftKind::MarketingEmail)
        .then(|| carepath_core::outbound::PROPOSAL_SUBJECT.to_owned())
        .or(subject);
    Ok(ApiJson(DraftAnswer {
        generated_text,
        subject,
    }))
}
