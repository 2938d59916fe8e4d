//! Test helpers: the whole app (the server with the pages, as `variago serve` runs it) on a free port with a
//! temporary SQLite file, a chromedriver of our own on another free port driving headless
//! Debian Chromium with a fresh profile, and waits that fail a hung test after a generous time.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use variago_server::{Config, Hub};

/// How long any single wait may take before the test fails as hung.
pub const PATIENCE: Duration = Duration::from_secs(90);
/// Debian's Chromium (package `chromium`).
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Debian's chromedriver (package `chromium-driver`).
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Attempts at a new Chromium session before a test gives up.
const SESSION_TRIES: u32 = 3;

/// Whether the browser tests can run here. Without Chromium they print "skipped" and pass,
/// unless `VARIAGO_REQUIRE_BROWSER=1` says the machine must have it (CI), where they fail.
pub fn browser_available(test: &str) -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    if std::env::var("VARIAGO_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
        panic!("{test}: {CHROMIUM} or {CHROMEDRIVER} is missing and VARIAGO_REQUIRE_BROWSER=1");
    }
    eprintln!("{test}: skipped ({CHROMIUM} or {CHROMEDRIVER} is missing)");
    false
}

/// The app as `variago serve` runs it: the API and the pages on one address.
pub struct App {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The hub, to play the other side of a game or to set a game up.
    pub hub: Arc<Hub>,
    /// The server, to stop it gracefully ([`App::restart`]).
    running: Option<variago_server::Running>,
    dir: tempfile::TempDir,
}

impl App {
    /// Starts the server with the pages on 127.0.0.1:0, a fresh SQLite file and one AI thread.
    pub async fn start() -> App {
        let dir = tempfile::tempdir().expect("temporary directory");
        let running = Self::serve(&dir, "127.0.0.1:0".parse().expect("an address")).await;
        let (addr, hub) = (running.addr, running.hub.clone());
        App { addr, hub, running: Some(running), dir }
    }

    /// The server on `addr` with the database in `dir`.
    async fn serve(dir: &tempfile::TempDir, addr: SocketAddr) -> variago_server::Running {
        let url = format!("sqlite://{}", dir.path().join("games.db").display());
        let mut config = Config::new(addr, url);
        config.ai_threads = 1;
        config.pages = Some(variago_web::pages());
        variago_server::start(config).await.expect("the server starts")
    }

    /// Stops the server gracefully, as SIGTERM does, and starts its successor on the same
    /// address and database once it has stopped (`before_restart` runs in between).
    pub async fn restart(&mut self, before_restart: impl AsyncFnOnce()) {
        let running = self.running.take().expect("a running server");
        running.stop();
        running.wait().await.expect("a clean stop");
        before_restart().await;
        let running = Self::serve(&self.dir, self.addr).await;
        self.hub = running.hub.clone();
        self.running = Some(running);
    }

    /// The full URL of a path.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Creates a game between two people through the hub: its id and both seat tokens.
    pub async fn pair(&self, request: Value) -> (String, String, String) {
        let mut request = request;
        request["color"] = json!("black");
        request["opponent"] = json!({ "kind": "human" });
        let created = self
            .hub
            .create(serde_json::from_value(request).expect("a creation request"), None)
            .await
            .expect("created");
        let joined = self.hub.join(&created.id, Some(&created.invite), None).await.expect("joined");
        (created.id, created.token, joined.token)
    }

    /// Creates a game against the AI through the hub, the person playing `color`: its id and the
    /// person's seat token.
    pub async fn against_ai(&self, request: Value, color: &str, level: u8) -> (String, String) {
        let mut request = request;
        request["color"] = json!(color);
        request["opponent"] = json!({ "kind": "ai", "level": level });
        let created = self
            .hub
            .create(serde_json::from_value(request).expect("a creation request"), None)
            .await
            .expect("created");
        (created.id, created.token)
    }

    /// Plays an action for a seat through the hub (the opponent of the browser).
    pub async fn act(&self, id: &str, token: &str, action: Value) {
        let action = serde_json::from_value(action).expect("an action");
        self.hub.act(id, token, action, false).await.expect("the action is accepted");
    }
}

