//! Snapshots of the code `bir!` generates: the expansion of every reference model in
//! `models/`, of two families at a small size, and of models using the constructs the
//! reference models do not (enums, wrapping types, `start`, `exit`, invariants, checked
//! arithmetic), pretty-printed with `prettyplease` as `cargo expand` would show them. The
//! snapshots are committed under `tests/snapshots/`, so that every change to the generated
//! code is a diff to review.
//!
//! A mismatch fails the test, in CI and locally alike: without `INSTA_UPDATE`, `insta`
//! writes the new expansion beside the old one as `tests/snapshots/*.snap.new` and panics
//! (with `CI` set it writes nothing). To accept a change, review it and update:
//!
//! ```sh
//! cargo insta review                 # with cargo-insta: accept or reject each diff
//! INSTA_UPDATE=always cargo test -p bir-codegen --test expand   # accept every diff
//! ```
//!
//! then commit the changed `.snap` files with the change that caused them.

use std::str::FromStr;

use proc_macro2::TokenStream;

/// The expansion of `source`, pretty-printed; it must be a valid Rust file.
fn expand(source: &str) -> String {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let output = bir_codegen::expand(tokens);
    let file: syn::File = syn::parse2(output).expect("the expansion parses as a Rust file");
    let text = prettyplease::unparse(&file);
    assert!(
        !text.contains("compile_error"),
        "the model has errors:\n{text}"
    );
    text
}

/// A reference model with `Param.N` changed from `from` to `to`.
fn sized(source: &str, from: u32, to: u32) -> String {
    let old = format!("N = {from};");
    assert!(source.contains(&old), "the model sets `{old}`");
    source.replace(&old, &format!("N = {to};"))
}

macro_rules! snapshot {
    ($name:ident, $source:expr) => {
        #[test]
        fn $name() {
            let text = expand(&$source);
            insta::with_settings!({ omit_expression => true }, {
                insta::assert_snapshot!(stringify!($name), text);
            });
        }
    };
}

snapshot!(
    bounded_buffer,
    include_str!("../../models/bounded_buffer.bir")
);
snapshot!(
    dining_philosophers,
    include_str!("../../models/dining_philosophers.bir")
);
snapshot!(
    dining_philosophers_fixed,
    include_str!("../../models/dining_philosophers_fixed.bir")
);
snapshot!(
    peterson_filter,
    include_str!("../../models/peterson_filter.bir")
);
snapshot!(
    readers_writers,
    include_str!("../../models/readers_writers.bir")
);
snapshot!(sum_to_n, include_str!("../../models/sum_to_n.bir"));
snapshot!(
    two_dining_philosophers,
    include_str!("../../models/two_dining_philosophers.bir")
);

// The families at their smallest interesting size.
snapshot!(
    dining_philosophers_n2,
    sized(include_str!("../../models/dining_philosophers.bir"), 5, 2)
);
snapshot!(
    peterson_filter_n2,
    sized(include_str!("../../models/peterson_filter.bir"), 3, 2)
);

// What the reference models leave out: const blocks, typealiases, enums, wrapping types,
// bytes, array initialisers, started threads with a parameter, `exit`, `assume`,
// `assert`, `?:`, `T[i]@loc` with a computed index, quantifiers (unrolled and looping),
// and an invariant.
snapshot!(
    constructs,
    "system Constructs {
        const C { K = 2; B = C.K > 1; }
        typealias Small int wrap (-2, 2);
        enum Mode { Off, On }
        Small[3] s := { -2, 0, 2 };
        Mode m := Mode.On;
        byte b;
        int (0, 3) n;
        invariant Ok: s[0] <= 2 && (m == Mode.On || b > 0);
        thread Worker(int (0, 3) job) {
            int acc;
            loc w: do { acc := acc / job; exit; } goto w;
        }
        active [C.K] thread T(int index) {
            loc a:
                when exists k in 0 .. 3 : (s[k] == index) do { start Worker(1); } goto b;
                do { assume (Worker@w); s[index] := s[index] + 1; } return;
            loc b:
                when T[1 - index]@a ? true : b % 2 == 0 do { b := -b * 3; assert (b != 7); } goto a;
                when T[n]@b && C.B do { m := m == Mode.On ? Mode.Off : Mode.On; } goto a;
                when forall i in 0 .. 100 : (exists j in 0 .. 3 : (s[j] != i)) do { n := n + 1; } goto b;
        }
    }"
);

