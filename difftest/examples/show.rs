//! Prints the generated model of a seed: `cargo run -p bir-difftest --example show -- SEED`;
//! `-- SEED pools` prints the pool generator's model of the seed.
fn main() {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    if args.next().as_deref() == Some("pools") {
        print!("{}", bir_difftest::generate_pools("P", seed));
    } else {
        print!("{}", bir_difftest::generate("M", seed));
    }
}
