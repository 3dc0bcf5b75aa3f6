//! The crates' layers, enforced: every `crate::` or `super::` path in the library code of
//! `bir-runtime` and `bir-codegen` names a module of the file's own layer or of a layer
//! below it, never one above (the crates' docs state the order, which the tables below
//! repeat). Test modules (`mod tests`,
//! `tests.rs`, `test_models.rs`) may reach anything; doc comments and comments are not
//! imports.

use std::fs;
use std::path::{Path, PathBuf};

/// bir-runtime's layers, bottom first: `lib.rs` re-exports them and is exempt.
const RUNTIME: &[&str] = &[
    "units",
    "model",
    "verdict",
    "store",
    "trace",
    "plan",
    "report",
    "search",
    "checker",
    "oracle",
    "__private",
];

/// bir-codegen's stages, in the order data flows: tokens to the front end's AST, checked
/// into the IR (whose properties hold the LTL translator's automata), analysed, lowered,
/// emitted as Rust or exported for the peers; the pipeline runs them, the drivers feed it.
const CODEGEN: &[&str] = &[
    "diag", "front", "steps", "ltl", "ir", "check", "analyse", "lower", "emit", "export",
    "pipeline", "drive",
];

/// A path from a layer to a higher one.
#[derive(Debug, PartialEq, Eq)]
struct Upward {
    /// The file, relative to the crate's `src/`.
    file: String,
    /// The line, from 1.
    line: usize,
    text: String,
    from: String,
    to: String,
}

/// The layer of the module a file defines: its first component under `src/` (`search` for
/// `search/frontier/dfs.rs`, `units` for `units.rs`); `None` for `lib.rs`.
fn layer_of(file: &Path) -> Option<String> {
    let first = file.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

/// The module path of a file: `search/frontier/dfs.rs` is `[search, frontier, dfs]`,
/// `search/mod.rs` is `[search]`.
fn module_path(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .components()
        .filter_map(|c| c.as_os_str().to_str().map(str::to_string))
        .collect();
    if let Some(last) = parts.pop() {
        match last.strip_suffix(".rs") {
            Some("mod") | Some("lib") => {}
            Some(stem) => parts.push(stem.to_string()),
            None => parts.push(last),
        }
    }
    parts
}

/// The top-level modules `line` (code, not a comment) reaches through `crate::` paths, and
/// through `super::` chains that climb to the crate's root from `module`.
fn reached(line: &str, module: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let code = line.split("//").next().unwrap_or("");
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + "crate::".len()..];
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
        rest = after;
    }
    let mut rest = code;
    while let Some(at) = rest.find("super::") {
        let mut depth = module.len();
        let mut tail = &rest[at..];
        while let Some(next) = tail.strip_prefix("super::") {
            depth = depth.saturating_sub(1);
            tail = next;
        }
        if depth == 0 {
            let name: String = tail
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
        rest = &rest[at + "super::".len()..];
    }
    found
}

/// The upward paths of one file's library code, given its text and its place under `src/`.
fn upward_in(file: &Path, text: &str, layers: &[&str]) -> Vec<Upward> {
    let Some(from) = layer_of(file) else {
        return Vec::new();
    };
    let rank = |name: &str| layers.iter().position(|layer| *layer == name);
    let Some(own) = rank(&from) else {
        return Vec::new();
    };
    let module = module_path(file);
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            let next = lines[index + 1..].iter().find(|l| !l.trim().is_empty());
            if next.is_some_and(|l| l.trim_start().starts_with("mod ") && l.ends_with('{')) {
                break;
            }
        }
        if trimmed.starts_with("//") {
            continue;
        }
        for to in reached(line, &module) {
            if rank(&to).is_some_and(|theirs| theirs > own) {
                found.push(Upward {
                    file: file.display().to_string(),
                    line: index + 1,
                    text: trimmed.to_string(),
                    from: from.clone(),
                    to,
                });
            }
        }
    }
    found
}

/// Whether a file under `src/` holds only tests.
fn is_test_file(file: &Path) -> bool {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests.rs"
        || name == "test_models.rs"
        || file.components().any(|c| c.as_os_str() == "tests")
}

/// Every `.rs` file under `dir`, relative to `root`.
fn sources(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
        }
    }
}

/// Every upward path in the library code of the crate whose sources are in `src`.
fn upward(src: &Path, layers: &[&str]) -> Vec<Upward> {
    let mut files = Vec::new();
    sources(src, src, &mut files);
    files.sort();
    assert!(files.len() > 10, "no sources under {}", src.display());
    files
        .iter()
        .filter(|file| !is_test_file(file))
        .flat_map(|file| {
            let text = fs::read_to_string(src.join(file)).unwrap_or_default();
            upward_in(file, &text, layers)
        })
        .collect()
}

/// Fails with every upward path found, each with its file, line and the rule it breaks.
fn assert_layered(krate: &str, layers: &[&str]) {
    let src = crate::repo_root().join(krate).join("src");
    let found = upward(&src, layers);
    let order = layers.join(" < ");
    let report: Vec<String> = found
        .iter()
        .map(|up| {
            format!(
                "{krate}/src/{}:{}: `{}` reaches `{}` from `{}`, a layer below it \
                 (a layer imports only the ones below it: {order})",
                up.file, up.line, up.text, up.to, up.from
            )
        })
        .collect();
    assert!(report.is_empty(), "upward imports:\n{}", report.join("\n"));
    // Every top-level module is in the order, so that a new one gets a place in it.
    for entry in fs::read_dir(&src).into_iter().flatten().flatten() {
        let path = PathBuf::from(entry.file_name());
        if let Some(layer) = layer_of(&path) {
            if layer != "test_models" {
                assert!(
                    layers.contains(&layer.as_str()),
                    "{krate}/src/{layer}: a module the layers do not list ({order})"
                );
            }
        }
    }
}

#[test]
fn the_runtime_imports_only_downwards() {
    assert_layered("bir-runtime", RUNTIME);
}

#[test]
fn the_code_generator_imports_only_earlier_stages() {
    assert_layered("bir-codegen", CODEGEN);
}

#[test]
fn an_upward_import_is_found_with_its_file_line_and_layers() {
    let text = "//! A store.\n\nuse crate::model::Model;\nuse crate::report::Report; // up\n\
                /// [`Checker`](crate::Checker)\nfn f() { let _ = super::super::search::x(); }\n\
                \n#[cfg(test)]\nmod tests {\n    use crate::checker::Checker;\n}\n";
    let found = upward_in(Path::new("store/tree/mod.rs"), text, RUNTIME);
    let lines: Vec<(usize, &str)> = found.iter().map(|u| (u.line, u.to.as_str())).collect();
    assert_eq!(lines, [(4, "report"), (6, "search")]);
    assert_eq!(found[0].file, "store/tree/mod.rs");
    assert_eq!(found[0].from, "store");
    // The same module's own paths and the layers below are fine; `lib.rs` is exempt.
    assert!(upward_in(Path::new("search/dfs.rs"), "use crate::store::X;", RUNTIME).is_empty());
    assert!(upward_in(Path::new("lib.rs"), "pub use checker::Checker;", RUNTIME).is_empty());
}
