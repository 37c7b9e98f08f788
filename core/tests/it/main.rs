//! Integration tests of the store on real SQLite files in temporary directories.

mod support;

mod assessments;
mod bulk;
mod clients;
mod communications;
mod concurrency;
mod contacts;
mod contracts;
mod dashboard;
mod intakes;
mod read_paths;
mod schema;
mod users;
