//! Assessment visits: booking, moving, cancelling and holding a client's home visit, and
//! the day and week lists. Booking, moving and cancelling email calendar invitations.

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use carepath_core::model::{
    AssessmentVisit, IntakeId, UserId, VisitAnswer, VisitId, VisitInput, VisitStatus,
};
use carepath_core::store::{Page, VisitQuery};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::Items;
use crate::AppState;
use crate::delivery;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery, ClientAddr};
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_list, _, _>(list)
        .add::<__path_for_intake, _, _>(for_intake)
        .add::<__path_schedule, _, _>(schedule)
        .add::<__path_get, _, _>(get)
        .add::<__path_reschedule, _, _>(reschedule)
        .add::<__path_cancel, _, _>(cancel)
        .add::<__path_done, _, _>(done)
        .add::<__path_feed_status, _, _>(feed_status)
        .add::<__path_create_feed, _, _>(create_feed)
        .add::<__path_revoke_feed, _, _>(revoke_feed)
        .add::<__path_feed, _, _>(feed)
}

/// The calendar feed's address: open without a session, its token is the authorization.
pub const FEED_PATH: &str = "/api/public/calendar/{token}";

/// Whether the signed-in user has a calendar feed.
#[derive(Serialize, ToSchema)]
pub struct CalendarFeedStatus {
    pub active: bool,
    pub created_at: Option<String>,
}

/// A new calendar feed: its secret address, shown once.
#[derive(Serialize, ToSchema)]
pub struct CalendarFeedAddress {
    pub url: String,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// First day, YYYY-MM-DD in the agency's zone.
    pub from: Option<String>,
    /// Last day (included), YYYY-MM-DD in the agency's zone.
    pub to: Option<String>,
    pub assessor_id: Option<String>,
    pub status: Option<VisitStatus>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// A move of a visit: the version read and the visit's fields, flat (serde cannot refuse
/// unknown fields through `flatten`, so the fields are spelled out here).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VisitUpdate {
    pub version: i64,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub start_time: String,
    #[serde(default)]
    pub duration_minutes: u32,
    #[serde(default)]
    pub place: String,
    #[serde(default = "no_user")]
    pub assessor_id: UserId,
    #[serde(default)]
    pub notes: String,
}

fn no_user() -> UserId {
    UserId::from("")
}

impl VisitUpdate {
    fn into_input(self) -> (i64, VisitInput) {
        let input = VisitInput {
            date: self.date,
            start_time: self.start_time,
            duration_minutes: self.duration_minutes,
            place: self.place,
            assessor_id: self.assessor_id,
            notes: self.notes,
        };
        (self.version, input)
    }
}

/// Calling a visit off: the version read and why.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VisitCancel {
    pub version: i64,
    #[serde(default)]
    pub reason: String,
}

/// The version read.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VisitVersion {
    pub version: i64,
}

/// Visits in a range of days, soonest first.
#[utoipa::path(get, path = "/api/visits", tag = "visits", params(ListQuery),
    responses((status = 200, body = Page<AssessmentVisit>), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<ApiJson<Page<AssessmentVisit>>> {
    let query = VisitQuery {
        from: query.from,
        to: query.to,
        assessor_id: query.assessor_id,
        status: query.status,
        cursor: query.cursor,
        limit: query.limit,
    };
    Ok(ApiJson(
        state.db.call(move |store| store.visits(&query)).await?,
    ))
}

/// A client's visits, newest first.
#[utoipa::path(get, path = "/api/intakes/{id}/visits", tag = "visits", params(("id" = String, Path)),
    responses((status = 200, body = Items<AssessmentVisit>), (status = 401, body = ErrorBody)))]
pub async fn for_intake(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<Items<AssessmentVisit>>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.intake_visits(&id))
            .await?
            .into(),
    ))
}

