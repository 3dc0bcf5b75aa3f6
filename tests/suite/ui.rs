//! The compile-time suite: every case of `ui/fail/` must fail to compile with exactly its
//! `.stderr` (trybuild), and every model of `ui/pass/` must compile and run. The passing
//! cases are modules of this test binary rather than trybuild's (which builds and links each
//! one alone, seconds apiece): each runs its `main` as a test of its own, and a test checks
//! that every file of `ui/pass/` is listed here.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("ui/fail/*.rs");
}

/// Includes each passing case as a module and runs its `main` as a test of the same name.
macro_rules! passing_cases {
    ($($case:ident = $file:literal,)*) => {
        /// The files of `ui/pass/` this binary includes.
        const PASSING_FILES: &[&str] = &[$($file),*];
        $(
            #[path = $file]
            #[allow(dead_code, clippy::all)]
            mod $case;

            #[test]
            fn $case() {
                $case::main();
            }
        )*
    };
}

passing_cases! {
    active_threads = "../ui/pass/active-threads.rs",
    array_initialiser_lists = "../ui/pass/array-initialiser-lists.rs",
    assert_and_assume = "../ui/pass/assert-and-assume.rs",
    assign_written_with_a_space = "../ui/pass/assign-written-with-a-space.rs",
    conditional_expression = "../ui/pass/conditional-expression.rs",
    declarations_used_before_they_appear = "../ui/pass/declarations-used-before-they-appear.rs",
    doc_comments = "../ui/pass/doc-comments.rs",
    exit_without_jump = "../ui/pass/exit-without-jump.rs",
    expressions_and_constants = "../ui/pass/expressions-and-constants.rs",
    expressions_nested_to_the_limit = "../ui/pass/expressions-nested-to-the-limit.rs",
    int_wrap_and_byte = "../ui/pass/int-wrap-and-byte.rs",
    invariants = "../ui/pass/invariants.rs",
    jump_inside_or_after_the_block = "../ui/pass/jump-inside-or-after-the-block.rs",
    model_from_file = "../ui/pass/model-from-file.rs",
    names_shared_across_namespaces = "../ui/pass/names-shared-across-namespaces.rs",
    names_that_are_rust_keywords = "../ui/pass/names-that-are-rust-keywords.rs",
    quantifiers = "../ui/pass/quantifiers.rs",
    replicated_thread_parameter_any_name = "../ui/pass/replicated-thread-parameter-any-name.rs",
    return_and_exit = "../ui/pass/return-and-exit.rs",
    smallest_int_literal = "../ui/pass/smallest-int-literal.rs",
    started_thread_with_parameter = "../ui/pass/started-thread-with-parameter.rs",
    thread_at_location = "../ui/pass/thread-at-location.rs",
    thread_locals_with_initialisers = "../ui/pass/thread-locals-with-initialisers.rs",
    typealiases_and_enums = "../ui/pass/typealiases-and-enums.rs",
    user_items_named_like_generated_ones = "../ui/pass/user-items-named-like-generated-ones.rs",
    user_items_named_like_primitives_and_prelude = "../ui/pass/user-items-named-like-primitives-and-prelude.rs",
}

#[test]
fn every_passing_case_is_included() {
    let dir = crate::repo_root().join("tests/ui/pass");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/ui/pass")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs"))
        .map(|name| format!("../ui/pass/{name}"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = PASSING_FILES.iter().map(|f| f.to_string()).collect();
    listed.sort();
    assert_eq!(
        listed, on_disk,
        "list every file of tests/ui/pass in tests/suite/ui.rs"
    );
}
