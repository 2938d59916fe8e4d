//! variago's browser pages: the lobby, the game page, the rules pages and their assets (HTML, CSS,
//! JavaScript modules, the icon), all embedded in the binary at compile time so that `variago
//! serve` needs no files beside it and no build step (see `docs/web.md`).
//!
//! The pages only talk to the server's JSON API and WebSocket (`/api/...`); this crate serves
//! files and holds no state, so its router goes to the server as it is:
//! `Config { pages: Some(variago_web::pages()), .. }`.

use std::borrow::Cow;

use axum::Router;
use axum::extract::{Path, RawQuery};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

/// A file embedded from `crates/web/assets/`.
struct Asset {
    /// Its path under `/assets/`.
    name: &'static str,
    /// Its bytes.
    body: &'static [u8],
}

/// Embeds the files of `crates/web/assets/` by their paths, so that the list of served files
/// and the list of embedded files are one list.
macro_rules! assets {
    ($($name:literal),* $(,)?) => {
        &[$(Asset { name: $name, body: include_bytes!(concat!("../assets/", $name)) }),*]
    };
}

/// Every asset. A file added to `assets/` is served once it is listed here.
const ASSETS: &[Asset] = assets![
    "style.css",
    "favicon.svg",
    "js/api.js",
    "js/board.js",
    "js/replay.js",
    "js/lobby.js",
    "js/game.js",
    "js/rules.js",
    "js/account.js",
    "js/account-page.js",
    "js/ratings.js",
    "js/player.js",
    "js/chat.js",
];

/// A page: its own `<main>` element (from `crates/web/pages/`) set into the site's layout
/// (`pages/layout.html`: the head, the stylesheet and the site header), so that every page has
/// the same header from one file.
struct Page {
    /// The document's title.
    title: &'static str,
    /// Its script module, under `/assets/js/`.
    script: &'static str,
    /// What the page adds at the end of the site header (the game page's connection status).
    header: &'static str,
    /// Its `<main>` element.
    main: &'static str,
}

const LAYOUT: &str = include_str!("../pages/layout.html");

const LOBBY: Page =
    Page::new("variago · play Go and its variants", "lobby.js", include_str!("../pages/index.html"));
const GAME: Page = Page {
    header: "  <span id=\"connection\" class=\"connection\" role=\"status\" aria-live=\"polite\"></span>\n",
    ..Page::new("Game · variago", "game.js", include_str!("../pages/game.html"))
};
const ACCOUNT: Page =
    Page::new("Log in or sign up · variago", "account-page.js", include_str!("../pages/account.html"));
const RATINGS: Page = Page::new("Ratings · variago", "ratings.js", include_str!("../pages/ratings.html"));
const PLAYER: Page = Page::new("Player · variago", "player.js", include_str!("../pages/player.html"));
/// The rules pages' `<main>`, with `{{heading}}` and `{{body}}` to fill.
const RULES_MAIN: &str = include_str!("../pages/rules.html");

impl Page {
    /// A page that adds nothing to the site header.
    const fn new(title: &'static str, script: &'static str, main: &'static str) -> Page {
        Page { title, script, header: "", main }
    }

    /// The whole document.
    fn render(&self) -> String {
        layout(self.title, self.script, self.header, self.main)
    }
}

/// The layout with a page's parts set in. Its placeholders are filled before the page's `main`
/// goes in, so that nothing in a page's text is taken for one.
fn layout(title: &str, script: &str, header: &str, main: &str) -> String {
    let (before, after) = LAYOUT.split_once("{{main}}").unwrap_or((LAYOUT, ""));
    let fill = |part: &str| {
        part.replace("{{title}}", title).replace("{{script}}", script).replace("{{header}}", header)
    };
    format!("{}{main}{}", fill(before), fill(after))
}

/// A rules page: the variant names it covers (the first names the page), its title, and its
/// body (an HTML fragment from `crates/web/rules/`, set into `rules.html`).
struct RulesPage {
    names: &'static [&'static str],
    title: &'static str,
    body: &'static str,
}

