//! Integration tests of the store on real SQLite files in temporary directories.

mod support;

mod analytics;
mod analytics_milestones;
mod assessments;
mod bulk;
mod clients;
mod communications;
mod concurrency;
mod contacts;
mod contracts;
mod dashboard;
mod documents;
mod finished;
mod handoff;
mod import;
mod import_props;
mod inbound;
mod intakes;
mod pipeline_moves;
mod queue;
mod read_paths;
mod reminders;
mod schema;
mod signing;
mod tidy;
mod users;
mod visits;
