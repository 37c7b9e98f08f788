//! Where the database lives when no --db is given.

use std::path::PathBuf;

/// `--db`/`CAREPATH_DB`, else `$XDG_DATA_HOME/carepath/carepath.db`, else
/// `~/.local/share/carepath/carepath.db`, else `./carepath.db`.
pub fn resolve(explicit: Option<PathBuf>) -> PathBuf {
    if let Some(path) = explicit {
        return path;
    }
    let data_home = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|home| PathBuf::from(home).join(".local/share"))
        });
    match data_home {
        Some(dir) => dir.join("carepath").join("carepath.db"),
        None => PathBuf::from("carepath.db"),
    }
}
