//! Writing a draft: through the outside chat model when one is set up, otherwise core's
//! built-in writer, so the buttons always work. The AI button and Generate Care Plan
//! both draft through here.

use axum::http::StatusCode;
use carepath_core::model::MessageTemplate;
use carepath_core::outbound::{
    ClientFacts, DraftFailure, DraftKind, DraftRequest, draft_subject, write_draft,
};

use crate::AppState;
use crate::error::{ApiError, ApiResult};

/// Writes a draft from core's facts (`Store::draft_facts`): through the chat endpoint
/// when configured, else core's built-in writer, which composes the letter of the chosen
/// template's (or the client's) stage. Answers the text and, from a chosen email
/// template, its subject.
pub async fn write(
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
