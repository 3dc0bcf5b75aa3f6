//! The compiled engine of `bir check` and `bir explore`, as SPIN's `pan.c`: the model
//! (after `--set`) is expanded by the code generator `bir!` uses into a small crate, built
//! once in release mode with cargo, and run; the binary links `bir-driver`, so it reads the
//! same options and prints the same report as the interpreter path (`bir explore` runs it
//! in the driver's served mode, `bir_driver::stream`).
//!
//! The crates live in a cache directory (`--cache DIR`, else `$XDG_CACHE_HOME/bir`, else
//! `~/.cache/bir`):
//!
//! ```text
//! DIR/models/<key>/Cargo.toml, Cargo.lock, src/main.rs, src/model.rs   one crate per model
//! DIR/models/<key>/built       the marker: written after a successful build
//! DIR/models/<key>/build.log   cargo's output when a build failed
//! DIR/target/                  one target directory: the runtime is compiled once per profile
//! DIR/builds.log               one line per build: `<key> <seconds> <first|model> <bytes>`
//! DIR/explore/                 the HTML reports of `bir explore`'s checks while they run
//! ```
//!
//! The key hashes everything the binary depends on: the generated code (the model text and
//! its substitutions, as the code generator of this `bir` expands them), this `bir`'s
//! version, the sources of the crates it links (the hash of the copies it carries), and
//! the compiler's version.
//! No option of `bir check` but `--set` changes the generated code: the binary reads the
//! others when it runs, so one build serves every search of the model. A second check of
//! the same model finds the marker and runs the binary without cargo.
//!
//! The crates are built with cargo's `release` profile. `BIR_CACHE_PROFILE=dev` builds them
//! unoptimised instead (a model in a few seconds rather than a few dozen, a search many
//! times slower): for the tool's own tests, which check what the checker says, not how fast.
//! The profile is part of the key.
//!
//! The crate depends on `bir-runtime` and `bir-driver` by path, in a copy of their sources
//! that this `bir` carries (`build.rs` embeds them when it is built in the checkout, as
//! `cargo install --path bir-cli` does) and writes on first use, beside the crates:
//!
//! ```text
//! DIR/sources/<version>-<hash>/   bir-model, bir-runtime, bir-driver, bir-dist and a
//!                                 workspace manifest they inherit from; `complete` when written
//! ```
//!
//! so that an installed `bir` compiles checkers after its checkout is gone; their
//! dependencies from crates.io are fetched by cargo (or found in its local registry). A
//! `bir` built from its packaged crate (`cargo install bir-cli`) carries no sources: its
//! checkers depend on the same versions of `bir-runtime` and `bir-driver` from the
//! registry. When cargo is missing or fails, [`check`] and [`binary`] say why and the
//! caller checks with the interpreter.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use bir_codegen::{ir, Overrides};
use bir_driver::SearchOptions;
use proc_macro2::TokenStream;

use crate::fnv::Fnv;

/// The environment variable that chooses the cargo profile of compiled checkers.
pub const PROFILE_VARIABLE: &str = "BIR_CACHE_PROFILE";

/// The cargo profile compiled checkers are built with (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Profile {
    /// Optimised: what users run.
    Release,
    /// Unoptimised, without debug information: quick to build, for tests.
    Dev,
}

impl Profile {
    /// `BIR_CACHE_PROFILE`: `release` (or unset) or `dev`.
    fn from_environment() -> Result<Profile, Unavailable> {
        match std::env::var(PROFILE_VARIABLE).as_deref() {
            Err(_) | Ok("" | "release") => Ok(Profile::Release),
            Ok("dev") => Ok(Profile::Dev),
            Ok(other) => Err(Unavailable(format!(
                "{PROFILE_VARIABLE}=`{other}`: expected `release` or `dev`"
            ))),
        }
    }

    /// The profile's name for `cargo build --profile`.
    fn name(self) -> &'static str {
        match self {
            Profile::Release => "release",
            Profile::Dev => "dev",
        }
    }

    /// The folder of the target directory that cargo builds the profile into.
    fn folder(self) -> &'static str {
        match self {
            Profile::Release => "release",
            Profile::Dev => "debug",
        }
    }
}

/// Bumped when the layout of the cached crate changes.
const FORMAT: &str = "bir-model-cache 2";

/// The marker of a built crate, in its directory: holds the binary's path.
const MARKER: &str = "built";

