//! Prints the generated heap model of a seed (`bir_difftest::generate_heap`):
//! `cargo run -p bir-difftest --example show_heap -- SEED`.
fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    print!("{}", bir_difftest::generate_heap("H", seed));
}
