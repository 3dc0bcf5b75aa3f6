//! The two searches a generated model can run on give the same reports: the copy
//! specialised to the model's state type, which generated models use in release builds
//! such as this target's, and the one compiled once for every model (states as words
//! behind a vtable, `Call::erased`), which they use in debug builds. `OtherSearch`
//! (`tests/common/other_search.rs`) forwards a generated model to the search it does not use, for models stored in one word,
//! in two words and in three (boxed). This lives in the release target because the debug
//! suite would otherwise compile the specialised search for these models too, which doubled
//! its size.

use std::fmt::Write;

use bir::{Checker, Model, Report, Storage};

use crate::other_search::OtherSearch;
use crate::search::summary;

dining_philosophers!(Philosophers4, 4);
peterson_filter!(Peterson3, 3, ltl One: []<>(incs == 1); ltl Waiting: [](P[0]@waiting -> <>P[0]@critical););

bir::bir! {
/// Counters far wider than the values they reach: 5 x 31 bits in three words, and an
/// assertion that fails once every counter has reached 2.
system WideCounters {
  int (0, 2000000000)[5] count;
  active [3] thread Counter(int index) {
    loc step:
      when count[index] < 2 do { count[index] := count[index] + 1; } goto step;
      when count[index] == 2 do { assert (count[0] + count[1] + count[2] < 6); } goto step;
  }
}
}

bir::bir! {
/// Three 31-bit counters in two words, and a lock, reduced by symmetry too.
system TwoWords {
  int (0, 2000000000)[3] count;
  int (0, 2) owner := 2;
  active [2] thread P(int index) {
    loc idle: when owner == 2 do { owner := index; } goto cs;
    loc cs:
      when count[index] < 2 do { count[index] := count[index] + 1; owner := 2; } goto idle;
      when count[index] == 2 do { owner := 2; } goto idle;
  }
  reachable Both: count[0] == 2 && count[1] == 2;
}
}

/// Everything a report says that does not depend on timing: counts, verdict, the plan, the
/// coverage and every counterexample as printed.
fn everything(report: &Report) -> String {
    // Without the shared search compiled, `OtherSearch` would run the specialised one too.
    assert!(
        bir::__private::ERASED_SEARCH,
        "these tests compare the two copies of the search: run them with \
         `--features bir-runtime/erased` (plain release builds leave the shared one out)"
    );
    let mut text = format!(
        "{:?}\nplan: {:?}\ncoverage: {:?}\n",
        summary(report),
        report.plan(),
        report.coverage()
    );
    for finding in report.findings() {
        writeln!(text, "{finding}").expect("writing to a String");
    }
    text
}

/// Runs `model` configured as `own` (a checker of the generated model, on its own search)
/// and as `other` (the same builder calls on `OtherSearch`); the reports must agree.
fn compare<M: Model + Clone>(
    model: &M,
    own: impl FnOnce(Checker<M>) -> Checker<M>,
    other: impl FnOnce(Checker<OtherSearch<M>>) -> Checker<OtherSearch<M>>,
    configuration: &str,
) {
    let own = own(Checker::new(model.clone()).progress(false)).run();
    let other = other(Checker::new(OtherSearch(model.clone())).progress(false)).run();
    assert_eq!(
        everything(&own),
        everything(&other),
        "{}, configured {configuration}",
        own.name()
    );
}

/// [`compare`] for each configuration, a closure applied to both checkers.
macro_rules! agree {
    ($model:expr, $($configure:expr),+ $(,)?) => {
        $(compare(&$model, $configure, $configure, stringify!($configure));)+
    };
}

#[test]
fn one_word_searches_agree_in_every_order_and_storage() {
    agree!(
        Philosophers4,
        |c| c,
        |c| c.bfs(),
        |c| c.threads(2),
        |c| c.keep_going(3),
        |c| c.storage(Storage::Compact).keep_going(2),
        |c| c.bfs().storage(Storage::Compact),
        |c| c.hash_compaction(),
        |c| c.por(true).deadlock_detection(false),
        |c| c.max_states(100),
        |c| c.shortest(false),
    );
}

#[test]
fn ltl_checks_agree_under_every_fairness_and_with_symmetry() {
    agree!(
        Peterson3,
        |c| c.ltl("One"),
        |c| c.ltl("Waiting"),
        |c| c.ltl("Waiting").weak_fairness(),
        |c| c.ltl("Waiting").strong_fairness(),
        |c| c.ltl("One").weak_fairness(),
        |c| c.ltl("Waiting").symmetry(true),
        |c| c.symmetry(true),
        |c| c.symmetry(true).bfs(),
    );
}

#[test]
fn wide_states_agree_on_traces_operands_and_reachability() {
    for (model, words) in [(&WideCounters as &dyn WordsOf, 3), (&TwoWords, 2)] {
        assert_eq!(model.words(), words);
    }
    WideCounters::checker()
        .progress(false)
        .run()
        .assert_assertion_failure();
    let both = TwoWords::checker().reachable("Both").progress(false).run();
    both.assert_reachable();
    agree!(
        WideCounters,
        |c| c,
        |c| c.bfs(),
        |c| c.threads(2),
        |c| c.storage(Storage::Compact),
        |c| c.symmetry(true),
    );
    agree!(
        TwoWords,
        |c| c,
        |c| c.bfs().keep_going(2),
        |c| c.reachable("Both"),
        |c| c.storage(Storage::Compact),
        |c| c.symmetry(true),
    );
}

/// How many words a model writes its states as.
trait WordsOf {
    fn words(&self) -> usize;
}

impl<M: Model> WordsOf for M {
    fn words(&self) -> usize {
        let mut words = Vec::new();
        assert!(self.write_state_words(&self.initial_state(), &mut words));
        words.len()
    }
}

#[test]
fn simulations_and_replays_agree() {
    let own = Philosophers4::checker().progress(false).simulate(20, 50, 7);
    let other = Checker::new(OtherSearch(Philosophers4))
        .progress(false)
        .simulate(20, 50, 7);
    assert_eq!(everything(&own), everything(&other));
    let found = Philosophers4::checker().progress(false).run();
    let replay = found.assert_deadlock().replay();
    assert_eq!(
        Philosophers4::checker().replay(replay),
        Checker::new(OtherSearch(Philosophers4)).replay(replay)
    );
}
