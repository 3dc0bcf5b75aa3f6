//! The model files of the repository parse: version 3's reference models (`models/v3/`),
//! the BEEM protocols over channels (`models/beem/`) and the version-1 models.

use super::*;

/// Version 3's reference models whose every construct this parser takes.
const V3_MODELS: &[(&str, &str)] = &[
    (
        "big_abp",
        include_str!("../../../../../models/v3/big_abp.bir"),
    ),
    (
        "big_java_buffer",
        include_str!("../../../../../models/v3/big_java_buffer.bir"),
    ),
    (
        "big_java_buffer_notify",
        include_str!("../../../../../models/v3/big_java_buffer_notify.bir"),
    ),
    (
        "big_rdv_phils",
        include_str!("../../../../../models/v3/big_rdv_phils.bir"),
    ),
    (
        "chan_fifo",
        include_str!("../../../../../models/v3/chan_fifo.bir"),
    ),
    (
        "func_rec_stack",
        include_str!("../../../../../models/v3/func_rec_stack.bir"),
    ),
    (
        "heuristic_walk",
        include_str!("../../../../../models/v3/heuristic_walk.bir"),
    ),
    (
        "hl_vs_ll_peterson_high",
        include_str!("../../../../../models/v3/hl_vs_ll_peterson_high.bir"),
    ),
    (
        "hl_vs_ll_peterson_low",
        include_str!("../../../../../models/v3/hl_vs_ll_peterson_low.bir"),
    ),
    (
        "heap_renumber",
        include_str!("../../../../../models/v3/heap_renumber.bir"),
    ),
    (
        "heap_handoff",
        include_str!("../../../../../models/v3/heap_handoff.bir"),
    ),
    (
        "linked_queue",
        include_str!("../../../../../models/v3/linked_queue.bir"),
    ),
    (
        "lock_notify",
        include_str!("../../../../../models/v3/lock_notify.bir"),
    ),
    (
        "pool_clients",
        include_str!("../../../../../models/v3/pool_clients.bir"),
    ),
    (
        "pool_dispatch",
        include_str!("../../../../../models/v3/pool_dispatch.bir"),
    ),
    (
        "pool_race",
        include_str!("../../../../../models/v3/pool_race.bir"),
    ),
    (
        "pool_tids",
        include_str!("../../../../../models/v3/pool_tids.bir"),
    ),
    (
        "pool_wait_freed",
        include_str!("../../../../../models/v3/pool_wait_freed.bir"),
    ),
    (
        "rdv_pair",
        include_str!("../../../../../models/v3/rdv_pair.bir"),
    ),
    (
        "push_pop",
        include_str!("../../../../../models/v3/push_pop.bir"),
    ),
    (
        "array_fields",
        include_str!("../../../../../models/v3/array_fields.bir"),
    ),
    (
        "object_lock",
        include_str!("../../../../../models/v3/object_lock.bir"),
    ),
    (
        "lock_field",
        include_str!("../../../../../models/v3/lock_field.bir"),
    ),
    (
        "lock_field_global",
        include_str!("../../../../../models/v3/lock_field_global.bir"),
    ),
    (
        "object_lock_renumber",
        include_str!("../../../../../models/v3/object_lock_renumber.bir"),
    ),
    (
        "treiber_stack",
        include_str!("../../../../../models/v3/treiber_stack.bir"),
    ),
    (
        "exc_caller",
        include_str!("../../../../../models/v3/exc_caller.bir"),
    ),
];

/// The BEEM protocols, version 1 with rendezvous channels.
const BEEM_MODELS: &[(&str, &str)] = &[
    (
        "bridge.1",
        include_str!("../../../../../models/beem/bridge.1.bir"),
    ),
    (
        "leader_election.1",
        include_str!("../../../../../models/beem/leader_election.1.bir"),
    ),
    (
        "needham.1",
        include_str!("../../../../../models/beem/needham.1.bir"),
    ),
];

/// The models of `models/*.bir`: the version-1 reference models, the version-3 protocols
/// and the pool of workers.
const V1_MODELS: &[(&str, &str)] = &[
    (
        "alternating_bit",
        include_str!("../../../../../models/alternating_bit.bir"),
    ),
    (
        "leader_election",
        include_str!("../../../../../models/leader_election.bir"),
    ),
    (
        "thread_pool",
        include_str!("../../../../../models/thread_pool.bir"),
    ),
    (
        "bounded_buffer",
        include_str!("../../../../../models/bounded_buffer.bir"),
    ),
    (
        "full_buffer_caught",
        include_str!("../../../../../models/full_buffer_caught.bir"),
    ),
    (
        "full_buffer_escapes",
        include_str!("../../../../../models/full_buffer_escapes.bir"),
    ),
    (
        "dining_philosophers",
        include_str!("../../../../../models/dining_philosophers.bir"),
    ),
    (
        "dining_philosophers_fixed",
        include_str!("../../../../../models/dining_philosophers_fixed.bir"),
    ),
    (
        "peterson_filter",
        include_str!("../../../../../models/peterson_filter.bir"),
    ),
    (
        "peterson_local",
        include_str!("../../../../../models/peterson_local.bir"),
    ),
    (
        "readers_writers",
        include_str!("../../../../../models/readers_writers.bir"),
    ),
    (
        "sum_to_n",
        include_str!("../../../../../models/sum_to_n.bir"),
    ),
    (
        "toggle_bits",
        include_str!("../../../../../models/toggle_bits.bir"),
    ),
    (
        "two_dining_philosophers",
        include_str!("../../../../../models/two_dining_philosophers.bir"),
    ),
];

