//! Integration tests of the HTTP server.
