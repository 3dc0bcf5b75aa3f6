//! A counterexample as people read it: what was found, the numbered steps with what each
//! changed, the final state, the replay string.

use std::fmt;

use super::{ChangeDisplay, Counted, StateDisplay};
use crate::trace::{Counterexample, FindingKind};

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let steps = Counted(self.len() as u64, "step");
        writeln!(f, "{} after {steps}: {}", self.kind(), self.message())?;
        let info = self.info();
        writeln!(
            f,
            "  initial state: {}",
            StateDisplay::new(info, self.initial_state())
        )?;
        for (number, step) in self.steps().iter().enumerate() {
            write!(f, "  #{:<2} ", number + 1)?;
            match info.transitions.get(step.transition as usize) {
                Some(t) => {
                    write!(f, "{} {} -> {}   {}", t.thread, t.from, t.to, t.text)?;
                    if t.line != 0 {
                        write!(f, "   (line {})", t.line)?;
                    }
                }
                None => write!(f, "transition {}", step.transition)?,
            }
            writeln!(f)?;
            if step.fault.is_some() {
                writeln!(f, "        FAILS: {}", self.message())?;
            } else if let Some(changes) = ChangeDisplay::new(info, step) {
                writeln!(f, "        {changes}")?;
            }
        }
        writeln!(
            f,
            "  final state: {}",
            StateDisplay::new(info, self.final_state())
        )?;
        writeln!(f, "  replay: {}", self.replay())
    }
}
