//! `bir explore` in a real browser: Chromium driven over WebDriver (chromedriver), as a
//! person would use the page. Ignored by default, as it needs Debian's `chromium` and
//! `chromium-driver`; `.ci/run` installs them and runs it with `--ignored`:
//!
//! ```text
//! cargo test -p bir-cli --test browser -- --ignored
//! ```
//!
//! The page's screenshots are saved under `target/tmp/browser/`.

mod common;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{bir_command, json, model, wait_for_compiled, Explorer, TEST_CACHE};
use serde_json::{json, Value};

/// The key of an element reference in WebDriver answers.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

#[test]
#[ignore = "needs chromium and chromium-driver (.ci/run installs them)"]
fn walk_to_the_deadlock_replay_check_and_open_the_report() {
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&shots).expect("the screenshot folder");
    let driver = Driver::start();
    let browser = driver.session();
    // The compiled checker is built (or found in the tests' cache) while the page is used.
    let server = Explorer::compiled(&model("two_dining_philosophers.bir"), &[]);

    // Two clicks to the deadlock: Philosopher1 takes fork1, Philosopher2 takes fork2.
    browser.go(&format!("{}/", server.url));
    browser.wait_text("#model-name", "TwoDiningPhilosophers");
    browser.click("button.choice[data-transition=\"0\"]");
    browser.wait_text("#step", "1");
    browser.click("button.choice[data-transition=\"4\"]");
    browser.wait_text("#status", "deadlock: no transition is enabled");
    assert_eq!(browser.count("#msc .msc-arrow"), 2);
    assert_eq!(browser.count("#variables tr.changed"), 2);
    assert_eq!(browser.count("#choices button.choice"), 0);
    browser.click("#graph-draw");
    browser.wait_count("#graph .node.current", 1);
    assert_eq!(browser.count("#graph .edge.on-path"), 2);
    browser.screenshot(&shots.join("deadlock.png"));

    // A replay string: the other deadlock order.
    browser.click("#reset");
    browser.wait_text("#step", "0");
    browser.type_into("#replay-input", "bir1:4.0");
    browser.click("#replay-load");
    browser.wait_text("#replay-current", "bir1:4.0");
    browser.wait_text("#status", "deadlock");
    assert_eq!(browser.count("#msc .msc-arrow"), 2);
    // A bad one is refused with a message, and the path stays.
    browser.clear("#replay-input");
    browser.type_into("#replay-input", "bir1:0.0");
    browser.click("#replay-load");
    browser.wait_text("#error", "step 2: transition 0 is not enabled");
    assert_eq!(browser.text("#replay-current"), "bir1:4.0");
    browser.screenshot(&shots.join("replay.png"));

    // A breadth-first check from the page on the compiled checker, as `bir check` runs it,
    // its counterexample loaded into the chart.
    wait_for_compiled(&server.address);
    browser.wait_text("#check-engine", "engine: compiled");
    browser.click("#reset");
    browser.click("#check-strategy option[value=\"bfs\"]");
    browser.click("#check-run");
    browser.wait_text("#check-result", "deadlock found (breadth-first search)");
    browser.wait_text("#check-progress", "done on compiled");
    browser.click("#check-load");
    browser.wait_text("#replay-current", "bir1:0.4");
    assert_eq!(browser.count("#msc .msc-arrow"), 2);
    browser.screenshot(&shots.join("check.png"));

    // The HTML report of `bir check --html`, opened from its file.
    let report = shots.join("report.html");
    let status = bir_command()
        .args([
            "check",
            &model("two_dining_philosophers.bir"),
            "--bfs",
            "--cache",
            TEST_CACHE,
            "--html",
        ])
        .arg(&report)
        .stdout(Stdio::null())
        .status()
        .expect("bir check runs");
    assert_eq!(status.code(), Some(1));
    browser.go(&format!("file://{}", report.display()));
    browser.wait_text("#verdict", "deadlock found (breadth-first search)");
    assert_eq!(browser.count(".msc-arrow"), 2);
    assert_eq!(browser.count("table.steps tr"), 3);
    browser.screenshot(&shots.join("report.html.png"));

    // The server answered the page and nothing else went wrong on its side.
    assert_eq!(json(&server.address, "GET", "/api/state", None).status, 200);
    browser.close();
}

