//! Prints the generated model of a seed: `cargo run -p bir-difftest --example show -- SEED`.
fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    print!("{}", bir_difftest::generate("M", seed));
}
