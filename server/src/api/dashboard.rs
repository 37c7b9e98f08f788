//! The dashboard, client search and analytics.

use axum::extract::State;
use carepath_core::model::{IntakeBrief, IntakeSummary};
use carepath_core::store::{Analytics, AnalyticsRange, Dashboard, OwnerFilter, Page};
use serde::Deserialize;
use utoipa::IntoParams;

use super::Items;
use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiQuery};
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_dashboard, _, _>(dashboard)
        .add::<__path_follow_ups, _, _>(follow_ups)
        .add::<__path_search, _, _>(search)
        .add::<__path_analytics, _, _>(analytics)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DashboardQuery {
    /// `me` (the signed-in user's clients), `unassigned`, or a user's id: the cards count
    /// their clients by their latest records and the lists hold theirs only.
    pub owner: Option<String>,
}

/// Counts, follow-ups due today and the 10 latest intakes.
#[utoipa::path(get, path = "/api/dashboard", tag = "dashboard", params(DashboardQuery),
    responses((status = 200, body = Dashboard), (status = 401, body = ErrorBody)))]
pub async fn dashboard(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(query): ApiQuery<DashboardQuery>,
) -> ApiResult<ApiJson<Dashboard>> {
    let owner = OwnerFilter::parse(query.owner.as_deref(), &user.user.id);
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.dashboard_for(owner.as_ref()))
            .await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FollowUpsQuery {
    /// The dashboard's `owner`, when it was filtered.
    pub owner: Option<String>,
    /// The dashboard's `follow_ups_next_cursor`, or a page's `next_cursor`.
    pub cursor: Option<String>,
}

/// The next page of today's follow-ups, earliest first (the dashboard has the first).
#[utoipa::path(get, path = "/api/dashboard/follow-ups", tag = "dashboard", params(FollowUpsQuery),
    responses((status = 200, body = Page<IntakeBrief>), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn follow_ups(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(query): ApiQuery<FollowUpsQuery>,
) -> ApiResult<ApiJson<Page<IntakeBrief>>> {
    let owner = OwnerFilter::parse(query.owner.as_deref(), &user.user.id);
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.follow_ups_due_today_for(owner.as_ref(), query.cursor.as_deref())
            })
            .await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// At least 2 characters (fewer answer an empty list), at most 100 (more are a 400).
    #[serde(default)]
    pub q: String,
}

/// Up to 10 intakes whose client name, caller phone or caller email match.
#[utoipa::path(get, path = "/api/search", tag = "dashboard", params(SearchQuery),
    responses((status = 200, body = Items<IntakeSummary>), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn search(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> ApiResult<ApiJson<Items<IntakeSummary>>> {
    let found = state.db.call(move |store| store.search(&query.q)).await?;
    Ok(ApiJson(found.into()))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnalyticsQuery {
    /// First day (`YYYY-MM-DD`); default 89 days before `to`.
    pub from: Option<String>,
    /// Last day, included (`YYYY-MM-DD`); default today in the agency's time zone.
    pub to: Option<String>,
}

/// For the clients whose intake was created in the range: the funnel with conversion and
/// drop-off, days from intake to assessment, proposal and signed contract (median and
/// 90th percentile), leads and signed contracts by source, new intakes per week, speed to
/// lead with the clients still waiting, declined reasons.
#[utoipa::path(get, path = "/api/analytics", tag = "dashboard", params(AnalyticsQuery),
    responses((status = 200, body = Analytics), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn analytics(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiQuery(query): ApiQuery<AnalyticsQuery>,
) -> ApiResult<ApiJson<Analytics>> {
    Ok(ApiJson(
        state
            .db
            .call_long(move |store| {
                let today = store.clock()?.today();
                let range =
                    AnalyticsRange::parse(query.from.as_deref(), query.to.as_deref(), today)?;
                store.analytics(range)
            })
            .await?,
    ))
}