/// The build history, in the cache directory: one line per build.
pub const BUILDS_LOG: &str = "builds.log";

/// Why the compiled engine cannot check a model here: a sentence for a note, after which
/// the model is checked with the interpreter.
#[derive(Debug)]
pub struct Unavailable(pub String);

/// Checks the model `source` (whose checked form is `system`) with `overrides` applied,
/// with a checker compiled from it ([`binary`]); the binary prints the report. Returns its
/// exit status.
///
/// A time limit bounds the whole check: a build estimated to take longer is not started
/// (the caller checks with the interpreter instead), and the search gets what the build
/// left of it.
pub fn check(
    dir: Option<&Path>,
    source: &str,
    overrides: &Overrides,
    system: &ir::System,
    options: &SearchOptions,
) -> Result<u8, Unavailable> {
    let start = Instant::now();
    let dist = options.dist.is_some();
    let binary = binary(
        dir,
        source,
        overrides,
        &system.name,
        dist,
        options.time_limit,
    )?;
    let mut options = options.clone();
    if let Some(limit) = options.time_limit {
        // A search needs a positive limit; one that has run out stops at once, incomplete.
        let left = limit.saturating_sub(start.elapsed());
        options.time_limit = Some(left.max(Duration::from_millis(1)));
    }
    let status = Command::new(&binary)
        .arg(argument(&options)?)
        .status()
        .map_err(|error| Unavailable(format!("cannot run `{}`: {error}", binary.display())))?;
    Ok(match status.code() {
        Some(code) => u8::try_from(code).unwrap_or(101),
        None => {
            eprintln!("bir: error: the compiled checker was stopped by a signal ({status})");
            101
        }
    })
}

/// The compiled checker of the model `source` (the system `name`) with `overrides`
/// applied: built on first use, then taken from the cache `dir` (or the default cache when
/// `None`). With `dist`, a checker that can also search across the workers of a timely
/// dataflow (`bir-dist`, which its first build compiles: kept apart from the others).
/// A build estimated to take longer than `budget` is refused.
pub fn binary(
    dir: Option<&Path>,
    source: &str,
    overrides: &Overrides,
    name: &str,
    dist: bool,
    budget: Option<Duration>,
) -> Result<PathBuf, Unavailable> {
    let root = cache_root(dir)?;
    let profile = Profile::from_environment()?;
    let code = generate(source, overrides)?;
    let key = key(&code, profile, dist)?;
    let crate_dir = root.join("models").join(&key);
    match built(&crate_dir, &code) {
        Some(binary) => Ok(binary),
        None => {
            let first = !root.join("target").join(profile.folder()).is_dir();
            let bytes = code.len() as u64;
            let estimate = estimate(&root, first, bytes);
            if let Some(budget) = budget.filter(|b| Duration::from_secs(estimate) > *b) {
                return Err(Unavailable(format!(
                    "compiling the model would take ~{estimate} s, more than the time limit \
                     of {} s",
                    budget.as_secs_f64()
                )));
            }
            let sources = Sources::write(&root)?;
            write_crate(&crate_dir, &sources, &key, name, &code, dist)?;
            let build_of = Build {
                key: &key,
                first,
                estimate,
                bytes,
            };
            build(&root, &crate_dir, &build_of, profile)
        }
    }
}

/// The one argument of a compiled checker: `options` as JSON.
pub fn argument(options: &SearchOptions) -> Result<String, Unavailable> {
    serde_json::to_string(options)
        .map_err(|error| Unavailable(format!("cannot pass the options: {error}")))
}

/// The cache directory: `dir`, `$XDG_CACHE_HOME/bir` or `~/.cache/bir`, as an absolute
/// path (cargo runs elsewhere).
pub fn cache_root(dir: Option<&Path>) -> Result<PathBuf, Unavailable> {
    let nonempty = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let root = match dir {
        Some(dir) => dir.to_path_buf(),
        None => match (nonempty("XDG_CACHE_HOME"), nonempty("HOME")) {
            (Some(xdg), _) if Path::new(&xdg).is_absolute() => PathBuf::from(xdg).join("bir"),
            (_, Some(home)) => PathBuf::from(home).join(".cache").join("bir"),
            _ => {
                return Err(Unavailable(
                    "no cache directory: neither XDG_CACHE_HOME nor HOME is set (give one \
                     with --cache DIR)"
                        .to_string(),
                ))
            }
        },
    };
    std::path::absolute(&root).map_err(|error| {
        Unavailable(format!(
            "the cache directory `{}` has no absolute path: {error}",
            root.display()
        ))
    })
}

