//! Regressions found by fuzzing (`fuzz/`, see `docs/guide/internals.md`, "Fuzzing"): inputs that once made the macro
//! panic, overflow the stack or hang. Each file in `tests/regressions/` is a `bir!` body
//! whose first line says what the macro must answer: `// expect: ok` (it expands to the
//! checker) or `// expect: error <text>` (a compile error containing `<text>`). Inputs too
//! large to keep as files (deep nesting) are built here instead; they run on the test
//! thread's small stack, in a debug build, so that the limits leave room to spare.

use std::str::FromStr;
use std::time::{Duration, Instant};

use bir_codegen::front::parse::{MAX_EXPR_DEPTH, MAX_GROUP_DEPTH};
use proc_macro2::TokenStream;

/// Expands `source` as `bir!` would: the compile errors, or none when it is accepted.
fn errors(source: &str) -> Vec<String> {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let started = Instant::now();
    let output = bir_codegen::expand(tokens.clone());
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the expansion took {:?}",
        started.elapsed()
    );
    assert!(!output.is_empty());
    match bir_codegen::front_end(tokens) {
        Ok(_) => Vec::new(),
        Err(diags) => diags.iter().map(|d| d.message.clone()).collect(),
    }
}

fn assert_error(source: &str, expected: &str) {
    let errors = errors(source);
    assert!(
        errors.iter().any(|e| e.contains(expected)),
        "expected an error containing {expected:?}, got {errors:#?}"
    );
}

fn assert_ok(source: &str) {
    let errors = errors(source);
    assert!(errors.is_empty(), "expected no error, got {errors:#?}");
}

#[test]
fn every_regression_file_gives_its_expected_answer() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/regressions exists")
        .map(|entry| entry.expect("readable").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bir"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let source = std::fs::read_to_string(&path).expect("readable");
        let expect = source
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{}: no `// expect:` line", path.display()));
        eprintln!("{}", path.display());
        // The expansion is Rust that rustc can read. (Not checked on the deeply nested
        // inputs below: `syn`'s parser of Rust expressions needs more stack than a test
        // thread has for their code, which rustc, growing its stack as needed, compiles.)
        let output = bir_codegen::expand(TokenStream::from_str(&source).expect("tokenizes"));
        syn::parse2::<syn::File>(output).expect("the expansion parses as a Rust file");
        match expect.strip_prefix("error ") {
            Some(text) => assert_error(&source, text),
            None if expect == "ok" => assert_ok(&source),
            None => panic!("{}: bad `// expect:` line", path.display()),
        }
    }
}

/// A one-thread model whose guard is `guard`.
fn with_guard(guard: &str) -> String {
    format!(
        "system S {{ int (0, 3) x; int (0, 3)[4] a; active thread T() {{ \
         loc l: when {guard} do {{ x := 1; }} goto l; }} }}"
    )
}

/// Guards whose expression tree is `n` levels high (a leaf is one level), for each way an
/// expression can nest.
fn nested_guards(n: usize) -> Vec<(&'static str, String)> {
    vec![
        // Parentheses, `==`, `x`.
        (
            "parentheses",
            format!("{}x == 0{}", "(".repeat(n - 2), ")".repeat(n - 2)),
        ),
        ("negations", format!("{}(x == 0)", "!".repeat(n - 3))),
        ("minus signs", format!("{}x == 0", "-".repeat(n - 2))),
        (
            "a left-nested chain",
            format!("x{} == 0", " + 1".repeat(n - 2)),
        ),
        // `&&` and parentheses alternate.
        (
            "a right-nested chain",
            format!(
                "{}true{}",
                "true && (".repeat((n - 1) / 2),
                ")".repeat((n - 1) / 2)
            ),
        ),
        (
            "conditionals",
            format!(
                "{}true{}",
                "x == 0 ? ".repeat(n - 2),
                " : false".repeat(n - 2)
            ),
        ),
        (
            "indices",
            format!("{}0{} == 0", "a[".repeat(n - 2), "]".repeat(n - 2)),
        ),
        (
            "quantifiers",
            format!(
                "{}true{}",
                (0..n - 1)
                    .map(|k| format!("forall q{k} in 0 .. 1 : ("))
                    .collect::<String>(),
                ")".repeat(n - 1)
            ),
        ),
    ]
}

