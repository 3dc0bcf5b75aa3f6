use bir::bir;

bir! {
    system match {
        boolean b;
    }
}

fn main() {}
