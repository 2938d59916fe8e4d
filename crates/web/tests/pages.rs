//! The pages' HTTP side without a browser: every route answers with the right status, content
//! type and cache headers, unchanged files cost a 304, and every asset a page or a module refers
//! to is served.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// A GET through the pages' router: status, headers and body text.
async fn get(path: &str, etag: Option<&str>) -> (StatusCode, header::HeaderMap, String) {
    let mut request = Request::get(path);
    if let Some(tag) = etag {
        request = request.header(header::IF_NONE_MATCH, tag);
    }
    let response = variago_web::pages().oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (parts.status, parts.headers, String::from_utf8_lossy(&bytes).into_owned())
}

fn content_type(headers: &header::HeaderMap) -> &str {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default()
}

#[tokio::test]
async fn pages_are_html_with_validation_caching() {
    for path in
        ["/", "/game/0123456789abcdef", "/rules", "/rules/go", "/rules/incursion-line", "/rules/borderline"]
    {
        let (status, headers, body) = get(path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(content_type(&headers), "text/html; charset=utf-8", "{path}");
        assert_eq!(headers[header::CACHE_CONTROL], "no-cache", "{path}");
        assert!(body.starts_with("<!doctype html>"), "{path}");
        assert!(!body.contains("{{"), "{path}: a placeholder is left");
        let etag = headers[header::ETAG].to_str().unwrap().to_string();
        let (status, _, body) = get(path, Some(&etag)).await;
        assert_eq!((status, body.as_str()), (StatusCode::NOT_MODIFIED, ""), "{path}");
    }
}

#[tokio::test]
async fn unknown_pages_are_404_and_invitation_links_lead_to_the_game_page() {
    for path in ["/rules/chess", "/assets/nope.js", "/assets/../Cargo.toml", "/nothing/here"] {
        let (status, headers, _) = get(path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(content_type(&headers), "text/html; charset=utf-8", "{path}");
    }
    let (status, headers, _) = get("/games/abc?invite=xyz", None).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers[header::LOCATION], "/game/abc?invite=xyz");
}

#[tokio::test]
async fn every_asset_a_page_or_module_refers_to_is_served_with_its_type() {
    let mut pending: Vec<String> = vec!["/".into(), "/game/x".into(), "/rules/go".into()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(path) = pending.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let (status, headers, body) = get(&path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let expected = match path.rsplit_once('.').map(|(_, ext)| ext) {
            Some("js") => "text/javascript; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("svg") => "image/svg+xml",
            _ => "text/html; charset=utf-8",
        };
        assert_eq!(content_type(&headers), expected, "{path}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        // absolute references in pages, relative imports in modules
        for piece in body.split(['"', '\'']) {
            if piece.starts_with("/assets/") {
                pending.push(piece.to_string());
            } else if let Some(module) = piece.strip_prefix("./").filter(|p| p.ends_with(".js")) {
                let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
                pending.push(format!("{dir}/{module}"));
            }
        }
    }
    for module in ["api", "board", "replay", "lobby", "game", "rules"] {
        assert!(seen.contains(&format!("/assets/js/{module}.js")), "{module}.js is never loaded");
    }
}
