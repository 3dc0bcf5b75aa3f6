//! `bir` installed with `cargo install`, then its checkout gone: `bir check` still compiles
//! checkers, from the sources the binary carries (`build.rs`, `src/cache.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace's files as git lists them (tracked and new, not ignored), copied into
/// `to`: the checkout as a clean clone of this working tree would be, without its targets.
fn copy_the_checkout(workspace: &Path, to: &Path) {
    let listed = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(workspace)
        .output()
        .expect("git lists the checkout's files");
    assert!(listed.status.success(), "git ls-files failed");
    let mut copied = 0;
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).expect("a UTF-8 file name");
        let from = workspace.join(name);
        // A file deleted in the working tree but still in the index.
        if !from.is_file() {
            continue;
        }
        let target = to.join(name);
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("a folder");
        std::fs::copy(&from, &target).expect("a copy");
        copied += 1;
    }
    assert!(copied > 100, "only {copied} files");
}

/// Runs `command`; returns (exit status, stdout, stderr).
fn run(command: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("it runs");
    (
        status.code().expect("an exit status"),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

#[test]
#[ignore = "cargo install of bir from a copy of the checkout, then a checker compiled (a few minutes); .ci/run runs it"]
fn the_installed_bir_compiles_checkers_after_its_checkout_is_gone() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf();
    // A fixed folder, emptied: its target directory is kept from run to run, so that a
    // second run compiles only bir's own crates again.
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("install");
    let checkout = base.join("checkout");
    let root = base.join("root");
    let cache = base.join("cache");
    for dir in [&checkout, &root, &cache] {
        let _ = std::fs::remove_dir_all(dir);
    }
    copy_the_checkout(&workspace, &checkout);
    let model = base.join("two_dining_philosophers.bir");
    std::fs::copy(workspace.join("models/two_dining_philosophers.bir"), &model).expect("the model");

    // `cargo install --path bir-cli --root R` in the copy (unoptimised, `--debug`, to keep
    // the test to minutes: the build script that carries the sources is the same).
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let (status, _, err) = run(Command::new(&cargo)
        .args(["install", "--debug", "--locked", "--path"])
        .arg(checkout.join("bir-cli"))
        .arg("--root")
        .arg(&root)
        .env("CARGO_TARGET_DIR", base.join("target"))
        .env_remove("CARGO_BUILD_TARGET")
        .current_dir(&base));
    assert_eq!(status, 0, "cargo install failed:\n{err}");
    let bir = root
        .join("bin")
        .join(format!("bir{}", std::env::consts::EXE_SUFFIX));
    assert!(bir.is_file(), "{} is not installed", bir.display());

    // The checkout is gone.
    std::fs::remove_dir_all(&checkout).expect("the copy is removed");
    let check = |envs: &[(&str, &str)], more: &[&str]| {
        let mut command = Command::new(&bir);
        command
            .arg("check")
            .arg(&model)
            .arg("--cache")
            .arg(&cache)
            .args(more)
            // Built unoptimised, as the other tests of the cache build it.
            .env("BIR_CACHE_PROFILE", "dev")
            .current_dir(&base);
        for (name, value) in envs {
            command.env(name, value);
        }
        run(&mut command)
    };
    let (status, compiled, err) = check(&[], &[]);
    println!("{err}{compiled}");
    assert_eq!(status, 1, "{compiled}{err}");
    assert!(
        err.starts_with("bir: compiling the model and, once for this cache, the runtime"),
        "{err}"
    );
    assert!(
        !err.contains("bir: note:"),
        "no fallback on the interpreter: {err}"
    );
    assert!(
        compiled.starts_with("TwoDiningPhilosophers: deadlock found"),
        "{compiled}"
    );
    // The checker's crate links the sources written into the cache, not the checkout.
    let crates: Vec<PathBuf> = std::fs::read_dir(cache.join("models"))
        .expect("the model's crate")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    assert_eq!(crates.len(), 1, "{crates:?}");
    let manifest = std::fs::read_to_string(crates[0].join("Cargo.toml")).expect("a manifest");
    let sources = cache.join("sources");
    assert!(
        manifest.contains(&format!("path = \"{}/", sources.display())),
        "{manifest}"
    );
    assert!(
        !manifest.contains(&checkout.display().to_string()),
        "{manifest}"
    );
    // A second check runs the cached checker, without cargo; the interpreter agrees.
    let (status, again, err) = check(&[("CARGO", "/nonexistent/cargo")], &[]);
    assert_eq!((status, err.as_str()), (1, ""), "{again}");
    let without_time = |report: &str| {
        report
            .lines()
            .filter(|line| !line.starts_with("states: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_time(&again), without_time(&compiled));
    let (status, interpreted, _) = check(&[], &["--interpret"]);
    assert_eq!(status, 1);
    assert_eq!(without_time(&interpreted), without_time(&compiled));
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&cache);
}
