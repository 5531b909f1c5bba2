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
//!
//! `LUDDO_WEB_DIR` serves the client from a folder instead (read at each request, the same
//! names and types): for working on the client without building the server again.

use super::{cache, error::ApiError, state::AppState};
use axum::{
    Router,
    extract::Path,
    http::{HeaderMap, HeaderValue},
    response::{IntoResponse, Response},
    routing::get,
};
use std::{path::PathBuf, sync::LazyLock};

// `FILES`: every file under web/src/, listed by build.rs.
include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// Each file's `ETag`, in the order of [`FILES`].
static ETAGS: LazyLock<Vec<HeaderValue>> =
    LazyLock::new(|| FILES.iter().map(|(_, body)| cache::etag(body)).collect());

/// `GET /` (the client's page) and `GET /web/{*file}` (its scripts, styles, messages and icon,
/// some in subfolders: `/web/games/luddo.js`): the files built in, or those of `folder`.
pub fn router(folder: Option<PathBuf>) -> Router<AppState> {
    let index_folder = folder.clone();
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move { serve("index.html", index_folder.as_deref(), &headers).await }),
        )
        .route(
            "/web/{*file}",
            get(|Path(file): Path<String>, headers: HeaderMap| async move {
                serve(&file, folder.as_deref(), &headers).await
            }),
        )
}

/// The content type of a client file named `name`, by its extension; `None` for a kind of file
/// the client does not have.
fn content_type(name: &str) -> Option<&'static str> {
    Some(match name.rsplit_once('.')?.1 {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "ftl" | "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => return None,
    })
}

/// The file named `name`, or 304 when the client's copy is current, or a 404 problem.
async fn serve(name: &str, folder: Option<&std::path::Path>, headers: &HeaderMap) -> Response {
    let missing = || ApiError::not_found("no such file of the web client").into_response();
    let Some(content_type) = content_type(name) else { return missing() };
    let Some(folder) = folder else {
        let Some(index) = FILES.iter().position(|(file, _)| *file == name) else { return missing() };
        return cache::serve(headers, ETAGS[index].clone(), content_type, FILES[index].1);
    };
    // Only plain names below the folder: no `..`, no absolute path, no hidden file.
    if name.split('/').any(|part| part.is_empty() || part.starts_with('.')) || name.contains('\\') {
        return missing();
    }
    match tokio::fs::read(folder.join(name)).await {
        Ok(body) => cache::serve(headers, cache::etag(&body), content_type, body),
        Err(_) => missing(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{StatusCode, header};

    #[tokio::test]
    async fn every_file_of_the_client_is_served() {
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
        let mut served: Vec<String> = FILES.iter().map(|(name, _)| name.to_string()).collect();
        served.sort();
        assert_eq!(served, on_disk, "web/src/ and the list in src/api/web.rs must agree");
        for name in &on_disk {
            assert!(content_type(name).is_some(), "{name}: no content type for this kind of file");
            assert_eq!(serve(name, None, &HeaderMap::new()).await.status(), StatusCode::OK, "{name}");
        }
    }

    #[tokio::test]
    async fn a_client_folder_serves_its_files_and_nothing_outside_it() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/web/src"));
        let served = serve("app.js", Some(root), &HeaderMap::new()).await;
        assert_eq!(served.status(), StatusCode::OK);
        assert_eq!(served.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
        for outside in [
            "../Cargo.toml",
            "../build.rs",
            "/etc/passwd.js",
            "games/../../build.rs",
            ".hidden.js",
            "a//b.js",
        ] {
            assert_eq!(
                serve(outside, Some(root), &HeaderMap::new()).await.status(),
                StatusCode::NOT_FOUND,
                "{outside}"
            );
        }
        assert_eq!(serve("nothing.js", Some(root), &HeaderMap::new()).await.status(), StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn a_current_copy_is_answered_304_and_others_the_file() {
        let mut headers = HeaderMap::new();
        let fresh = serve("app.js", None, &headers).await;
        assert_eq!(fresh.status(), StatusCode::OK);
        let etag = fresh.headers()[header::ETAG].clone();
        assert_eq!(fresh.headers()[header::CACHE_CONTROL], "no-cache");
        assert_eq!(fresh.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
        headers.insert(header::IF_NONE_MATCH, etag);
        assert_eq!(serve("app.js", None, &headers).await.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(serve("../Cargo.toml", None, &HeaderMap::new()).await.status(), StatusCode::NOT_FOUND);
    }
}