/// Books an assessment visit for a client.
#[utoipa::path(post, path = "/api/intakes/{id}/visits", tag = "visits", params(("id" = String, Path)), request_body = VisitInput,
    responses((status = 200, body = VisitAnswer), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn schedule(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
    ApiJson(input): ApiJson<VisitInput>,
) -> ApiResult<ApiJson<VisitAnswer>> {
    let actor = user.actor();
    let mut answer = state
        .db
        .call(move |store| store.schedule_visit(&actor, &id, &input))
        .await?;
    let failures = delivery::send_invitations(&state, user.actor(), answer.visit.id.clone()).await;
    answer.warnings.extend(failures);
    Ok(ApiJson(answer))
}

/// One visit.
#[utoipa::path(get, path = "/api/visits/{id}", tag = "visits", params(("id" = String, Path)),
    responses((status = 200, body = AssessmentVisit), (status = 404, body = ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<VisitId>,
) -> ApiResult<ApiJson<AssessmentVisit>> {
    Ok(ApiJson(state.db.call(move |store| store.visit(&id)).await?))
}

/// Moves a scheduled visit `{version, ...fields}`.
#[utoipa::path(put, path = "/api/visits/{id}", tag = "visits", params(("id" = String, Path)), request_body = VisitUpdate,
    responses((status = 200, body = VisitAnswer), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn reschedule(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<VisitUpdate>,
) -> ApiResult<ApiJson<VisitAnswer>> {
    let actor = user.actor();
    let (version, input) = body.into_input();
    let mut answer = state
        .db
        .call(move |store| store.reschedule_visit(&actor, &id, version, &input))
        .await?;
    let failures = delivery::send_invitations(&state, user.actor(), answer.visit.id.clone()).await;
    answer.warnings.extend(failures);
    Ok(ApiJson(answer))
}

/// Calls a scheduled visit off, with a reason; the calendars are told to remove it.
#[utoipa::path(post, path = "/api/visits/{id}/cancel", tag = "visits", params(("id" = String, Path)), request_body = VisitCancel,
    responses((status = 200, body = VisitAnswer), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn cancel(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<VisitCancel>,
) -> ApiResult<ApiJson<VisitAnswer>> {
    let actor = user.actor();
    let visit = state
        .db
        .call(move |store| store.cancel_visit(&actor, &id, body.version, &body.reason))
        .await?;
    let warnings = delivery::send_invitations(&state, user.actor(), visit.id.clone()).await;
    Ok(ApiJson(VisitAnswer { visit, warnings }))
}

/// Records that a scheduled visit took place.
#[utoipa::path(post, path = "/api/visits/{id}/done", tag = "visits", params(("id" = String, Path)), request_body = VisitVersion,
    responses((status = 200, body = AssessmentVisit), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn done(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<VisitId>,
    ApiJson(body): ApiJson<VisitVersion>,
) -> ApiResult<ApiJson<AssessmentVisit>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.mark_visit_done(&actor, &id, body.version))
            .await?,
    ))
}

/// Whether the signed-in user has a private calendar feed of their visits.
#[utoipa::path(get, path = "/api/calendar-feed", tag = "visits",
    responses((status = 200, body = CalendarFeedStatus), (status = 401, body = ErrorBody)))]
pub async fn feed_status(
    State(state): State<AppState>,
    user: CurrentUser,
) -> ApiResult<ApiJson<CalendarFeedStatus>> {
    let user_id = user.user.id.clone();
    let created_at = state
        .db
        .call(move |store| store.calendar_feed_created_at(&user_id))
        .await?;
    Ok(ApiJson(CalendarFeedStatus {
        active: created_at.is_some(),
        created_at,
    }))
}

/// Makes a new private calendar feed address for the signed-in user (an older one stops
/// working). The address is in this answer only.
#[utoipa::path(post, path = "/api/calendar-feed", tag = "visits",
    responses((status = 200, body = CalendarFeedAddress), (status = 401, body = ErrorBody)))]
pub async fn create_feed(
    State(state): State<AppState>,
    user: CurrentUser,
) -> ApiResult<ApiJson<CalendarFeedAddress>> {
    let actor = user.actor();
    let token = state
        .db
        .call(move |store| store.create_calendar_feed(&actor))
        .await?;
    let base = state.config.public_url.base.trim_end_matches('/');
    Ok(ApiJson(CalendarFeedAddress {
        url: format!("{base}{}", FEED_PATH.replace("{token}", &token)),
    }))
}

/// Revokes the signed-in user's calendar feed.
#[utoipa::path(delete, path = "/api/calendar-feed", tag = "visits",
    responses((status = 204), (status = 401, body = ErrorBody)))]
pub async fn revoke_feed(
    State(state): State<AppState>,
    user: CurrentUser,
) -> ApiResult<StatusCode> {
    let actor = user.actor();
    state
        .db
        .call(move |store| store.revoke_calendar_feed(&actor))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A member of staff's visits as an iCalendar document, for a calendar program to
/// subscribe to. A bad address spends one of the caller's link attempts, as the
/// family's links do.
#[utoipa::path(get, path = "/api/public/calendar/{token}", tag = "public", params(("token" = String, Path)),
    responses((status = 200, content_type = "text/calendar", body = String), (status = 304, description = "Unchanged since the ETag sent in If-None-Match"), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn feed(
    State(state): State<AppState>,
    client: ClientAddr,
    headers: axum::http::HeaderMap,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<Response> {
    let feed = match state.feeds.get(&token, &state.sessions) {
        Some(feed) => feed,
        None => {
            let before = state.sessions.version();
            let key = token.clone();
            let body =
                crate::throttle::with_link(&state, &client, move |store| store.calendar_feed(&key))
                    .await?;
            state.feeds.put(&token, body, before, &state.sessions)
        }
    };
    let etag = HeaderValue::from_str(&feed.etag).map_err(crate::error::ApiError::internal)?;
    let unchanged = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|tag| tag.trim() == feed.etag || tag.trim() == "*");
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        feed.body.into_response()
    };
    let answer = response.headers_mut();
    answer.insert(header::ETAG, etag);
    answer.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/calendar; charset=utf-8"),
    );
    Ok(response)
}
