//! Carries the sources of the crates that `bir check`'s compiled checkers depend on inside
//! the `bir` binary, so that an installed `bir` compiles checkers without the checkout it
//! was built from (`src/cache.rs` writes them into the cache directory on first use).
//!
//! Writes `$OUT_DIR/embedded.rs`: `SOURCES`, the files (path relative to the sources'
//! root, contents by `include_bytes!`), and `SOURCES_HASH`, a hash of them all. The root is
//! a small workspace: a manifest of its own holding the checkout's `[workspace.package]` and
//! `[workspace.dependencies]` (which the members inherit), and the members below with their
//! manifests (without their dev-dependencies: their tests are not carried) and their `src/`.
//!
//! When the crates are not beside this one (a build from the packaged crate, as
//! `cargo install bir-cli` does from crates.io), `SOURCES` is empty and the checkers depend
//! on the same versions from the registry instead.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "src/fnv.rs"]
mod fnv;
use fnv::Fnv;

/// The crates the checker's crate depends on, itself or through another: `bir-runtime`
/// (the search, imported as `bir`), `bir-driver` (the options and the report), `bir-model`
/// (under the runtime), and `bir-dist` (the driver's feature `dist`).
const MEMBERS: &[&str] = &["bir-model", "bir-runtime", "bir-driver", "bir-dist"];

/// The sections of a manifest that a build of the crate as a dependency never reads.
const DROPPED_SECTIONS: &[&str] = &["dev-dependencies"];

fn main() {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env("OUT_DIR"));
    println!("cargo:rerun-if-changed=build.rs");
    let root = manifest_dir.parent().map(Path::to_path_buf);
    let checkout = root.filter(|root| {
        MEMBERS
            .iter()
            .all(|member| root.join(member).join("Cargo.toml").is_file())
            && std::fs::read_to_string(root.join("Cargo.toml"))
                .is_ok_and(|text| text.lines().any(|line| line.trim() == "[workspace]"))
    });
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if let Some(root) = &checkout {
        for file in ["Cargo.toml", "Cargo.lock"] {
            println!("cargo:rerun-if-changed={}", root.join(file).display());
        }
        let workspace =
            std::fs::read_to_string(root.join("Cargo.toml")).expect("the root manifest");
        let manifests = out.join("manifests");
        std::fs::create_dir_all(&manifests).expect("a folder in OUT_DIR");
        let root_manifest = manifests.join("Cargo.toml");
        write(&root_manifest, &sources_root_manifest(&workspace));
        files.push(("Cargo.toml".to_string(), root_manifest));
        // The versions this `bir` was built and tested with, for the checkers' lock file.
        files.push(("Cargo.lock".to_string(), root.join("Cargo.lock")));
        for member in MEMBERS {
            let dir = root.join(member);
            println!(
                "cargo:rerun-if-changed={}",
                dir.join("Cargo.toml").display()
            );
            println!("cargo:rerun-if-changed={}", dir.join("src").display());
            let text = std::fs::read_to_string(dir.join("Cargo.toml")).expect("a member manifest");
            let manifest = manifests.join(member).join("Cargo.toml");
            std::fs::create_dir_all(manifests.join(member)).expect("a folder in OUT_DIR");
            write(&manifest, &without_sections(&text, DROPPED_SECTIONS));
            files.push((format!("{member}/Cargo.toml"), manifest));
            if dir.join("README.md").is_file() {
                println!("cargo:rerun-if-changed={}", dir.join("README.md").display());
                files.push((format!("{member}/README.md"), dir.join("README.md")));
            }
            walk(&dir.join("src"), &format!("{member}/src"), &mut files);
        }
    }
    files.sort();
    let mut hash = Fnv::default();
    let mut code = String::from(
        "/// The files of the sources' root (see `build.rs`): path, contents.\n\
         pub const SOURCES: &[(&str, &[u8])] = &[\n",
    );
    for (name, path) in &files {
        let contents = std::fs::read(path).expect("a source file");
        hash.field(name.as_bytes());
        hash.field(&contents);
        let _ = writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n\n/// A hash of [`SOURCES`]: names and contents.\n");
    let _ = writeln!(code, "pub const SOURCES_HASH: &str = \"{:016x}\";", hash.0);
    write(&out.join("embedded.rs"), &code);
}

/// The manifest of the sources' root: a workspace of [`MEMBERS`], with what they inherit
/// from the checkout's root manifest `workspace`.
fn sources_root_manifest(workspace: &str) -> String {
    let mut text = String::from(
        "# Written by `bir`: the sources of the crates its compiled checkers depend on, as\n\
         # this `bir` was built with them.\n\
         [workspace]\n",
    );
    let members: Vec<String> = MEMBERS.iter().map(|m| format!("{m:?}")).collect();
    let _ = writeln!(text, "members = [{}]", members.join(", "));
    text.push_str("resolver = \"2\"\n\n");
    for section in ["workspace.package", "workspace.dependencies"] {
        let body = section_of(workspace, section)
            .unwrap_or_else(|| panic!("the root manifest has no [{section}]"));
        let _ = writeln!(text, "[{section}]");
        for line in body {
            // A workspace dependency on a crate that is not carried (the code generator, the
            // macros) would name a path that is not there.
            let path = line
                .split("path = \"")
                .nth(1)
                .and_then(|rest| rest.split('"').next());
            if path.is_some_and(|path| !MEMBERS.contains(&path)) {
                continue;
            }
            text.push_str(line);
            text.push('\n');
        }
        text.push('\n');
    }
    text
}

/// The lines of the section `[name]` of `manifest` (after its header, before the next).
fn section_of<'a>(manifest: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let header = format!("[{name}]");
    let mut lines = manifest.lines().skip_while(|line| line.trim() != header);
    lines.next()?;
    Some(lines.take_while(|line| !line.starts_with('[')).collect())
}

/// `manifest` without the sections `[name]` for the names in `dropped`.
fn without_sections(manifest: &str, dropped: &[&str]) -> String {
    let mut out = String::new();
    let mut keep = true;
    for line in manifest.lines() {
        if line.starts_with('[') {
            let name = line.trim().trim_matches(|c| c == '[' || c == ']');
            keep = !dropped.contains(&name);
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every file under `dir`, named `prefix/...`, into `files`.
fn walk(dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_else(|| panic!("a file name that is not UTF-8: {}", path.display()));
        let named = format!("{prefix}/{name}");
        if path.is_dir() {
            walk(&path, &named, files);
        } else {
            files.push((named, path));
        }
    }
}

/// Writes `text` to `path` unless it already holds it (so that the crate is not rebuilt).
fn write(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// An environment variable that cargo sets for build scripts.
fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name}"))
}