#[test]
fn expressions_nested_to_the_limit_are_accepted() {
    for (shape, guard) in nested_guards(MAX_EXPR_DEPTH) {
        eprintln!("{shape}");
        assert_ok(&with_guard(&guard));
    }
}

#[test]
fn expressions_nested_past_the_limit_are_an_error_not_a_stack_overflow() {
    for levels in [MAX_EXPR_DEPTH + 1, 20_000] {
        for (shape, guard) in nested_guards(levels) {
            eprintln!("{shape}, {levels} levels");
            // Past the group limit, deep parentheses are caught before the parser runs.
            assert_error(&with_guard(&guard), "nested too deeply");
        }
    }
}

#[test]
fn delimiters_nested_past_the_limit_are_an_error() {
    for levels in [MAX_GROUP_DEPTH + 1, 20_000] {
        let braces = format!(
            "system S {{{}{} }}",
            "{".repeat(levels - 1),
            "}".repeat(levels - 1)
        );
        assert_error(&braces, "delimiters nested too deeply");
        let brackets = format!(
            "system S {{ int x := {}{}; }}",
            "[".repeat(levels),
            "]".repeat(levels)
        );
        assert_error(&brackets, "delimiters nested too deeply");
    }
    assert!(bir_codegen::front::parse::parse_expr(
        TokenStream::from_str(&format!("{}1{}", "(".repeat(20_000), ")".repeat(20_000)))
            .expect("tokenizes")
    )
    .is_err());
}

#[test]
fn attribute_values_are_not_parsed_as_rust_expressions() {
    // `syn` parses an attribute's value as a Rust expression, recursively.
    for value in [
        "!".repeat(20_000) + "1",
        "1".to_string() + &" + 1".repeat(20_000),
    ] {
        assert_error(
            &format!("system S {{ #[doc = {value}] int x; }}"),
            "attributes are not BIR",
        );
        assert_error(
            &format!("#![doc = {value}] system S {{ int x; }}"),
            "attributes are not BIR",
        );
    }
    // Doc comments, outer and inner, are still read.
    assert_ok("//! The system.\nsystem S {\n/// A variable.\nint x;\n/// A thread.\nactive thread T() { loc l: do { } goto l; } }");
}

#[test]
fn long_chains_of_constants_and_typealiases_are_an_error_not_a_stack_overflow() {
    let thread = "active thread T() { loc l: do { } goto l; }";
    for n in [66, 20_000] {
        // Each constant depends on the next, so resolving the first resolves them all.
        let consts: String = (0..n)
            .map(|i| format!("A{i} = C.A{} + 1; ", i + 1))
            .collect();
        assert_error(
            &format!("system S {{ const C {{ {consts} A{n} = 1; }} int x := C.A0; {thread} }}"),
            "ends a chain of more than 64 constants",
        );
        let aliases: String = (0..n)
            .map(|i| format!("typealias A{i} A{}; ", i + 1))
            .collect();
        assert_error(
            &format!("system S {{ {aliases} typealias A{n} int (0, 3); A0 x; {thread} }}"),
            "ends a chain of more than 64 constants",
        );
    }
    // Chains up to the limit, and any number of constants each depending on the one
    // before (resolved in order, one at a time), are fine.
    let consts: String = (0..63)
        .map(|i| format!("A{i} = C.A{} + 1; ", i + 1))
        .collect();
    assert_ok(&format!(
        "system S {{ const C {{ {consts} A63 = 1; }} int x := C.A0; {thread} }}"
    ));
    let consts: String = (1..2_000)
        .map(|i| format!("A{i} = C.A{} + 1; ", i - 1))
        .collect();
    assert_ok(&format!(
        "system S {{ const C {{ A0 = 1; {consts} }} int x := C.A1999; {thread} }}"
    ));
}