/// Every `.bir` file of `dir` (relative to the repository) is one of `listed`.
fn listed_are_all(dir: &str, listed: &[&str]) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut on_disk: Vec<String> = std::fs::read_dir(format!("{root}/{dir}"))
        .expect("the models' folder")
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_suffix(".bir").map(str::to_string)
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = listed.iter().map(|name| name.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "the models of {dir}");
}

#[test]
fn every_model_file_is_tested() {
    let v3: Vec<&str> = V3_MODELS.iter().map(|(name, _)| *name).collect();
    listed_are_all("models/v3", &v3);
    let beem: Vec<&str> = BEEM_MODELS.iter().map(|(name, _)| *name).collect();
    listed_are_all("models/beem", &beem);
    let v1: Vec<&str> = V1_MODELS.iter().map(|(name, _)| *name).collect();
    listed_are_all("models", &v1);
}

#[test]
fn version_3_models_parse() {
    for (name, source) in V3_MODELS.iter().chain(BEEM_MODELS).chain(V1_MODELS) {
        let errors = syntax_errors(source);
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
}

/// The source of the model `name` of models/v3.
fn v3_model(name: &str) -> &'static str {
    V3_MODELS
        .iter()
        .find_map(|&(model, source)| (model == name).then_some(source))
        .unwrap_or_else(|| panic!("models/v3/{name}.bir is not listed"))
}

/// The threads of a parsed model, by name.
fn thread<'a>(system: &'a System, name: &str) -> &'a Thread {
    system
        .decls
        .iter()
        .find_map(|decl| match decl {
            Decl::Thread(thread) if thread.name.text == name => Some(thread),
            _ => None,
        })
        .unwrap_or_else(|| panic!("thread {name}"))
}

#[test]
fn the_reference_models_have_the_expected_shapes() {
    let abp = system(v3_model("big_abp"));
    let channels = abp
        .decls
        .iter()
        .filter(|decl| {
            matches!(
                decl,
                Decl::Channel(ChannelDecl {
                    buffer: Some(_),
                    ..
                })
            )
        })
        .count();
    assert_eq!(channels, 2);
    let lossy = thread(&abp, "Lossy");
    assert_eq!(
        lossy.body.statements[0].to_string(),
        "while !done do choose when !empty(data) do data?(_, _); when !empty(ack) do ack?(_); \
         when done do skip; end end"
    );
    let high = system(v3_model("hl_vs_ll_peterson_high"));
    let p = thread(&high, "P");
    assert_eq!(p.body.locals.len(), 1);
    let StmtKind::While { body, .. } = &p.body.statements[0].kind else {
        panic!("while true")
    };
    let labels: Vec<&str> = body
        .iter()
        .filter_map(|statement| statement.label.as_ref().map(|label| label.text.as_str()))
        .collect();
    assert_eq!(labels, ["critical"]);
    let low = system(v3_model("hl_vs_ll_peterson_low"));
    assert_eq!(thread(&low, "P").body.locations.len(), 8);
    let phils = system(v3_model("big_rdv_phils"));
    let fields = phils
        .decls
        .iter()
        .filter_map(|decl| match decl {
            Decl::Channel(channel) => Some((channel.fields.len(), channel.len.is_some())),
            _ => None,
        })
        .collect::<Vec<_>>();
    assert_eq!(fields, [(0, true), (0, true)]);
    assert_eq!(
        thread(&phils, "Phil").body.statements[0].to_string(),
        "while true do pick[i]!; pick[(i + 1) % P.N]!; put[i]!; put[(i + 1) % P.N]!; end"
    );
    // BEEM: a location named `wait`, and `wait` still a lock action only before `(`.
    let leader = system(BEEM_MODELS[1].1);
    let node = thread(&leader, "Node_0");
    assert_eq!(node.body.locations[1].name.text, "wait");
    assert_eq!(
        node.body.locations[0].transforms[0].to_string(),
        "do { ch_1_in!(1 * 30 + 24); } goto wait;"
    );
}
