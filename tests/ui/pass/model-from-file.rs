// A model read from a file, relative to this source file's directory.
use bir::bir;

bir!(file = "../../../models/two_dining_philosophers.bir");

pub fn main() {
    let report = TwoDiningPhilosophers::checker().bfs().progress(false).run();
    assert_eq!(report.assert_deadlock().len(), 2);
}
