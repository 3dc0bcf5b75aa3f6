//! The reference models are accepted verbatim: each example holds the text of its
//! `models/*.bir` file byte for byte inside `bir! { ... }`.

const PAIRS: &[(&str, &str)] = &[
    (
        include_str!("../../models/two_dining_philosophers.bir"),
        include_str!("../../examples/two_dining_philosophers.rs"),
    ),
    (
        include_str!("../../models/bounded_buffer.bir"),
        include_str!("../../examples/bounded_buffer.rs"),
    ),
    (
        include_str!("../../models/readers_writers.bir"),
        include_str!("../../examples/readers_writers.rs"),
    ),
    (
        include_str!("../../models/sum_to_n.bir"),
        include_str!("../../examples/sum_to_n.rs"),
    ),
    (
        include_str!("../../models/dining_philosophers.bir"),
        include_str!("../../examples/dining_philosophers.rs"),
    ),
    (
        include_str!("../../models/dining_philosophers_fixed.bir"),
        include_str!("../../examples/dining_philosophers_fixed.rs"),
    ),
    (
        include_str!("../../models/peterson_filter.bir"),
        include_str!("../../examples/peterson_filter.rs"),
    ),
];

#[test]
fn every_example_embeds_its_reference_model_byte_for_byte() {
    for (model, example) in PAIRS {
        let embedded = format!("bir! {{\n{model}}}\n");
        assert!(
            example.contains(&embedded),
            "an example does not embed this model verbatim:\n{model}"
        );
    }
}
