// The errors of a model read from a file name its file, line and column.
use bir::bir;

bir!(file = "model-file-with-errors.bir");

fn main() {
    let _ = Broken::checker();
}
