//! Message templates, pricing templates and the contract template with its versions,
//! stored on the server and shared by all staff.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{
    ContractTemplate, ContractTemplateId, ContractTemplateInput, HolidayPolicy, MessageTemplate,
    MessageTemplateId, MessageTemplateInput, PricingTemplate, PricingTemplateId,
    PricingTemplateInput,
};
use carepath_core::outbound::DraftKind;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::Items;
use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_message_templates, _, _>(message_templates)
        .add::<__path_offered_message_templates, _, _>(offered_message_templates)
        .add::<__path_create_message_template, _, _>(create_message_template)
        .add::<__path_update_message_template, _, _>(update_message_template)
        .add::<__path_delete_message_template, _, _>(delete_message_template)
        .add::<__path_pricing_templates, _, _>(pricing_templates)
        .add::<__path_holiday_policy, _, _>(holiday_policy)
        .add::<__path_create_pricing_template, _, _>(create_pricing_template)
        .add::<__path_update_pricing_template, _, _>(update_pricing_template)
        .add::<__path_delete_pricing_template, _, _>(delete_pricing_template)
        .add::<__path_contract_template, _, _>(contract_template)
        .add::<__path_save_contract_template, _, _>(save_contract_template)
        .add::<__path_contract_template_versions, _, _>(contract_template_versions)
        .add::<__path_create_contract_template_version, _, _>(create_contract_template_version)
        .add::<__path_use_contract_template_version, _, _>(use_contract_template_version)
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MessageTemplateUpdate {
    pub version: i64,
    pub template: MessageTemplateInput,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PricingTemplateUpdate {
    pub version: i64,
    pub template: PricingTemplateInput,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractTemplateUpdate {
    pub version: i64,
    pub template: ContractTemplateInput,
}

/// The holiday policy card: the six holidays with this year's dates.
#[utoipa::path(get, path = "/api/holiday-policy", tag = "templates",
    responses((status = 200, body = HolidayPolicy), (status = 401, body = ErrorBody)))]
pub async fn holiday_policy(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<HolidayPolicy>> {
    Ok(ApiJson(
        state.db.call(|store| store.holiday_policy()).await?,
    ))
}

/// Message templates, newest first.
#[utoipa::path(get, path = "/api/message-templates", tag = "templates",
    responses((status = 200, body = Items<MessageTemplate>), (status = 401, body = ErrorBody)))]
pub async fn message_templates(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<Items<MessageTemplate>>> {
    Ok(ApiJson(
        state
            .db
            .call(|store| store.message_templates())
            .await?
            .into(),
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OfferedParams {
    /// The send dialog's kind: `email` or `sms` (a note is offered none).
    pub message_type: DraftKind,
    /// The client the dialog writes about; its pipeline stage picks the templates.
    #[param(value_type = Option<String>)]
    pub intake_id: Option<carepath_core::model::IntakeId>,
}

/// The message templates a send dialog offers for AI drafting: the active templates of
/// the client's stage, then the active general ones.
#[utoipa::path(get, path = "/api/message-templates/offered", tag = "templates", params(OfferedParams),
    responses((status = 200, body = Items<MessageTemplate>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn offered_message_templates(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(params): ApiQuery<OfferedParams>,
) -> ApiResult<ApiJson<Items<MessageTemplate>>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.offered_message_templates(params.message_type, params.intake_id.as_ref())
            })
            .await?
            .into(),
    ))
}

/// Adds a message template.
#[utoipa::path(post, path = "/api/message-templates", tag = "templates", request_body = MessageTemplateInput,
    responses((status = 200, body = MessageTemplate), (status = 422, body = ErrorBody)))]
pub async fn create_message_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<MessageTemplateInput>,
) -> ApiResult<ApiJson<MessageTemplate>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.create_message_template(&actor, input))
            .await?,
    ))
}

/// Updates a message template `{version, template}`.
#[utoipa::path(put, path = "/api/message-templates/{id}", tag = "templates", params(("id" = String, Path)), request_body = MessageTemplateUpdate,
    responses((status = 200, body = MessageTemplate), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_message_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<MessageTemplateId>,
    ApiJson(body): ApiJson<MessageTemplateUpdate>,
) -> ApiResult<ApiJson<MessageTemplate>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.update_message_template(&actor, &id, body.version, body.template)
            })
            .await?,
    ))
}

