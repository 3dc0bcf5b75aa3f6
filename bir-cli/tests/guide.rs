//! The guide's transcripts are what `bir` prints. Every ```` ```console ```` block of
//! README.md and of `docs/guide/*.md` whose first line is a `$ bir ...` command is run:
//! each `$ bir ARGS` line is one command (the arguments split at spaces, run in the
//! repository's root, no shell), and the lines after it up to the next `$ ` line or the end
//! of the block are its expected output: its stdout, then its stderr without the line
//! `bir: compiling the model ...` (whether a checker is compiled depends on the cache).
//!
//! Two placeholders, documented in the guide's chapter on the command line, stand for what
//! differs from run to run (times, speeds, memory) or what a transcript leaves out:
//!
//! - a line that ends in `...` matches every line that starts with the text before it
//!   (`states: 7, transitions: 7, errors: 0, deadlocks: 1, max depth: 3, ...`);
//! - a line that is `...` alone matches any number of lines (a long trace cut short).
//!
//! Beside them: the README's compile errors are the compile-fail suite's, and every chapter
//! is linked from the README and, if it has Rust examples, a doctest module of `bir::guide`.

use std::path::{Path, PathBuf};

mod common;

use common::bir_command;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository")
}

/// The files whose transcripts are checked: README.md and every chapter of the guide.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root().join("docs/guide"))
        .expect("docs/guide")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    files.extend(chapters);
    files
}

/// One `$ bir ...` command of a transcript and the output written after it.
struct Command {
    /// Where it is: the file and the line of the `$`.
    place: String,
    /// The arguments after `bir`.
    args: Vec<String>,
    /// The expected lines.
    expected: Vec<String>,
}

/// The commands of every ```` ```console ```` block of `text` that starts with `$ bir `.
fn transcripts(file: &str, text: &str) -> Vec<Command> {
    let mut commands = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        if line.trim_end() != "```console" {
            continue;
        }
        let block: Vec<(usize, &str)> = lines
            .by_ref()
            .take_while(|(_, line)| line.trim_end() != "```")
            .collect();
        if !block.first().is_some_and(|(_, l)| l.starts_with("$ bir ")) {
            continue;
        }
        for (number, line) in block {
            if let Some(command) = line.strip_prefix("$ ") {
                let args: Vec<String> = command.split_whitespace().map(String::from).collect();
                assert!(
                    args[0] == "bir" && !args.iter().any(|a| a.contains(['>', '<', '|', '&', ';'])),
                    "{file}:{}: a transcript runs plain `bir` commands: {line}",
                    number + 1
                );
                commands.push(Command {
                    place: format!("{file}:{}", number + 1),
                    args: args[1..].to_vec(),
                    expected: Vec::new(),
                });
            } else {
                commands
                    .last_mut()
                    .expect("a command")
                    .expected
                    .push(line.to_string());
            }
        }
    }
    commands
}

/// Whether `actual` is what `expected` shows, with its placeholders (see the module's docs).
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, others)| {
            let same = match first.strip_suffix("...") {
                Some(prefix) => line.starts_with(prefix),
                None => line == first,
            };
            same && matches(rest, others)
        }),
    }
}

/// Runs a transcript's command as written, in the repository's root; its output as the
/// transcript shows it.
fn output(command: &Command) -> String {
    let result = bir_command()
        .args(&command.args)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    let mut text = String::from_utf8_lossy(&result.stdout).into_owned();
    for line in String::from_utf8_lossy(&result.stderr).lines() {
        if !line.starts_with("bir: compiling the model") {
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}

#[test]
fn every_transcript_of_the_readme_and_the_guide_is_what_bir_prints() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in documents() {
        let text = std::fs::read_to_string(&path).expect("a document");
        let name = path
            .strip_prefix(root())
            .expect("in the repository")
            .display()
            .to_string();
        for command in transcripts(&name, &text) {
            let actual = output(&command);
            let lines: Vec<&str> = actual.lines().collect();
            if !matches(&command.expected, &lines) {
                wrong.push(format!(
                    "{}: `bir {}` prints\n{actual}\nbut the transcript shows\n{}\n",
                    command.place,
                    command.args.join(" "),
                    command.expected.join("\n")
                ));
            }
            checked += 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // README.md's transcript and at least one per chapter that has any.
    assert!(checked >= 10, "only {checked} transcripts");
}

#[test]
fn the_placeholders_match_what_they_say_and_nothing_else() {
    let lines = |text: &str| text.lines().map(String::from).collect::<Vec<_>>();
    let expected = lines("a\nstates: 7, ...\n...\nz");
    assert!(matches(&expected, &["a", "states: 7, 0.1 s", "z"]));
    assert!(matches(
        &expected,
        &["a", "states: 7, 0.1 s", "x", "y", "z"]
    ));
    assert!(!matches(&expected, &["a", "states: 8, 0.1 s", "z"]));
    assert!(!matches(&expected, &["a", "states: 7, 0.1 s", "z", "more"]));
    assert!(!matches(&lines("a"), &["a", "b"]));
}

/// The block of `text` after the line `start`, up to the closing fence.
fn block_after<'a>(text: &'a str, start: &str) -> &'a str {
    let begin = text
        .find(&format!("{start}\n"))
        .unwrap_or_else(|| panic!("no block after {start:?}"))
        + start.len()
        + 1;
    let end = begin + text[begin..].find("```").expect("the end of the block");
    &text[begin..end]
}

/// The README's compile-error example is a case of the compile-fail suite, and the errors it
/// shows are the ones the suite expects rustc to print (trybuild's paths are relative to
/// `tests/`, the README's to the repository).
#[test]
fn the_compile_errors_in_the_readme_are_the_compile_fail_suites() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let case = "tests/ui/fail/several-independent-mistakes";
    let source = std::fs::read_to_string(root().join(format!("{case}.rs"))).expect("the case");
    assert_eq!(block_after(&readme, "```rust,compile_fail"), source);
    let errors = std::fs::read_to_string(root().join(format!("{case}.stderr"))).expect("stderr");
    let errors = errors.replace("--> ui/fail/", "--> tests/ui/fail/");
    let shown = block_after(
        &readme,
        "gets exactly these errors from `cargo build`:\n\n```text",
    );
    assert_eq!(shown.trim_end(), errors.trim_end());
}

/// Every chapter is linked from the README, and every chapter with Rust examples is a module
/// of `bir::guide` (`src/lib.rs`), so that its examples run as doctests.
#[test]
fn every_chapter_is_linked_and_every_rust_example_is_a_doctest() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    let mut chapters = 0;
    for path in documents().into_iter().skip(1) {
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).expect("a chapter");
        assert!(
            readme.contains(&format!("(docs/guide/{name})")),
            "README.md does not link docs/guide/{name}"
        );
        if text.lines().any(|line| line.starts_with("```rust")) {
            assert!(
                lib.contains(&format!("include_str!(\"../docs/guide/{name}\")")),
                "src/lib.rs: docs/guide/{name} has Rust examples but is not in bir::guide"
            );
        }
        chapters += 1;
    }
    assert!(chapters >= 10, "only {chapters} chapters");
}
