use bir::bir;

bir! {
    system S {
        typealias Row int[4];
    }
}

fn main() {}
