use bir::bir;

bir! {
    system S {
        const Param { N = 3; }
        int x := Param.M;
    }
}

fn main() {}
