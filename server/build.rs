//! Embeds the built web UI's hashed assets (compressed here, once, by memory-serve) and
//! rebuilds the server when the web build changes, so the embedded copy is current.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(web_assets)");
    let dist = std::path::Path::new("../web/dist");
    let assets = dist.join("assets");
    if assets.is_dir() {
        println!("cargo:rerun-if-changed=../web/dist");
        println!("cargo:rustc-cfg=web_assets");
        // SAFETY: the build script is single-threaded; this only quiets memory-serve's
        // line per file (it reads the variable).
        unsafe { std::env::set_var("MEMORY_SERVE_QUIET", "1") };
        // Embedded in debug builds too: the browser tests run a debug binary on its own.
        memory_serve::load_names_directories([("assets", assets)], true);
    } else {
        // No web build yet: the server embeds a page saying so. Running the web build
        // later needs `touch server/build.rs` (scripts/test builds the web UI first).
        println!("cargo:rerun-if-changed=build.rs");
    }
}
