//! A client's family and emergency contacts.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{Contact, ContactId, ContactInput, ContactType, IntakeId};
use serde::Deserialize;
use utoipa::ToSchema;

use super::Items;
use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::ApiRoutes;
use crate::session::{AdminUser, CurrentUser};

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_list, _, _>(list)
        .add::<__path_add, _, _>(add)
        .add::<__path_update, _, _>(update)
        .add::<__path_delete, _, _>(delete)
}

/// A contact update: the version read and the contact's fields, flat (serde cannot refuse
/// unknown fields through `flatten`, so the fields are spelled out here).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactUpdate {
    pub version: i64,
    #[serde(default = "family")]
    pub contact_type: ContactType,
    #[serde(default)]
    pub full_name: String,
    #[serde(default)]
    pub relationship: String,
    #[serde(default)]
    pub phone: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub address: String,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub is_primary: bool,
}

fn family() -> ContactType {
    ContactType::Family
}

impl ContactUpdate {
    fn into_input(self) -> (i64, ContactInput) {
        let input = ContactInput {
            contact_type: self.contact_type,
            full_name: self.full_name,
            relationship: self.relationship,
            phone: self.phone,
            email: self.email,
            address: self.address,
            notes: self.notes,
            is_primary: self.is_primary,
        };
        (self.version, input)
    }
}

/// A client's contacts, primary first.
#[utoipa::path(get, path = "/api/intakes/{id}/contacts", tag = "contacts", params(("id" = String, Path)),
    responses((status = 200, body = Items<Contact>), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<Items<Contact>>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.contacts(&id))
            .await?
            .into(),
    ))
}

/// Adds a contact to a client.
#[utoipa::path(post, path = "/api/intakes/{id}/contacts", tag = "contacts", params(("id" = String, Path)), request_body = ContactInput,
    responses((status = 200, body = Contact), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn add(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
    ApiJson(input): ApiJson<ContactInput>,
) -> ApiResult<ApiJson<Contact>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.add_contact(&actor, &id, input))
            .await?,
    ))
}

/// Updates a contact `{version, ...fields}`.
#[utoipa::path(put, path = "/api/contacts/{id}", tag = "contacts", params(("id" = String, Path)), request_body = ContactUpdate,
    responses((status = 200, body = Contact), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ContactId>,
    ApiJson(body): ApiJson<ContactUpdate>,
) -> ApiResult<ApiJson<Contact>> {
    let actor = user.actor();
    let (version, input) = body.into_input();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.update_contact(&actor, &id, version, input))
            .await?,
    ))
}

/// Deletes a contact.
#[utoipa::path(delete, path = "/api/contacts/{id}", tag = "contacts", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 404, body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    user: AdminUser,
    ApiPath(id): ApiPath<ContactId>,
) -> ApiResult<StatusCode> {
    let actor = user.actor();
    state
        .db
        .call(move |store| store.delete_contact(&actor, &id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
