//! AI drafting of messages and notes: an outside chat model when one is set up, otherwise
//! core's built-in template writer, so the buttons always work.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{
    AssessmentId, CarePlanId, ContractId, IntakeId, MessageTemplate, MessageTemplateId,
};
use carepath_core::outbound::{
    ClientFacts, DraftFailure, DraftKind, DraftRequest, draft_subject, validate_draft_request,
    write_draft,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::ApiJson;
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes.add::<__path_draft, _, _>(draft)
}

fn failure_error(failure: &DraftFailure, kind: DraftKind) -> ApiError {
    let message = failure.message(kind);
    match failure {
        DraftFailure::RateLimited => ApiError::rate_limited(message, 60),
        DraftFailure::PaymentRequired => {
            ApiError::new(StatusCode::PAYMENT_REQUIRED, "payment_required", message)
        }
        DraftFailure::Failed(detail) => {
            tracing::warn!(%detail, "AI drafting failed");
            ApiError::new(StatusCode::BAD_GATEWAY, "ai_failed", message)
        }
    }
}

/// Writes a draft from core's facts (`Store::draft_facts`): through the chat endpoint
/// when configured, else core's built-in writer, which composes the letter of the chosen
/// template's (or the client's) stage. Answers the text and, from a chosen email
/// template, its subject.
pub(crate) async fn write(
    state: &AppState,
    kind: DraftKind,
    prompt: String,
    facts: ClientFacts,
    template: Option<MessageTemplate>,
) -> ApiResult<(String, Option<String>)> {
    let request = DraftRequest {
        kind,
        prompt,
        facts,
        template,
    };
    let subject = draft_subject(&request);
    let text = match &state.outbound.drafter {
        Some(drafter) => drafter
            .draft(&request)
            .await
            .map_err(|failure| failure_error(&failure, kind))?,
        None => write_draft(&request),
    };
    Ok((text, subject))
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
        write(&state, body.message_type, body.user_input, facts, template).await?;
    let subject = (body.message_type == DraftKind::MarketingEmail)
        .then(|| carepath_core::outbound::PROPOSAL_SUBJECT.to_owned())
        .or(subject);
    Ok(ApiJson(DraftAnswer {
        generated_text,
        subject,
    }))
}
