//! The first run and what an agency sets up once: the setup page's answers (open only
//! with the setup link's secret, and only while nobody has an account), the setup
//! checklist, and the outbound accounts of Settings → Email and SMS with their test
//! messages. The rules, messages and checks are core's.

use axum::extract::State;
use axum::response::Response;
use carepath_core::model::{
    Checklist, EmailAccount, EmailAccountForm, SetupForm, SetupState, SmsAccount, SmsAccountForm,
    TestOutcome,
};
use carepath_core::rules::setup::{NO_EMAIL_ACCOUNT, NO_SMS_ACCOUNT, machine_time_zone};
use carepath_core::store::{Deployment, SessionUser};
use serde::Deserialize;
use utoipa::ToSchema;

use super::auth::{start_session, throttle};
use crate::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::ApiJson;
use crate::extract::{ClientAddr, Device};
use crate::outbound::{Outbound, TestEmailSetup, sms_account_in_use};
use crate::routes::ApiRoutes;
use crate::session::AdminUser;

/// The setup page's route, open without a session (GET and POST).
pub const PATH: &str = "/api/setup";

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_state, _, _>(state)
        .add::<__path_complete, _, _>(complete)
        .add::<__path_checklist, _, _>(checklist)
        .add::<__path_email_account, _, _>(email_account)
        .add::<__path_save_email_account, _, _>(save_email_account)
        .add::<__path_test_email, _, _>(test_email)
        .add::<__path_sms_account, _, _>(sms_account)
        .add::<__path_save_sms_account, _, _>(save_sms_account)
        .add::<__path_test_text, _, _>(test_text)
}

/// Whether Carepath still needs setting up, and the machine's time zone.
#[utoipa::path(get, path = "/api/setup", tag = "setup",
    responses((status = 200, body = SetupState)))]
pub async fn state(State(state): State<AppState>) -> ApiResult<ApiJson<SetupState>> {
    let needed = state.db.call(|store| store.needs_setup()).await?;
    Ok(ApiJson(SetupState {
        needed,
        machine_time_zone: machine_time_zone(),
    }))
}

/// Sets the agency up and signs its first administrator in. Needs the secret of the
/// setup link `carepath serve` printed; works once, and never once anyone has an account.
#[utoipa::path(post, path = "/api/setup", tag = "setup", request_body = SetupForm,
    responses((status = 200, body = SessionUser), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn complete(
    State(state): State<AppState>,
    client: ClientAddr,
    device: Device,
    ApiJson(form): ApiJson<SetupForm>,
) -> ApiResult<Response> {
    throttle(&state, &client)?;
    let _hashing = state.hashing_permit().await?;
    let user = state
        .db
        .call(move |store| store.complete_setup(&form))
        .await?;
    state.setup_done();
    let user = SessionUser {
        id: user.id,
        email: user.email,
        full_name: user.full_name,
        is_admin: user.is_admin,
        // A new agency requires no second factor until an administrator says so.
        needs_second_factor: false,
    };
    start_session(&state, user, device).await
}

fn deployment(state: &AppState) -> Deployment {
    Deployment {
        public_url_https: state.config.public_url.https,
        sms_from_environment: state.config.sms.is_some(),
        replication: state.replication.status().state,
    }
}

/// The setup checklist: what is still missing and why it matters. Administrators only.
#[utoipa::path(get, path = "/api/setup/checklist", tag = "setup",
    responses((status = 200, body = Checklist), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn checklist(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> ApiResult<ApiJson<Checklist>> {
    let deployment = deployment(&state);
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.checklist(deployment))
            .await?,
    ))
}

/// Settings → Email's mail server (never its password: only whether one is set).
/// Administrators only.
#[utoipa::path(get, path = "/api/settings/email-account", tag = "settings",
    responses((status = 200, body = EmailAccount), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn email_account(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> ApiResult<ApiJson<EmailAccount>> {
    let from_environment = state.config.smtp_url.is_some();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.email_account(from_environment))
            .await?,
    ))
}

