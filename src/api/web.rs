//! The reference web client: `GET /` and its files under `/web/`.
//!
//! The client is plain ES modules in `web/src/` (no build step: the files the browser runs are
//! the files in the repository, type-checked by `tsc --checkJs` in scripts/browser.sh), embedded
//! in the binary with `include_bytes!`, so a server needs no Node and no CDN to serve it. build.rs
//! lists the files (every file under `web/src/`, subfolders included, but for `.d.ts` type
//! declarations) rather than a crate that embeds a directory: the list adds no dependency, and a
//! test checks that it names every file.
//!
//! Every response carries a strong `ETag` (SHA-256 of the file) and `Cache-Control: no-cache`
//! ([`super::cache`]): a browser keeps the files but asks again each time, and a new build's
//! files are never served stale from a cache (the modules import one another by plain relative
//! names).

use super::{cache, error::ApiError, state::AppState};
use axum::{
    Router,
    extract::Path,
    http::{HeaderMap, HeaderValue},
    response::{IntoResponse, Response},
    routing::get,
};
use std::sync::LazyLock;

// `FILES`: every file under web/src/, listed by build.rs.
include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// Each file's `ETag`, in the order of [`FILES`].
static ETAGS: LazyLock<Vec<HeaderValue>> =
    LazyLock::new(|| FILES.iter().map(|(_, _, body)| cache::etag(body)).collect());

/// `GET /` (the client's page) and `GET /web/{*file}` (its scripts, styles and icon, some in
/// subfolders: `/web/games/luddo.js`).
pub fn router() -> Router<AppState> {
    Router::new().route("/", get(|headers: HeaderMap| async move { serve("index.html", &headers) })).route(
        "/web/{*file}",
        get(|Path(file): Path<String>, headers: HeaderMap| async move { serve(&file, &headers) }),
    )
}

/// The file named `name`, or 304 when the client's copy is current, or a 404 problem.
fn serve(name: &str, headers: &HeaderMap) -> Response {
    let Some(index) = FILES.iter().position(|(file, _, _)| *file == name) else {
        return ApiError::not_found("no such file of the web client").into_response();
    };
    let (_, content_type, body) = FILES[index];
    cache::serve(headers, ETAGS[index].clone(), content_type, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{StatusCode, header};

    #[test]
    fn every_file_of_the_client_is_served() {
        /// Every file under `dir`, as its path under `root`.
        fn files(root: &std::path::Path, dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    files(root, &path, found);
                } else if !path.to_string_lossy().ends_with(".d.ts") {
                    found.push(path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
                }
            }
        }
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/web/src"));
        let mut on_disk = Vec::new();
        files(root, root, &mut on_disk);
        on_disk.sort();
        let mut served: Vec<String> = FILES.iter().map(|(name, _, _)| name.to_string()).collect();
        served.sort();
        assert_eq!(served, on_disk, "web/src/ and the list in src/api/web.rs must agree");
        for name in &on_disk {
            assert_eq!(serve(name, &HeaderMap::new()).status(), StatusCode::OK, "{name}");
        }
    }

    #[test]
    fn a_current_copy_is_answered_304_and_others_the_file() {
        let mut headers = HeaderMap::new();
        let fresh = serve("app.js", &headers);
        assert_eq!(fresh.status(), StatusCode::OK);
        let etag = fresh.headers()[header::ETAG].clone();
        assert_eq!(fresh.headers()[header::CACHE_CONTROL], "no-cache");
        assert_eq!(fresh.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
        headers.insert(header::IF_NONE_MATCH, etag);
        assert_eq!(serve("app.js", &headers).status(), StatusCode::NOT_MODIFIED);
        assert_eq!(serve("../Cargo.toml", &HeaderMap::new()).status(), StatusCode::NOT_FOUND);
    }
}