/// The sources this `bir` carries, from `build.rs`: `SOURCES` (path, contents) and
/// `SOURCES_HASH`.
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// The file in a folder of sources that says it was written whole.
const SOURCES_COMPLETE: &str = "complete";

/// Where the crates a checker links come from.
#[derive(Debug, PartialEq, Eq)]
enum Sources {
    /// The copies this `bir` carries, written out under this folder.
    Carried(PathBuf),
    /// crates.io, at this `bir`'s version (a `bir` built from its packaged crate).
    Registry,
}

impl Sources {
    /// The sources' folder under the cache `root` (`sources/<version>-<hash>`).
    fn folder(root: &Path) -> PathBuf {
        root.join("sources").join(format!(
            "{}-{}",
            env!("CARGO_PKG_VERSION"),
            embedded::SOURCES_HASH
        ))
    }

    /// The sources of the cache `root`, written on first use: into a folder of its own,
    /// renamed into place once whole, so that a check running at the same time never
    /// builds half of them.
    fn write(root: &Path) -> Result<Sources, Unavailable> {
        if embedded::SOURCES.is_empty() {
            return Ok(Sources::Registry);
        }
        let folder = Sources::folder(root);
        if folder.join(SOURCES_COMPLETE).is_file() {
            return Ok(Sources::Carried(folder));
        }
        let cannot = |what: &Path, error: std::io::Error| {
            Unavailable(format!(
                "cannot write the runtime's sources to `{}`: {error}",
                what.display()
            ))
        };
        let mut temporary = folder.as_os_str().to_owned();
        temporary.push(format!(".{}.tmp", std::process::id()));
        let temporary = PathBuf::from(temporary);
        let _ = std::fs::remove_dir_all(&temporary);
        for (name, contents) in embedded::SOURCES {
            let path = temporary.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| cannot(parent, e))?;
            }
            std::fs::write(&path, contents).map_err(|e| cannot(&path, e))?;
        }
        let marker = temporary.join(SOURCES_COMPLETE);
        std::fs::write(&marker, embedded::SOURCES_HASH).map_err(|e| cannot(&marker, e))?;
        if let Err(error) = std::fs::rename(&temporary, &folder) {
            let _ = std::fs::remove_dir_all(&temporary);
            // Another check wrote them first.
            if !folder.join(SOURCES_COMPLETE).is_file() {
                return Err(cannot(&folder, error));
            }
        }
        Ok(Sources::Carried(folder))
    }

    /// The lines of the checker's `[dependencies]`: the runtime (as `bir`, which the
    /// generated code names) and the driver, with `features`.
    fn dependencies(&self, features: &str) -> String {
        match self {
            Sources::Carried(folder) => format!(
                "bir = {{ package = \"bir-runtime\", path = {} }}\n\
                 bir-driver = {{ path = {}{features} }}\n",
                toml_string(&folder.join("bir-runtime")),
                toml_string(&folder.join("bir-driver")),
            ),
            Sources::Registry => {
                let version = env!("CARGO_PKG_VERSION");
                format!(
                    "bir = {{ package = \"bir-runtime\", version = \"={version}\" }}\n\
                     bir-driver = {{ version = \"={version}\"{features} }}\n"
                )
            }
        }
    }

    /// The checker's lock file: the one this `bir` was built and tested with (no registry
    /// query for what is already in cargo's cache), or none for the registry's crates.
    fn lock_file(&self) -> Option<&'static [u8]> {
        match self {
            Sources::Carried(_) => embedded::SOURCES
                .iter()
                .find(|(name, _)| *name == "Cargo.lock")
                .map(|(_, contents)| *contents),
            Sources::Registry => None,
        }
    }
}

/// The generated checker's Rust code for `source` with `overrides`.
fn generate(source: &str, overrides: &Overrides) -> Result<String, Unavailable> {
    let tokens = TokenStream::from_str(source)
        .map_err(|error| Unavailable(format!("the model does not tokenize: {error}")))?;
    Ok(bir_codegen::expand_with(tokens, overrides).to_string())
}

