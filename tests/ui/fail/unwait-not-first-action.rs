use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        lock m;

        active thread T() {
            loc a: do { lock(m); } goto b;
            loc b: do { wait(m); } goto c;
            loc c: do { x := 1; unwait(m); } goto d;
            loc d: do { unlock(m); } return;
        }
    }
}

fn main() {}