/// A chromedriver process of this test, in its own process group so that dropping it also ends
/// the browsers it started, even when the test fails half-way.
pub struct Driver {
    port: u16,
    child: std::process::Child,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

impl Driver {
    /// Starts chromedriver on a free port and waits until it listens.
    pub async fn start() -> Driver {
        use std::os::unix::process::CommandExt;
        let port = free_port();
        let child = std::process::Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver { port, child };
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            assert!(tokio::time::Instant::now() < deadline, "chromedriver did not listen on port {port}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        driver
    }

    /// A new headless Chromium session with its own fresh profile and a window of this size (a
    /// phone's screen, emulated, below 500 px).
    pub async fn browser(&self, width: u32, height: u32) -> Browser {
        self.browser_with(width, height, &[]).await
    }

    /// [`Driver::browser`] whose pages see the dark colour-scheme preference
    /// (`prefers-color-scheme: dark`).
    pub async fn dark_browser(&self, width: u32, height: u32) -> Browser {
        self.browser_with(width, height, &["--force-dark-mode"]).await
    }

    /// [`Driver::browser`] with more command-line switches for Chromium.
    async fn browser_with(&self, width: u32, height: u32, switches: &[&str]) -> Browser {
        let profile = tempfile::tempdir().expect("profile directory");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
        ]
        .map(String::from)
        .into_iter()
        .chain([
            format!("--user-data-dir={}", profile.path().display()),
            format!("--window-size={width},{height}"),
        ])
        .chain(switches.iter().map(|s| s.to_string()))
        .collect::<Vec<_>>();
        let mut options = json!({ "binary": CHROMIUM, "args": args });
        if width < 500 {
            // desktop windows are at least 500 px wide: a phone's screen is emulated
            options["mobileEmulation"] = json!({ "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2.0, "touch": true } });
        }
        let capabilities = json!({ "browserName": "chrome", "goog:chromeOptions": options });
        let capabilities = match capabilities {
            Value::Object(map) => map,
            _ => unreachable!("an object literal"),
        };
        // chromedriver now and then resets the connection of a new session on a loaded machine
        // (seen once in a full `cargo test --workspace`): a few tries before giving up
        let mut tries = 0;
        let client = loop {
            let attempt = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&format!("http://127.0.0.1:{}", self.port))
                .await;
            tries += 1;
            match attempt {
                Ok(client) => break client,
                Err(e) if tries >= SESSION_TRIES => panic!("a Chromium session: {e:?}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
            }
        };
        Browser { client, _profile: profile }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // the whole group: chromedriver and the Chromium processes it started
        let group = format!("-{}", self.child.id());
        let _ = std::process::Command::new("kill").args(["-s", "KILL", "--", &group]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser session.
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    _profile: tempfile::TempDir,
}

/// Where screenshots go: `target/screenshots/` of the workspace.
pub fn screenshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

impl Browser {
    /// Opens a URL.
    pub async fn goto(&self, url: &str) {
        self.client.goto(url).await.unwrap_or_else(|e| panic!("opening {url}: {e}"));
    }

    /// Runs JavaScript (a function body with `arguments`) and returns its value.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client.execute(script, args).await.unwrap_or_else(|e| panic!("script {script}: {e}"))
    }

    /// Waits until a JavaScript expression is truthy and returns its value; fails the test
    /// after [`PATIENCE`], saying what it waited for.
    pub async fn until(&self, what: &str, expression: &str) -> Value {
        let script = format!("try {{ return ({expression}); }} catch (e) {{ return null; }}");
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let value = self.js(&script, vec![]).await;
            let truthy = match &value {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::String(s) => !s.is_empty(),
                Value::Number(n) => n.as_f64() != Some(0.0),
                _ => true,
            };
            if truthy {
                return value;
            }
            if tokio::time::Instant::now() > deadline {
                let page = self.js("return document.body ? document.body.innerText : ''", vec![]).await;
                panic!("waited too long for {what} ({expression}); the page reads:\n{page}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Clicks the element a CSS selector finds, waiting for it to be shown and enabled: a page
    /// can hold a button before it shows it (the join button while the game loads), and a click
    /// then fails as "not interactable".
    pub async fn click(&self, css: &str) {
        let shown = format!(
            "((e) => e !== null && e.getClientRects().length > 0 && !e.disabled && getComputedStyle(e).visibility !== 'hidden')(document.querySelector({css:?}))"
        );
        self.until(&format!("{css} to be shown"), &shown).await;
        let element =
            self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("finding {css}: {e}"));
        element.click().await.unwrap_or_else(|e| panic!("clicking {css}: {e}"));
    }

    /// Types text into the input a CSS selector finds.
    pub async fn type_into(&self, css: &str, text: &str) {
        let element =
            self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("finding {css}: {e}"));
        element.send_keys(text).await.unwrap_or_else(|e| panic!("typing into {css}: {e}"));
    }

    /// Chooses an option of a `<select>` by its value.
    pub async fn select(&self, css: &str, value: &str) {
        let element =
            self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("finding {css}: {e}"));
        element.select_by_value(value).await.unwrap_or_else(|e| panic!("choosing {value} in {css}: {e}"));
    }

    /// The text of the element a CSS selector finds ("" if none).
    pub async fn text(&self, css: &str) -> String {
        let value = self
            .js(
                "const e = document.querySelector(arguments[0]); return e ? e.textContent : ''",
                vec![json!(css)],
            )
            .await;
        value.as_str().unwrap_or_default().to_string()
    }

    /// Clicks the intersection of a vertex on the game page's board.
    pub async fn click_point(&self, vertex: &str) {
        self.click(&format!("#board [data-vertex=\"{vertex}\"]")).await;
    }

    /// The moves the page lists.
    pub async fn moves(&self) -> Vec<String> {
        let value = self
            .js("return [...document.querySelectorAll('#moves li')].map(li => li.dataset.move)", vec![])
            .await;
        serde_json::from_value(value).expect("a list of moves")
    }

    /// Waits until the page lists `n` moves.
    pub async fn wait_moves(&self, n: usize) -> Vec<String> {
        self.until(&format!("{n} moves"), &format!("document.querySelectorAll('#moves li').length === {n}"))
            .await;
        self.moves().await
    }

    /// Waits until the element with this id contains a text.
    pub async fn wait_text(&self, id: &str, text: &str) {
        self.until(
            &format!("\"{text}\" in #{id}"),
            &format!("document.getElementById({id:?}).textContent.includes({text:?})"),
        )
        .await;
    }

    /// Waits until the status line contains a text.
    pub async fn wait_status(&self, text: &str) {
        self.wait_text("status", text).await;
    }

    /// Gives this browser a seat (as if it had created or joined the game) and opens the game.
    pub async fn sit(&self, app: &App, id: &str, token: &str, color: &str) {
        self.goto(&app.url("/rules")).await;
        let seat = json!({ id: { "token": token, "color": color, "at": 0 } });
        self.js("localStorage.setItem('variago.seats', JSON.stringify(arguments[0]))", vec![seat]).await;
        self.goto(&app.url(&format!("/game/{id}"))).await;
        self.until("the board", "document.querySelector('#board svg') !== null").await;
    }

    /// Saves a PNG screenshot as `target/screenshots/NAME.png`.
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = screenshot_dir();
        std::fs::create_dir_all(&dir).expect("the screenshot directory");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is written");
    }

    /// Scrolls the page (only as far as needed) until the element a CSS selector finds is in
    /// view, as a player would before looking at it.
    pub async fn scroll_to(&self, css: &str) {
        self.js(
            "document.querySelector(arguments[0]).scrollIntoView({ block: 'nearest', inline: 'nearest' })",
            vec![json!(css)],
        )
        .await;
    }

    /// Saves a PNG screenshot of one element as `target/screenshots/NAME.png`.
    pub async fn screenshot_of(&self, name: &str, css: &str) {
        let element =
            self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("finding {css}: {e}"));
        let png = element.screenshot().await.expect("an element screenshot");
        let dir = screenshot_dir();
        std::fs::create_dir_all(&dir).expect("the screenshot directory");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is written");
    }

    /// Whether the element a CSS selector finds is wholly inside the window as the page is
    /// scrolled now (and shown), give or take a pixel's fraction.
    pub async fn in_view(&self, css: &str) -> bool {
        let script = "const e = document.querySelector(arguments[0]); if (!e || e.offsetParent === null) return false; \
                      const r = e.getBoundingClientRect(); \
                      return r.top >= -1 && r.left >= -1 && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1";
        let inside = self.js(script, vec![json!(css)]).await.as_bool().unwrap_or(false);
        if !inside {
            let rect = self
                .js(
                    "const e = document.querySelector(arguments[0]); \
                     return [e && JSON.stringify(e.getBoundingClientRect()), window.innerWidth, window.innerHeight, window.scrollY]",
                    vec![json!(css)],
                )
                .await;
            eprintln!("{css} is not wholly in view: [rect, window width, height, scrollY] = {rect}");
        }
        inside
    }

    /// Ends the session (and its Chromium).
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}