#[test]
#[ignore = "needs chromium and chromium-driver (.ci/run installs them)"]
fn the_heap_panel_draws_the_heap_of_a_model_with_records() {
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&shots).expect("the screenshot folder");
    let file = shots.join("heap_list.bir");
    std::fs::write(
        &file,
        "system List {
  record[3] Node { int (0, 3) value; Node next; }
  Node head;
  active thread T() {
    Node n;
    loc a: do { n := new Node; n.value := 1; head := n; } goto b;
    loc b: do { n := new Node; n.value := 2; n.next := head; head := n; } goto c;
    loc c: do { head := head.next; n := null; } goto d;
    loc d: do { assert(head.value == 2); } return;
  }
}",
    )
    .expect("the model written");
    let driver = Driver::start();
    let browser = driver.session();
    let server = Explorer::start(&file.display().to_string());
    browser.go(&format!("{}/", server.url));
    browser.wait_text("#model-name", "List");
    browser.wait_text("#heap .heap-empty", "no objects");
    assert_eq!(browser.count("#heap-panel[hidden]"), 0);
    // One thread: its one enabled transition, twice (push 1, push 2).
    browser.click("button.choice");
    browser.wait_text("#step", "1");
    browser.click("button.choice");
    browser.wait_text("#step", "2");
    browser.wait_count("#heap .heap-object", 2);
    assert_eq!(browser.count("#heap .heap-root"), 2);
    assert_eq!(browser.count("#heap .heap-arrow"), 3);
    assert_eq!(browser.text("#heap .heap-label"), "next");
    browser.screenshot(&shots.join("heap.png"));
    // A model without records has no heap panel.
    let plain = Explorer::start(&model("two_dining_philosophers.bir"));
    browser.go(&format!("{}/", plain.url));
    browser.wait_text("#model-name", "TwoDiningPhilosophers");
    browser.wait_count("#heap-panel[hidden]", 1);
    assert_eq!(browser.count("#heap svg"), 0);
    browser.close();
}

/// chromedriver on a free port, stopped when dropped.
struct Driver {
    child: Child,
    address: String,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let program = std::env::var("BIR_CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let child = Command::new(&program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot run {program} ({e}): apt-get install chromium-driver")
            });
        let driver = Driver {
            child,
            address: format!("127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if std::net::TcpStream::connect(&driver.address).is_ok() {
                let status = driver.call("GET", "/status", None);
                if status["ready"] == true {
                    return driver;
                }
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// One WebDriver command; returns its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let reply = json(&self.address, method, path, body);
        let value = reply.json()["value"].clone();
        assert!(
            reply.status == 200,
            "{method} {path}: {} {}",
            reply.status,
            value
        );
        value
    }

    /// A headless Chromium.
    fn session(&self) -> Browser<'_> {
        let binary = std::env::var("BIR_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1400,1000"],
            },
        }}});
        let value = self.call("POST", "/session", Some(capabilities));
        let id = value["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        Browser { driver: self, id }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser session.
struct Browser<'a> {
    driver: &'a Driver,
    id: String,
}

impl Browser<'_> {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver
            .call(method, &format!("/session/{}{path}", self.id), body)
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn find_all(&self, css: &str) -> Vec<String> {
        let value = self.call(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        value
            .as_array()
            .map(|all| {
                all.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The first element matching `css`, waiting up to 20 s for it.
    fn find(&self, css: &str) -> String {
        self.wait(css, || self.find_all(css).into_iter().next())
    }

    fn count(&self, css: &str) -> usize {
        self.find_all(css).len()
    }

    fn click(&self, css: &str) {
        let element = self.find(css);
        self.call(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    fn clear(&self, css: &str) {
        let element = self.find(css);
        self.call(
            "POST",
            &format!("/element/{element}/clear"),
            Some(json!({})),
        );
    }

    fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css);
        self.call(
            "POST",
            &format!("/element/{element}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        let value = self.call("GET", &format!("/element/{element}/text"), None);
        value.as_str().unwrap_or_default().to_string()
    }

    /// Waits until the element's text contains `expected`.
    fn wait_text(&self, css: &str, expected: &str) {
        self.wait(&format!("{css} to show {expected:?}"), || {
            let found = self.find_all(css).into_iter().next()?;
            let value = self.call("GET", &format!("/element/{found}/text"), None);
            value.as_str().filter(|t| t.contains(expected)).map(|_| ())
        });
    }

    fn wait_count(&self, css: &str, count: usize) {
        self.wait(&format!("{count} of {css}"), || {
            (self.count(css) == count).then_some(())
        });
    }

    /// Polls `probe` for up to 20 s.
    fn wait<T>(&self, what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(found) = probe() {
                return found;
            }
            if Instant::now() > deadline {
                let page = self.call("GET", "/source", None);
                panic!("waited 20 s for {what}; the page:\n{page}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn screenshot(&self, file: &std::path::Path) {
        let value = self.call("GET", "/screenshot", None);
        let png = base64(value.as_str().expect("base64 text"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(file, png).expect("the screenshot is written");
    }

    /// Ends the session (and its browser): dropping it does.
    fn close(self) {}
}

/// A test that fails still closes its browser: chromedriver's end would not.
impl Drop for Browser<'_> {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.id);
        let _ = json(&self.driver.address, "DELETE", &path, None);
    }
}

/// Decodes standard base64 (the screenshots WebDriver sends).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut bits, mut count) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        bits = bits << 6 | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}
