//! `bir explore`: the model in the browser. A small local web server (tiny_http, one
//! request at a time; a check runs beside it) serves one page, embedded in the binary
//! (`page.html`, `page.js`, `page.css`: nothing is fetched from elsewhere), and a JSON API
//! the page drives: the guided simulation of [`crate::session`], the path as a
//! message-sequence chart, the heap of the current state as a graph (a model with records:
//! the state view's `heap`, `GET /api/heap.svg`; the model view's `heap` says whether the
//! page shows its panel), the state graph of a small model, and checks with the same
//! engine and limits as `bir check`.
//!
//! The engine of checks ([`engine`]): at start the model's compiled checker is built, or
//! found in the cache (`--cache DIR`), on a thread of its own; once it is there a check runs
//! on it, as `bir check` runs (in the driver's served mode, [`child`]: progress lines on its
//! stderr, `cancel` on its stdin, the outcome as JSON on its stdout). Until then, with
//! `--interpret`, or when it cannot be built, checks run on the interpreter ([`check`]).
//! Stepping, the chart, the heap and the state graph always use the interpreter. The model view
//! (`GET /api/model`) and the check view (`GET /api/check`) name the engine of the next
//! check in `engine` (`compiled`, `building` or `interpreter (why)`, shown beside the
//! check button), and the check view names the engine of the check it shows in
//! `check_engine`; its `progress`, `result` (verdict, text, replay string, JSON report) or
//! `error` read the same for both engines.
//!
//! Safe by default: the server listens on 127.0.0.1 unless `--listen` says otherwise;
//! it answers only requests whose `Host` is an IP address or `localhost` (a page on another
//! site that rebinds its DNS name to 127.0.0.1 still sends its own name), and refuses a
//! request whose `Origin` is not the server itself. Every input is checked: a bad
//! transition id, a bad replay string, a body over [`guard::MAX_BODY`] bytes or not JSON is a
//! 4xx answer with a message, never a panic.

mod api;
mod check;
mod child;
mod engine;
mod guard;

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use bir_interp::Interpreter;

use crate::args::ExploreOptions;
use engine::Engine;

/// Runs the server until the process is stopped; returns the exit status if it cannot start.
pub fn run(options: &ExploreOptions) -> u8 {
    let overrides = options.input.overrides();
    let loaded = match crate::load(&options.input.model, &overrides, false) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let model = Interpreter::new(&loaded.system);
    let ip = options.listen.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let server = match tiny_http::Server::http(SocketAddr::new(ip, options.port)) {
        Ok(server) => server,
        Err(error) => {
            eprintln!(
                "bir: error: cannot listen on {}: {error} (choose another with --port, or --port 0 for any free one)",
                SocketAddr::new(ip, options.port)
            );
            return 2;
        }
    };
    let port = match server.server_addr().to_ip() {
        Some(address) => address.port(),
        None => options.port,
    };
    let shown = if ip.is_unspecified() || ip.is_loopback() {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        ip
    };
    let url = match shown {
        IpAddr::V6(v6) => format!("http://[{v6}]:{port}/"),
        IpAddr::V4(v4) => format!("http://{v4}:{port}/"),
    };
    let file = options.input.model.display().to_string();
    // Started once the server listens: a port in use is said at once, not after a build.
    let engine = if options.engine.interpret {
        Engine::interpreter("--interpret")
    } else {
        Engine::build(
            options.engine.cache.clone(),
            loaded.source,
            overrides,
            loaded.system.name.clone(),
        )
    };
    let mut app = api::App::new(model, file, port, engine);
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "bir explore: {} at {url}", app.name());
        let _ = writeln!(
            out,
            "open that address in a browser; Ctrl-C stops the server"
        );
        let _ = out.flush();
    }
    for request in server.incoming_requests() {
        app.handle(request);
    }
    0
}