// Arithmetic whose checks the value ranges keep or leave out: 64-bit overflow, division
// and remainder by zero or by -1, negation, writes outside a range, indices outside an
// array.
snapshot!(
    arithmetic,
    "system Arithmetic {
        int x;
        int (0, 9) small;
        int (-5, 5) signed;
        int wrap (0, 9) w;
        int (0, 9)[10] a;
        active thread T() {
            loc l:
                do { x := x * x * x; } goto l;
                do { x := x / small; small := small % 3; } goto l;
                do { signed := -signed; x := x % signed; x := x / signed; } goto l;
                do { small := small + 1; w := w + 1; } goto l;
                do { a[small] := a[x]; a[signed + 5] := 0; } goto l;
                when x * x * -2 % -1 == 0 do { x := 0; } goto l;
        }
    }"
);

// Properties: an LTL formula (its predicates evaluated as one bit set per state, its
// automaton as a table and as a `match`), a predicate that can fault, and a reachability
// check.
snapshot!(
    properties,
    "system Properties {
        int (0, 3)[2] a;
        int (0, 1) i;
        active thread T() {
            loc l: do { a[i] := (a[i] + 1) % 4; i := 1 - i; } goto l;
        }
        ltl Grows: [](a[0] == 1 -> <>(a[1] == 2)) && []<>(a[i] > 0);
        ltl Divides: <>(4 / (a[0] + a[1]) == 2);
        reachable Full: a[0] == 3 && a[1] == 3;
    }"
);

/// Transition functions are inlined into the successor function up to 256 transitions,
/// above which the optimiser's time would grow faster than the model (the limit's reason
/// is at `MOST_INLINED_TRANSITIONS` in `emit/step.rs`). Peterson's filter has 5 transitions
/// a thread.
#[test]
fn transitions_are_inlined_up_to_256_and_called_above() {
    let peterson = include_str!("../../models/peterson_filter.bir");
    let attribute_of_t0 = |threads: u32| {
        let text = expand(&sized(peterson, 3, threads));
        let at = text.find("fn t0(").expect("transition 0 is a function");
        let before = &text[..at];
        let attribute = before
            .rfind("#[inline")
            .expect("t0 has an inline attribute");
        before[attribute..]
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(attribute_of_t0(51), "#[inline(always)]");
    assert_eq!(attribute_of_t0(52), "#[inline(never)]");
}

/// Up to 1,024 slots the `ModelInfo` lists them in a static; above, it builds them in loops
/// at first use, an array's elements in one loop (the limit's reason is at
/// `MOST_LISTED_SLOTS` in `emit/info.rs`).
#[test]
fn the_slots_of_large_arrays_are_built_in_loops() {
    let model = |elements: u32| {
        expand(&format!(
            "system Big {{
                int (0, 3)[{elements}] a;
                boolean b;
                active thread T() {{ loc l: do {{ a[0] := 1; }} goto l; }}
            }}"
        ))
    };
    // 1,022 elements, `b` and the thread's status: 1,024 slots.
    let listed = model(1022);
    assert!(
        listed.contains("static INFO: ::bir::model::ModelInfo ="),
        "{listed}"
    );
    let built = model(1023);
    assert!(built.contains("static INFO: ::std::sync::LazyLock<::bir::model::ModelInfo>"));
    assert!(built.contains("for element in 0u32..1023u32 {"), "{built}");
    assert_eq!(
        built.matches(".push(::bir::model::SlotInfo {").count(),
        3,
        "the array's, `b`'s and the status's"
    );
}
