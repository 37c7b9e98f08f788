//! Carepath's domain: the pipeline rules, validation messages and the SQLite store.