/// The rules pages, in the order the rules index lists them.
const RULES: &[RulesPage] = &[
    RulesPage { names: &["go"], title: "Go", body: include_str!("../rules/go.html") },
    RulesPage {
        names: &["incursion", "incursion-minimal", "incursion-line"],
        title: "Incursion Go",
        body: include_str!("../rules/incursion.html"),
    },
    RulesPage { names: &["stoical"], title: "Stoical Go", body: include_str!("../rules/stoical.html") },
    RulesPage {
        names: &["excursion-1", "excursion-2"],
        title: "Excursion Go (kings)",
        body: include_str!("../rules/excursion.html"),
    },
    RulesPage { names: &["galice"], title: "Galice (Alice Go)", body: include_str!("../rules/galice.html") },
    RulesPage {
        names: &["lifeline"],
        title: "Square Lifeline",
        body: include_str!("../rules/lifeline.html"),
    },
    RulesPage {
        names: &["borderline"],
        title: "Warhorn: Borderline",
        body: include_str!("../rules/borderline.html"),
    },
];

/// The rules index's own text, before the list of pages.
const RULES_INDEX: &str = include_str!("../rules/index.html");

/// The pages' routes: `/`, `/game/{id}`, `/games/{id}` (the server's invitation links),
/// `/rules`, `/rules/{variant}` and `/assets/{path}`, and a 404 page for every other path.
/// Stateless, for `variago_server::Config::pages` (the server merges it beside `/api`).
pub fn pages() -> Router {
    Router::new()
        .route("/", get(|headers: HeaderMap| async move { html(&headers, LOBBY.render()) }))
        .route("/game/{id}", get(|headers: HeaderMap| async move { html(&headers, GAME.render()) }))
        .route("/games/{id}", get(invitation))
        .route("/account", get(|headers: HeaderMap| async move { html(&headers, ACCOUNT.render()) }))
        .route("/ratings", get(|headers: HeaderMap| async move { html(&headers, RATINGS.render()) }))
        .route("/players/{name}", get(|headers: HeaderMap| async move { html(&headers, PLAYER.render()) }))
        .route("/rules", get(|headers: HeaderMap| async move { rules_index(&headers) }))
        .route("/rules/{variant}", get(rules_page))
        .route(
            "/assets/{*path}",
            get(
                |headers: HeaderMap, Path(path): Path<String>| async move { asset_response(&headers, &path) },
            ),
        )
        .fallback(|headers: HeaderMap| async move { not_found(&headers, "There is no such page.") })
}

/// The server's invitation links read `/games/{id}?invite=...`: they lead to the game page.
async fn invitation(Path(id): Path<String>, RawQuery(query): RawQuery) -> Redirect {
    let query = query.map(|q| format!("?{q}")).unwrap_or_default();
    Redirect::to(&format!("/game/{id}{query}"))
}

fn asset(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// An embedded file, or the 404 page.
fn asset_response(headers: &HeaderMap, name: &str) -> Response {
    match asset(name) {
        Some(a) => cached(headers, content_type(a.name), Cow::Borrowed(a.body)),
        None => not_found(headers, "There is no such file."),
    }
}

/// The MIME type of a file name's extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        _ => "application/octet-stream",
    }
}

/// FNV-1a: a cheap, stable hash of a response body for its `ETag`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// What the browser may load: only this origin (the API and its WebSocket included), no inline
/// script, so that a move or a name shown on a page can never run as code.
const SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; \
    frame-ancestors 'none'";

/// A 200 response with validation caching: asset URLs carry no version, so browsers must ask
/// again each time (`no-cache`), and an unchanged file costs a 304 without a body.
fn cached(headers: &HeaderMap, content_type: &'static str, body: Cow<'static, [u8]>) -> Response {
    let etag = format!("\"{:016x}\"", fnv1a(&body));
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
    let mut response = if fresh { StatusCode::NOT_MODIFIED.into_response() } else { body.into_response() };
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(SECURITY_POLICY));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, value);
    }
    response
}