/// Saves the mail server; email goes through it from now on (unless
/// `CAREPATH_SMTP_URL` is set). Administrators only.
#[utoipa::path(put, path = "/api/settings/email-account", tag = "settings", request_body = EmailAccountForm,
    responses((status = 200, body = EmailAccount), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_email_account(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiJson(form): ApiJson<EmailAccountForm>,
) -> ApiResult<ApiJson<EmailAccount>> {
    let actor = admin.actor();
    let config = state.config.clone();
    let outbound = state.outbound.clone();
    let account = state
        .db
        .call(move |store| {
            let mut account = store.save_email_account(&actor, &config.secret_keys(), &form)?;
            account.from_environment = config.smtp_url.is_some();
            if let Err(error) = outbound.use_saved_accounts(&config, store) {
                tracing::warn!(%error, "the saved mail server cannot be used");
            }
            Ok(account)
        })
        .await?;
    Ok(ApiJson(account))
}

/// Where a test message goes.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TestMessageBody {
    /// An email address (by default the administrator's own) or a phone number.
    #[serde(default)]
    pub to: Option<String>,
}

/// Sends a test email through the mail server in use and answers what the server said,
/// in words. Administrators only.
#[utoipa::path(post, path = "/api/settings/email-account/test", tag = "settings", request_body = TestMessageBody,
    responses((status = 200, body = TestOutcome), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn test_email(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiJson(body): ApiJson<TestMessageBody>,
) -> ApiResult<ApiJson<TestOutcome>> {
    let to = body
        .to
        .map(|to| to.trim().to_owned())
        .filter(|to| !to.is_empty())
        .unwrap_or_else(|| admin.0.user.email.clone());
    carepath_core::rules::validation::validate_magic_link_email(&to)?;
    let config = state.config.clone();
    let setup = state
        .db
        .run(move |store| TestEmailSetup::read(&config, store).map_err(ApiError::internal))
        .await?;
    let Some(outcome) = Outbound::test_email(setup, to).await else {
        return Err(carepath_core::Error::Rejected(NO_EMAIL_ACCOUNT.to_owned()).into());
    };
    let recorded = outcome.clone();
    state
        .db
        .call(move |store| store.record_outbound_test("email", recorded.ok, &recorded.message))
        .await?;
    Ok(ApiJson(outcome))
}

/// Settings → SMS's provider account (never its auth token). Administrators only.
#[utoipa::path(get, path = "/api/settings/sms-account", tag = "settings",
    responses((status = 200, body = SmsAccount), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn sms_account(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> ApiResult<ApiJson<SmsAccount>> {
    let from_environment = state.config.sms.is_some();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.sms_account(from_environment))
            .await?,
    ))
}

/// Saves the SMS provider account, or turns texts off. Administrators only.
#[utoipa::path(put, path = "/api/settings/sms-account", tag = "settings", request_body = SmsAccountForm,
    responses((status = 200, body = SmsAccount), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_sms_account(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiJson(form): ApiJson<SmsAccountForm>,
) -> ApiResult<ApiJson<SmsAccount>> {
    let actor = admin.actor();
    let config = state.config.clone();
    let outbound = state.outbound.clone();
    let account = state
        .db
        .call(move |store| {
            let mut account = store.save_sms_account(&actor, &config.secret_keys(), &form)?;
            account.from_environment = config.sms.is_some();
            if let Err(error) = outbound.use_saved_accounts(&config, store) {
                tracing::warn!(%error, "the saved SMS account cannot be used");
            }
            Ok(account)
        })
        .await?;
    Ok(ApiJson(account))
}

/// Sends a test text to `to` and answers what the provider said. Administrators only.
#[utoipa::path(post, path = "/api/settings/sms-account/test", tag = "settings", request_body = TestMessageBody,
    responses((status = 200, body = TestOutcome), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn test_text(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiJson(body): ApiJson<TestMessageBody>,
) -> ApiResult<ApiJson<TestOutcome>> {
    let to = body.to.unwrap_or_default().trim().to_owned();
    carepath_core::rules::setup::validate_test_phone(&to)?;
    let config = state.config.clone();
    let (sms, settings) = state
        .db
        .run(move |store| {
            let sms = sms_account_in_use(&config, store).map_err(ApiError::internal)?;
            Ok((sms, store.settings()?.sms))
        })
        .await?;
    let from = state.outbound.sms_sender(&settings);
    let Some(outcome) = state.outbound.test_text(sms, from, to).await else {
        return Err(carepath_core::Error::Rejected(NO_SMS_ACCOUNT.to_owned()).into());
    };
    let recorded = outcome.clone();
    state
        .db
        .call(move |store| store.record_outbound_test("sms", recorded.ok, &recorded.message))
        .await?;
    Ok(ApiJson(outcome))
}