/// The cache key: a hash of everything the binary depends on (see the module docs).
fn key(code: &str, profile: Profile, dist: bool) -> Result<String, Unavailable> {
    let mut hash = Fnv::default();
    hash.field(FORMAT.as_bytes());
    hash.field(profile.name().as_bytes());
    hash.field(if dist { b"dist" } else { b"local" });
    hash.field(env!("CARGO_PKG_VERSION").as_bytes());
    hash.field(rustc_version()?.as_bytes());
    hash.field(embedded::SOURCES_HASH.as_bytes());
    hash.field(code.as_bytes());
    Ok(format!("{:016x}", hash.0))
}

/// `rustc -vV`: the compiler cargo will build with (`$RUSTC`, else `rustc`).
fn rustc_version() -> Result<String, Unavailable> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    let output = Command::new(&rustc)
        .arg("-vV")
        .stdin(Stdio::null())
        .output()
        .map_err(|error| {
            Unavailable(format!(
                "cannot run the Rust compiler `{}`: {error}",
                rustc.to_string_lossy()
            ))
        })?;
    if !output.status.success() {
        return Err(Unavailable(format!(
            "`{} -vV` failed: {}",
            rustc.to_string_lossy(),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The binary of the crate in `dir` if it was built from `code`.
fn built(dir: &Path, code: &str) -> Option<PathBuf> {
    let binary = PathBuf::from(std::fs::read_to_string(dir.join(MARKER)).ok()?.trim_end());
    let same = std::fs::read_to_string(dir.join("src").join("model.rs")).ok()? == code;
    (same && binary.is_file()).then_some(binary)
}

/// Writes the crate of the model `name` with the generated `code` into `dir`.
fn write_crate(
    dir: &Path,
    sources: &Sources,
    key: &str,
    name: &str,
    code: &str,
    dist: bool,
) -> Result<(), Unavailable> {
    let features = if dist { ", features = [\"dist\"]" } else { "" };
    let manifest = format!(
        "# Written by `bir check`: the checker of the model `{name}`, compiled from generated code.\n\
         [package]\n\
         name = \"bir-model-{key}\"\n\
         version = \"0.0.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\n\
         [dependencies]\n\
         {}\n\
         # Not a member of any workspace around the cache directory.\n\
         [workspace]\n\n\
         # `BIR_CACHE_PROFILE=dev`: built quickly, for tests. Each crate is built once (its\n\
         # key changes with its code), so incremental compilation would only write caches.\n\
         [profile.dev]\n\
         debug = false\n\
         incremental = false\n",
        sources.dependencies(features),
    );
    let main = format!(
        "//! The checker of the model `{name}`, written by `bir check`; `bir check` runs it\n\
         //! with its options as JSON.\n\
         #![allow(warnings, clippy::all)]\n\n\
         mod model;\n\n\
         fn main() -> ::std::process::ExitCode {{\n    \
             ::bir_driver::serve(model::{name})\n\
         }}\n"
    );
    let mut files = vec![
        (dir.join("Cargo.toml"), manifest.into_bytes()),
        (dir.join("src").join("main.rs"), main.into_bytes()),
        (dir.join("src").join("model.rs"), code.as_bytes().to_vec()),
    ];
    if let Some(lock) = sources.lock_file() {
        files.push((dir.join("Cargo.lock"), lock.to_vec()));
    }
    for (path, contents) in files {
        // An identical file is left alone: a check of the same model running at the same
        // time may be building it, and a new modification time would make cargo build again.
        if std::fs::read(&path).is_ok_and(|old| old == contents) {
            continue;
        }
        write_atomically(&path, &contents)
            .map_err(|error| Unavailable(format!("cannot write `{}`: {error}", path.display())))?;
    }
    Ok(())
}

/// What a build is: its crate's key, whether it compiles the runtime too (the first of its
/// profile in this cache), its estimated seconds and its generated code's size.
struct Build<'a> {
    key: &'a str,
    first: bool,
    estimate: u64,
    bytes: u64,
}

/// Builds the crate in `dir` into the cache's target directory; returns the binary.
fn build(root: &Path, dir: &Path, build: &Build, profile: Profile) -> Result<PathBuf, Unavailable> {
    let target = root.join("target");
    let Build {
        key,
        first,
        estimate,
        bytes,
    } = *build;
    if first {
        eprintln!(
            "bir: compiling the model and, once for this cache, the runtime (first run, \
             ~{estimate} s) ..."
        );
    } else {
        eprintln!("bir: compiling the model (first run, ~{estimate} s) ...");
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let start = Instant::now();
    let output = Command::new(&cargo)
        .args([
            "build",
            "--profile",
            profile.name(),
            "--quiet",
            "--manifest-path",
        ])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        // The binary is run here: built for this machine, where the cache expects it.
        .env_remove("CARGO_BUILD_TARGET")
        .stdin(Stdio::null())
        .output()
        .map_err(|error| {
            Unavailable(format!(
                "cannot run cargo (`{}`) to compile the model: {error}",
                cargo.to_string_lossy()
            ))
        })?;
    let seconds = start.elapsed().as_secs_f64();
    if !output.status.success() {
        let log = dir.join("build.log");
        let _ = std::fs::write(&log, &output.stderr);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|line| line.trim_start().starts_with("error"))
            .unwrap_or("")
            .trim();
        return Err(Unavailable(format!(
            "compiling the model failed ({last}; cargo's output is in `{}`)",
            log.display()
        )));
    }
    let binary = target
        .join(profile.folder())
        .join(format!("bir-model-{key}{}", std::env::consts::EXE_SUFFIX));
    if !binary.is_file() {
        return Err(Unavailable(format!(
            "cargo built the model but `{}` is missing",
            binary.display()
        )));
    }
    let marker = binary.as_os_str().as_encoded_bytes().to_vec();
    write_atomically(&dir.join(MARKER), &marker)
        .map_err(|error| Unavailable(format!("cannot write the cache's marker: {error}")))?;
    let kind = if first { "first" } else { "model" };
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(root.join(BUILDS_LOG))
        .and_then(|mut log| writeln!(log, "{key} {seconds:.1} {kind} {bytes}"));
    Ok(binary)
}

/// How long a build will take, in whole seconds, for `bytes` of generated code: the last
/// build of its kind in this cache (`first`: with the runtime), or what it took on a loaded
/// 2-core machine, plus the time the difference in code takes.
fn estimate(root: &Path, first: bool, bytes: u64) -> u64 {
    let kind = if first { "first" } else { "model" };
    let log = std::fs::read_to_string(root.join(BUILDS_LOG)).unwrap_or_default();
    let last = log
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let seconds = fields.get(1)?.parse::<f64>().ok()?;
            // Lines written before the log held sizes: a model of a typical size.
            let bytes = fields.get(3).and_then(|b| b.parse().ok());
            (fields.get(2) == Some(&kind)).then_some((seconds, bytes.unwrap_or(TYPICAL_BYTES)))
        })
        .next_back();
    let (seconds, last_bytes) = last.unwrap_or((if first { 45.0 } else { 15.0 }, TYPICAL_BYTES));
    let more = (bytes as f64 - last_bytes as f64) / 1e6 * SECONDS_PER_MEGABYTE;
    (seconds + more).ceil().max(1.0) as u64
}

/// The size of a reference model's generated code (Peterson's filter N=4: 48 KB).
const TYPICAL_BYTES: u64 = 50_000;

/// How much longer a release build takes for each megabyte of generated code: the slope of
/// the builds of Peterson's filter on a 2-core machine, from N=4 (48 KB) to N=300 (2.4 MB,
/// 1,500 transitions).
const SECONDS_PER_MEGABYTE: f64 = 7.4;

/// Writes `contents` to `path` through a temporary file and a rename, so that a reader (a
/// check of the same model running at the same time) never sees half a file.
fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    std::fs::write(&temporary, contents)?;
    std::fs::rename(&temporary, path)
}

