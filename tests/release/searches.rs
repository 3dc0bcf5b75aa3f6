//! The two searches a generated model can run on give the same reports: the copy
//! specialised to the model's state type, which generated models use in release builds
//! such as this target's, and the one compiled once for every model (states as words
//! behind a vtable, `Call::erased`), which they use in debug builds. `OtherSearch`
//! forwards a generated model to the search it does not use, for models stored in one word,
//! in two words and in three (boxed). This lives in the release target because the debug
//! suite would otherwise compile the specialised search for these models too, which doubled
//! its size.

use std::fmt::Write;

use bir::{
    AtomInfo, Checker, FailedCheck, Fault, InvariantFailure, Model, ModelInfo, Operand,
    PropertyInfo, Report, Storage, Successor, SymmetryInfo,
};

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

/// A generated model searched by the search it does not use by itself.
#[derive(Clone)]
struct OtherSearch<M>(M);

impl<M: Model> Model for OtherSearch<M> {
    type State = M::State;
    const HAS_SYMMETRY: bool = M::HAS_SYMMETRY;
    const HAS_LTL: bool = M::HAS_LTL;
    const WORD_STATE: bool = M::WORD_STATE;

    // The search the generated model does not use: it runs on the one compiled once in
    // debug builds, on its own copy in release builds.
    fn __check<C: bir::__private::Call>(&self, call: C) -> C::Output {
        if cfg!(debug_assertions) {
            call.specialised(self)
        } else {
            call.erased(self)
        }
    }

    fn info(&self) -> &ModelInfo {
        self.0.info()
    }
    fn initial_state(&self) -> M::State {
        self.0.initial_state()
    }
    fn successors(&self, state: &M::State, out: &mut Vec<Successor<M::State>>) {
        self.0.successors(state, out);
    }
    fn check_invariants(&self, state: &M::State) -> Result<(), InvariantFailure> {
        self.0.check_invariants(state)
    }
    fn is_end_state(&self, state: &M::State) -> bool {
        self.0.is_end_state(state)
    }
    fn state_word(&self, state: &M::State) -> Option<u64> {
        self.0.state_word(state)
    }
    fn state_word_bits(&self) -> Option<u32> {
        self.0.state_word_bits()
    }
    fn write_state_words(&self, state: &M::State, out: &mut Vec<u64>) -> bool {
        self.0.write_state_words(state, out)
    }
    fn state_from_words(&self, words: &[u64]) -> Option<M::State> {
        self.0.state_from_words(words)
    }
    fn decode(&self, state: &M::State, values: &mut Vec<i64>) {
        self.0.decode(state, values);
    }
    fn ample_safe(&self) -> &[bool] {
        self.0.ample_safe()
    }
    fn operands(&self, state: &M::State, check: FailedCheck, out: &mut Vec<Operand>) {
        self.0.operands(state, check, out);
    }
    fn atoms_info(&self) -> &[AtomInfo] {
        self.0.atoms_info()
    }
    fn atoms(&self, state: &M::State) -> [u64; 2] {
        self.0.atoms(state)
    }
    fn symmetry(&self) -> Option<&SymmetryInfo> {
        self.0.symmetry()
    }
    fn encode(&self, values: &[i64]) -> Option<M::State> {
        self.0.encode(values)
    }
    fn properties(&self) -> &[PropertyInfo] {
        self.0.properties()
    }
    fn propositions(&self, property: usize, state: &M::State) -> Result<u64, Fault> {
        self.0.propositions(property, state)
    }
    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.0.automaton_step(property, from, props, out);
    }
}

/// Everything a report says that does not depend on timing: counts, verdict, the plan, the
/// coverage and every counterexample as printed.
fn everything(report: &Report) -> String {
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