/// Minimal escaping for text set into HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A rules page with a title and a body set in.
fn rules_layout(title: &str, body: &str) -> String {
    let heading = escape(title);
    let (before, after) = RULES_MAIN.split_once("{{body}}").unwrap_or((RULES_MAIN, ""));
    let main = format!("{}{body}{}", before.replace("{{heading}}", &heading), after);
    layout(&format!("{heading} · variago"), "rules.js", "", &main)
}

fn html(headers: &HeaderMap, page: String) -> Response {
    cached(headers, "text/html; charset=utf-8", Cow::Owned(page.into_bytes()))
}

/// `/rules`: the introduction and a link to each variant's page.
fn rules_index(headers: &HeaderMap) -> Response {
    let links: String = RULES
        .iter()
        .map(|page| format!("<li><a href=\"/rules/{}\">{}</a></li>\n", page.names[0], escape(page.title)))
        .collect();
    html(headers, rules_layout("Rules", &format!("{RULES_INDEX}<ul class=\"rules-list\">\n{links}</ul>\n")))
}

/// `/rules/{variant}`: the page covering that variant name, or 404.
async fn rules_page(headers: HeaderMap, Path(variant): Path<String>) -> Response {
    match RULES.iter().find(|page| page.names.contains(&variant.as_str())) {
        Some(page) => html(&headers, rules_layout(page.title, page.body)),
        None => not_found(&headers, "There is no rules page for this variant."),
    }
}

/// The 404 page, in the rules layout (it has the site's header and links).
fn not_found(headers: &HeaderMap, why: &str) -> Response {
    let body = format!("<p>{}</p><p><a href=\"/\">Back to the lobby</a></p>", escape(why));
    let mut response = html(headers, rules_layout("Not found", &body));
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_of_the_rules_engine_has_a_rules_page_and_names_are_unique() {
        let names: Vec<&str> = RULES.iter().flat_map(|p| p.names.iter().copied()).collect();
        for variant in variago_rules::spec::VARIANTS {
            assert!(names.contains(&variant.name), "{}", variant.name);
        }
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
    }

    #[test]
    fn every_page_has_the_site_header_once_and_its_own_title_and_script() {
        for (page, script) in [
            (LOBBY.render(), "lobby.js"),
            (GAME.render(), "game.js"),
            (ACCOUNT.render(), "account-page.js"),
            (RATINGS.render(), "ratings.js"),
            (PLAYER.render(), "player.js"),
            (rules_layout("Go", "<p>rules</p>"), "rules.js"),
        ] {
            assert!(page.starts_with("<!doctype html>") && page.ends_with("</html>\n"), "{page}");
            assert_eq!(page.matches("<header class=\"site\">").count(), 1, "{page}");
            assert_eq!(page.matches("<main").count(), 1, "{page}");
            assert!(page.contains(&format!("src=\"/assets/js/{script}\"")), "{page}");
            assert!(!page.contains("{{"), "{page}");
            // every script module is served
            assert!(asset(&format!("js/{script}")).is_some(), "{script}");
        }
        assert!(GAME.render().contains("id=\"connection\""));
        assert!(LOBBY.render().contains("<title>variago · play Go and its variants</title>"));
    }

    #[test]
    fn layout_placeholders_are_filled_and_titles_escaped() {
        let page = rules_layout("a <b>", "<p>body</p>");
        assert!(page.contains("a &lt;b&gt;") && page.contains("<p>body</p>"));
        assert!(!page.contains("{{"));
    }

    #[test]
    fn content_types_follow_extensions() {
        assert_eq!(content_type("js/game.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("favicon.svg"), "image/svg+xml");
        assert_eq!(content_type("style.css"), "text/css; charset=utf-8");
    }
}
