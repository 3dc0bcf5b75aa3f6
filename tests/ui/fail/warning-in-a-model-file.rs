#![deny(deprecated)]
// The warnings of a model read from a file name its file, line and column.
use bir::bir;

bir!(file = "warning-in-a-model-file.bir");

fn main() {
    let _ = Certain::checker();
}
