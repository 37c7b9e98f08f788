//! AI drafting over any OpenAI-compatible chat endpoint (a hosted service, or a local
//! llama.cpp / Ollama server). Only the request's needed facts are sent.

use carepath_core::outbound::{DraftFailure, DraftRequest, Drafter, OutboundFuture, ai_prompts};
use serde_json::json;

use crate::config::AiConfig;

pub struct ChatDrafter {
    client: reqwest::Client,
    config: AiConfig,
}

impl ChatDrafter {
    pub fn new(client: reqwest::Client, config: AiConfig) -> Self {
        Self { client, config }
    }
}

#[derive(serde::Deserialize)]
struct ChatAnswer {
    choices: Vec<Choice>,
}

#[derive(serde::Deserialize)]
struct Choice {
    message: ChatMessage,
}

#[derive(serde::Deserialize)]
struct ChatMessage {
    content: String,
}

impl Drafter for ChatDrafter {
    fn draft<'a>(&'a self, request: &'a DraftRequest) -> OutboundFuture<'a, String, DraftFailure> {
        Box::pin(async move {
            // Message templates guide the built-in writer; the chat model gets the
            // request and facts only.
            let (system, user) = ai_prompts(request, &[]);
            let url = format!(
                "{}/v1/chat/completions",
                self.config.base_url.trim_end_matches('/')
            );
            let mut call = self.client.post(url).json(&json!({
                "model": self.config.model,
                "messages": [
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
            }));
            if let Some(key) = &self.config.api_key {
                call = call.bearer_auth(key);
            }
            let response = call.send().await.map_err(|error| {
                DraftFailure::Failed(if error.is_timeout() {
                    "the AI service did not answer in time".to_owned()
                } else {
                    "the AI service could not be reached".to_owned()
                })
            })?;
            match response.status().as_u16() {
                429 => return Err(DraftFailure::RateLimited),
                402 => return Err(DraftFailure::PaymentRequired),
                status if !(200..300).contains(&status) => {
                    return Err(DraftFailure::Failed(format!(
                        "the AI service answered {status}"
                    )));
                }
                _ => {}
            }
            let answer: ChatAnswer = response.json().await.map_err(|_| {
                DraftFailure::Failed("the AI service's answer could not be read".to_owned())
            })?;
            answer
                .choices
                .into_iter()
                .next()
                .map(|choice| choice.message.content.trim().to_owned())
                .filter(|text| !text.is_empty())
                .ok_or_else(|| DraftFailure::Failed("the AI service wrote nothing".to_owned()))
        })
    }
}
