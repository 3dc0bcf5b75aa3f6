//! `bir simulate --guided`: a guided simulation in the terminal, as Bogor's guided mode. The
//! current state and the enabled transitions are printed as numbered lines; the user types
//! a number to take that transition, `b` to go back, `f` to go forward again, `r` for a
//! random step (from `--seed`), `q` (or end of input) to quit. A path that reaches a
//! finding says so with the runtime's message and the replay string `bir check` would print.

use std::io::{BufRead, Write};

use bir_runtime::{Model, StateDisplay};

use crate::session::{Session, Status};

/// Runs the dialogue on `input` and `output` until the user quits.
pub fn run<M: Model + Clone>(
    session: &mut Session<M>,
    seed: u64,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut lines = input.lines();
    let mut random_steps = 0u64;
    loop {
        show(session, &mut output)?;
        write!(output, "> ")?;
        output.flush()?;
        let Some(line) = lines.next() else {
            writeln!(output)?;
            return Ok(());
        };
        let line = line?;
        let answer = line.trim();
        let choices: Vec<u32> = session.choices().iter().map(|c| c.transition).collect();
        match answer {
            "q" | "quit" => return Ok(()),
            "b" | "back" => {
                if !session.back() {
                    writeln!(output, "(at the initial state: nothing to undo)")?;
                }
            }
            "f" | "forward" => {
                if !session.forward() {
                    writeln!(output, "(no step to redo)")?;
                }
            }
            "r" | "random" => {
                // Each random step draws from its own seed, so that a run can be repeated.
                let taken = session.random(seed.wrapping_add(random_steps), 1);
                random_steps += 1;
                if taken == 0 {
                    writeln!(output, "(no transition is enabled)")?;
                }
            }
            "" => {}
            number => match number.parse::<usize>() {
                Ok(n) if (1..=choices.len()).contains(&n) => {
                    if let Err(message) = session.take(choices[n - 1]) {
                        writeln!(output, "{message}")?;
                    }
                }
                _ if choices.is_empty() => {
                    writeln!(output, "(no transition is enabled here: b back, q quit)")?
                }
                _ => writeln!(
                    output,
                    "(type 1 to {} to take a transition; b back, f forward, r random, q quit)",
                    choices.len()
                )?,
            },
        }
    }
}

/// Prints the step count, the state, where the path stands, and the numbered choices.
fn show<M: Model + Clone>(session: &Session<M>, output: &mut impl Write) -> std::io::Result<()> {
    let info = session.model().info();
    let values = session.values(session.state());
    writeln!(output)?;
    writeln!(
        output,
        "step {}: {}",
        session.path().len(),
        StateDisplay::new(info, &values)
    )?;
    match session.status() {
        Status::Running => {}
        Status::Ended => writeln!(output, "every instance has ended (a valid end state)")?,
        Status::Found(kind, message) => {
            writeln!(output, "{}: {message}", kind.describe())?;
            writeln!(output, "replay: {}", session.replay())?;
        }
    }
    for (index, choice) in session.choices().iter().enumerate() {
        let t = choice.info;
        let fails = if choice.fails { "   FAILS" } else { "" };
        writeln!(
            output,
            "  {:>2}  {} {} -> {}   {}   (line {}){fails}",
            index + 1,
            t.thread,
            t.from,
            t.to,
            t.text,
            t.line
        )?;
    }
    let back = if session.path().is_empty() {
        ""
    } else {
        "b back, "
    };
    let forward = if session.can_forward() {
        "f forward, "
    } else {
        ""
    };
    writeln!(output, "  {back}{forward}r random, q quit")
}

#[cfg(test)]
mod tests {
    use bir_interp::Interpreter;
    use bir_runtime::Checker;

    use super::*;

    #[test]
    fn two_choices_lead_to_the_deadlock_and_back() {
        let source = include_str!("../../models/two_dining_philosophers.bir");
        let model = Interpreter::from_source(source).unwrap();
        let mut session = Session::new(Checker::new(model));
        let mut out = Vec::new();
        run(&mut session, 0, &b"1\n2\nx\nb\nf\nq\n"[..], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("step 0: fork1 = false, fork2 = false"),
            "{out}"
        );
        assert!(
            out.contains("   1  Philosopher1 loc0 -> loc1   when !fork1"),
            "{out}"
        );
        assert!(out.contains("deadlock: no transition is enabled: Philosopher1 blocked at loc1"));
        assert!(out.contains("replay: bir1:0.4"), "{out}");
        assert!(out.contains("(no transition is enabled here"), "{out}");
        assert_eq!(session.replay(), "bir1:0.4");
    }
}
