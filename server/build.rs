//! Rebuilds the server when the built web UI changes, so the embedded copy is current.

fn main() {
    let dist = std::path::Path::new("../web/dist");
    if dist.exists() {
        println!("cargo:rerun-if-changed=../web/dist");
    } else {
        // No web build yet: the server embeds a page saying so. Running the web build
        // later needs `touch server/build.rs` (scripts/test builds the web UI first).
        println!("cargo:rerun-if-changed=build.rs");
    }
}
