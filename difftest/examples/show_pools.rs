//! Prints the generated pool model of a seed (`bir_difftest::generate_pools`):
//! `cargo run -p bir-difftest --example show_pools -- SEED`.
fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    print!("{}", bir_difftest::generate_pools("Pools", seed));
}
