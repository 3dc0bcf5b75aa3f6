use bir::bir;

bir! {
    system S {
        typealias Level int (0, 3);
        Levl current;
    }
}

fn main() {}
