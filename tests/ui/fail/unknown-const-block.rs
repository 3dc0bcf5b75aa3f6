use bir::bir;

bir! {
    system S {
        const Param { N = 3; }
        int x := Parm.N;
    }
}

fn main() {}
