use bir::bir;

bir!(file = "no-such-model.bir");

fn main() {}