/// A TOML basic string holding `path`.
fn toml_string(path: &Path) -> String {
    let mut out = String::from("\"");
    for c in path.to_string_lossy().chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_quoted_for_toml() {
        assert_eq!(toml_string(Path::new("/a b/c")), "\"/a b/c\"");
        assert_eq!(toml_string(Path::new("/a\"b\\c")), "\"/a\\\"b\\\\c\"");
    }

    #[test]
    fn fields_do_not_run_into_each_other() {
        let hash = |fields: &[&str]| {
            let mut hash = Fnv::default();
            for field in fields {
                hash.field(field.as_bytes());
            }
            hash.0
        };
        assert_ne!(hash(&["ab", "c"]), hash(&["a", "bc"]));
        assert_eq!(hash(&["ab", "c"]), hash(&["ab", "c"]));
    }

    #[test]
    fn a_bir_built_in_the_checkout_carries_the_crates_its_checkers_link() {
        let names: Vec<&str> = embedded::SOURCES.iter().map(|(name, _)| *name).collect();
        for member in ["bir-model", "bir-runtime", "bir-driver", "bir-dist"] {
            assert!(
                names.contains(&format!("{member}/Cargo.toml").as_str()),
                "{names:?}"
            );
            assert!(
                names.contains(&format!("{member}/src/lib.rs").as_str()),
                "{names:?}"
            );
        }
        // What they inherit, without the crates that are not carried, and no dev-dependency
        // (their paths are not carried either).
        let text = |name: &str| {
            let (_, contents) = embedded::SOURCES
                .iter()
                .find(|(n, _)| *n == name)
                .expect("carried");
            String::from_utf8_lossy(contents).into_owned()
        };
        let root = text("Cargo.toml");
        assert!(root.contains("[workspace.package]") && root.contains("bir-runtime = {"));
        assert!(
            !root.contains("bir-codegen") && !root.contains("bir-macros"),
            "{root}"
        );
        assert!(!text("bir-driver/Cargo.toml").contains("dev-dependencies"));
        assert!(text("Cargo.lock").contains("name = \"serde\""));
    }

    #[test]
    fn the_sources_are_written_once_into_the_cache() {
        let root = std::env::temp_dir().join(format!("bir-sources-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let sources = Sources::write(&root).expect("written");
        let folder = Sources::folder(&root);
        assert_eq!(sources, Sources::Carried(folder.clone()));
        for (name, contents) in embedded::SOURCES {
            assert_eq!(&std::fs::read(folder.join(name)).expect(name), contents);
        }
        // A second check finds them whole and writes nothing.
        let manifest = folder.join("bir-runtime").join("Cargo.toml");
        std::fs::write(&manifest, "edited").expect("written");
        assert_eq!(Sources::write(&root).expect("found"), sources);
        assert_eq!(
            std::fs::read_to_string(&manifest).ok().as_deref(),
            Some("edited")
        );
        let manifest = sources.dependencies("");
        assert!(manifest.starts_with("bir = { package = \"bir-runtime\", path = \""));
        assert!(manifest.contains(&toml_string(&folder.join("bir-driver"))));
        assert!(sources.lock_file().is_some());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_packaged_bir_links_the_registrys_crates_of_its_version() {
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            Sources::Registry.dependencies(", features = [\"dist\"]"),
            format!(
                "bir = {{ package = \"bir-runtime\", version = \"={version}\" }}\n\
                 bir-driver = {{ version = \"={version}\", features = [\"dist\"] }}\n"
            )
        );
        assert_eq!(Sources::Registry.lock_file(), None);
    }

    #[test]
    fn the_cache_directory_is_absolute() {
        let root = cache_root(Some(Path::new("relative/dir"))).expect("a directory");
        assert!(root.is_absolute() && root.ends_with("relative/dir"));
    }

    #[test]
    fn a_build_is_estimated_from_the_last_of_its_kind_and_the_size_of_its_code() {
        let root = std::env::temp_dir().join(format!("bir-estimate-{}", std::process::id()));
        std::fs::create_dir_all(&root).expect("a temporary directory");
        // No build yet: what a loaded 2-core machine took.
        assert_eq!(estimate(&root, true, TYPICAL_BYTES), 45);
        assert_eq!(estimate(&root, false, TYPICAL_BYTES), 15);
        let log = "a 20.0 first 50000\nb 4.2 model 50000\nc 3.1 model\n";
        std::fs::write(root.join(BUILDS_LOG), log).expect("the log is written");
        // The last of each kind, a line without a size read as a typical model.
        assert_eq!(estimate(&root, true, 50_000), 20);
        assert_eq!(estimate(&root, false, 50_000), 4);
        // 2.45 MB more code: SECONDS_PER_MEGABYTE for each megabyte more.
        assert_eq!(estimate(&root, false, 2_500_000), 22);
        // Smaller code than the last build's saves little, and never below a second.
        assert_eq!(estimate(&root, false, 0), 3);
        let _ = std::fs::remove_dir_all(&root);
    }
}
