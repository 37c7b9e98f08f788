//! The server's one error type: every failure becomes `{"error": {"code", "message",
//! "fields"}}` with the right status. Core's messages pass through unchanged; internal
//! failures are logged and answered with a generic message.

use std::collections::BTreeMap;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use carepath_core::Error as CoreError;
use serde::Serialize;

/// Shown for failures that are ours, not the caller's; the details go to the log only.
const INTERNAL: &str = "Something went wrong on the server. Please try again.";
const BUSY: &str = "The database is busy. Please try again in a moment.";
/// What a throttled sign-in or family link is answered.
pub const TOO_MANY_ATTEMPTS: &str = "Too many attempts. Please wait a moment and try again.";

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub fields: BTreeMap<String, String>,
    /// The stored record of a version conflict.
    pub current: Option<serde_json::Value>,
    /// Seconds to wait, for 429 answers.
    pub retry_after: Option<u64>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    pub fields: BTreeMap<String, String>,
}

/// The body of every error answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
    /// Only on 409: the record as stored now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<serde_json::Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            fields: BTreeMap::new(),
            current: None,
            retry_after: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub fn unauthenticated() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "Please sign in to continue.",
        )
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn rate_limited(message: impl Into<String>, retry_after: u64) -> Self {
        let mut error = Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message);
        error.retry_after = Some(retry_after.max(1));
        error
    }

    /// What each write of a group is answered when the group's commit failed (the
    /// writer logs the failure once).
    pub fn failed_write(error: &CoreError) -> Self {
        if error.is_busy() {
            Self::new(StatusCode::SERVICE_UNAVAILABLE, "busy", BUSY)
        } else {
            Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", INTERNAL)
        }
    }

    /// A failure of ours: logged with its detail, answered without it.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "internal error");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", INTERNAL)
    }
}

impl From<CoreError> for ApiError {
    fn from(error: CoreError) -> Self {
        let message = error.to_string();
        match error {
            CoreError::NotFound { .. } => Self::not_found(capitalized(&message)),
            CoreError::Validation(errors) => {
                let mut api = Self::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "validation",
                    errors.message,
                );
                api.fields = errors.fields;
                api
            }
            CoreError::Rejected(message) => {
                Self::new(StatusCode::UNPROCESSABLE_ENTITY, "rejected", message)
            }
            CoreError::InvalidTransition { .. } => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_transition",
                message,
            ),
            CoreError::Conflict { current, .. } => {
                let mut api = Self::new(StatusCode::CONFLICT, "conflict", message);
                api.current = Some(*current);
                api
            }
            CoreError::Forbidden(message) => Self::forbidden(message),
            CoreError::Unauthenticated(message) => {
                Self::new(StatusCode::UNAUTHORIZED, "unauthenticated", message)
            }
            CoreError::LinkUnavailable => {
                Self::new(StatusCode::NOT_FOUND, "link_unavailable", message)
            }
            CoreError::TooMany {
                message,
                retry_after_secs,
            } => Self::rate_limited(message, retry_after_secs),
            error if error.is_busy() => {
                tracing::warn!(error = %error, "database busy");
                Self::new(StatusCode::SERVICE_UNAVAILABLE, "busy", BUSY)
            }
            error => Self::internal(error),
        }
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code.to_owned(),
                message: self.message,
                fields: self.fields,
            },
            current: self.current,
        };
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