/// Deletes a message template.
#[utoipa::path(delete, path = "/api/message-templates/{id}", tag = "templates", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 404, body = ErrorBody)))]
pub async fn delete_message_template(
    State(state): State<AppState>,
    user: AdminUser,
    ApiPath(id): ApiPath<MessageTemplateId>,
) -> ApiResult<StatusCode> {
    let actor = user.actor();
    state
        .db
        .call(move |store| store.delete_message_template(&actor, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Pricing templates.
#[utoipa::path(get, path = "/api/pricing-templates", tag = "templates",
    responses((status = 200, body = Items<PricingTemplate>), (status = 401, body = ErrorBody)))]
pub async fn pricing_templates(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<Items<PricingTemplate>>> {
    Ok(ApiJson(
        state
            .db
            .call(|store| store.pricing_templates())
            .await?
            .into(),
    ))
}

/// Adds a pricing template (setting it as default clears the others).
#[utoipa::path(post, path = "/api/pricing-templates", tag = "templates", request_body = PricingTemplateInput,
    responses((status = 200, body = PricingTemplate), (status = 422, body = ErrorBody)))]
pub async fn create_pricing_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<PricingTemplateInput>,
) -> ApiResult<ApiJson<PricingTemplate>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.create_pricing_template(&actor, input))
            .await?,
    ))
}

/// Updates a pricing template `{version, template}`.
#[utoipa::path(put, path = "/api/pricing-templates/{id}", tag = "templates", params(("id" = String, Path)), request_body = PricingTemplateUpdate,
    responses((status = 200, body = PricingTemplate), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_pricing_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<PricingTemplateId>,
    ApiJson(body): ApiJson<PricingTemplateUpdate>,
) -> ApiResult<ApiJson<PricingTemplate>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.update_pricing_template(&actor, &id, body.version, body.template)
            })
            .await?,
    ))
}

/// Deletes a pricing template.
#[utoipa::path(delete, path = "/api/pricing-templates/{id}", tag = "templates", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 404, body = ErrorBody)))]
pub async fn delete_pricing_template(
    State(state): State<AppState>,
    user: AdminUser,
    ApiPath(id): ApiPath<PricingTemplateId>,
) -> ApiResult<StatusCode> {
    let actor = user.actor();
    state
        .db
        .call(move |store| store.delete_pricing_template(&actor, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The contract template in use.
#[utoipa::path(get, path = "/api/contract-template", tag = "templates",
    responses((status = 200, body = ContractTemplate), (status = 401, body = ErrorBody)))]
pub async fn contract_template(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<ContractTemplate>> {
    Ok(ApiJson(
        state
            .db
            .call(|store| store.current_contract_template())
            .await?,
    ))
}

/// Saves the contract template in use `{version, template}`.
#[utoipa::path(put, path = "/api/contract-template", tag = "templates", request_body = ContractTemplateUpdate,
    responses((status = 200, body = ContractTemplate), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_contract_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(body): ApiJson<ContractTemplateUpdate>,
) -> ApiResult<ApiJson<ContractTemplate>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.save_contract_template(&actor, body.version, body.template))
            .await?,
    ))
}

/// Every version of the contract template, newest first.
#[utoipa::path(get, path = "/api/contract-template/versions", tag = "templates",
    responses((status = 200, body = Items<ContractTemplate>), (status = 401, body = ErrorBody)))]
pub async fn contract_template_versions(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<ApiJson<Items<ContractTemplate>>> {
    Ok(ApiJson(
        state
            .db
            .call(|store| store.contract_template_versions())
            .await?
            .into(),
    ))
}

/// Creates a new version (version number + 0.1) and uses it.
#[utoipa::path(post, path = "/api/contract-template/versions", tag = "templates", request_body = ContractTemplateInput,
    responses((status = 200, body = ContractTemplate), (status = 422, body = ErrorBody)))]
pub async fn create_contract_template_version(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<ContractTemplateInput>,
) -> ApiResult<ApiJson<ContractTemplate>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.create_contract_template_version(&actor, input))
            .await?,
    ))
}

/// Goes back to an earlier version.
#[utoipa::path(post, path = "/api/contract-template/versions/{id}/use", tag = "templates", params(("id" = String, Path)),
    responses((status = 200, body = ContractTemplate), (status = 404, body = ErrorBody)))]
pub async fn use_contract_template_version(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ContractTemplateId>,
) -> ApiResult<ApiJson<ContractTemplate>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.use_contract_template_version(&actor, &id))
            .await?,
    ))
}
