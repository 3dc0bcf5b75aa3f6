//! The reference families at the sizes that need an optimised build, in a test target of
//! their own so that `.ci/run` compiles only these models in release mode:
//! `cargo test --release --workspace --test release --features bir-runtime/erased` (the
//! feature compiles the search shared by every model, see `searches.rs`). `cargo test`
//! leaves this target out (`test = false`): in debug mode these searches take over a
//! minute.
//! Every figure is `models/README.md`'s; depth-first and breadth-first search, exact and
//! compact storage agree on each (Peterson with local counters, N = 5, wider than a word, up
//! to a state limit); symmetry reduction counts the orbits.

#[macro_use]
#[path = "../common/search.rs"]
mod search;

#[path = "../common/other_search.rs"]
mod other_search;

include!("../../models/families.rs");

mod searches;

family_test!(
    philosophers_10,
    dining_philosophers,
    P10,
    10,
    154_450,
    1_116_130,
    1
);
family_test!(
    fixed_10,
    dining_philosophers_fixed,
    F10,
    10,
    102_571,
    714_868,
    0
);
family_test!(peterson_5, peterson_filter, Q5, 5, 88_560, 286_985, 0);
family_test!(
    philosophers_12,
    dining_philosophers,
    P12,
    12,
    1_684_801,
    14_610_252,
    1
);
family_test!(
    fixed_12,
    dining_philosophers_fixed,
    F12,
    12,
    1_118_878,
    9_415_128,
    0
);
family_test!(peterson_6, peterson_filter, Q6, 6, 1_827_936, 6_803_688, 0);

#[test]
fn symmetry_reduced_peterson_5_and_6_count_the_orbits() {
    peterson_filter!(Peterson5, 5);
    peterson_filter!(Peterson6, 6);
    assert_eq!(search::reduced(Peterson5::checker()).0, 4_555);
    assert_eq!(search::reduced(Peterson6::checker()).0, 20_610);
    assert_eq!(search::reduced(Peterson6::checker().threads(2)).0, 20_610);
}

#[test]
fn wide_peterson_local_5_stored_as_trees_agrees_with_exact_storage() {
    // 75-bit states (two words): the compact search stores them as trees. Both storages
    // search in the same order, so the first three million states agree too.
    peterson_local!(PetersonLocal5, 5);
    search::agree(PetersonLocal5::checker().max_states(3_000_000), &[Some(1)]);
}
