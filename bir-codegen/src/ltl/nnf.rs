//! Negation normal form: negations only on propositions, and only `&& || X U R` besides;
//! then rewritten smaller, bottom-up, by rules that preserve the language (SPIN's
//! `rewrt.c` and Somenzi–Bloem, "Efficient Büchi automata from LTL formulae", 2000).
//! Smaller formulas give smaller tableaux, which matters since the tableau is exponential.

use super::Formula;

/// A formula in negation normal form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nnf {
    /// `true`.
    True,
    /// `false`.
    False,
    /// A proposition (`true`) or its negation (`false`).
    Lit(u32, bool),
    /// `f && g`.
    And(Box<Nnf>, Box<Nnf>),
    /// `f || g`.
    Or(Box<Nnf>, Box<Nnf>),
    /// `X f`.
    Next(Box<Nnf>),
    /// `f U g`.
    Until(Box<Nnf>, Box<Nnf>),
    /// `f R g`.
    Release(Box<Nnf>, Box<Nnf>),
}

use Nnf::*;

fn and(f: Nnf, g: Nnf) -> Nnf {
    And(Box::new(f), Box::new(g))
}

fn or(f: Nnf, g: Nnf) -> Nnf {
    Or(Box::new(f), Box::new(g))
}

fn until(f: Nnf, g: Nnf) -> Nnf {
    Until(Box::new(f), Box::new(g))
}

fn release(f: Nnf, g: Nnf) -> Nnf {
    Release(Box::new(f), Box::new(g))
}

fn next(f: Nnf) -> Nnf {
    Next(Box::new(f))
}

impl Nnf {
    /// The negation normal form of `formula`.
    pub fn from_formula(formula: &Formula) -> Nnf {
        Nnf::convert(formula, true)
    }

    /// `formula` if `positive`, else `!formula`, in negation normal form.
    fn convert(formula: &Formula, positive: bool) -> Nnf {
        let go = Nnf::convert;
        match (formula, positive) {
            (Formula::True, true) | (Formula::False, false) => True,
            (Formula::True, false) | (Formula::False, true) => False,
            (Formula::Atom(n), _) => Lit(*n, positive),
            (Formula::Not(f), _) => go(f, !positive),
            (Formula::And(f, g), true) | (Formula::Or(f, g), false) => {
                and(go(f, positive), go(g, positive))
            }
            (Formula::Or(f, g), true) | (Formula::And(f, g), false) => {
                or(go(f, positive), go(g, positive))
            }
            (Formula::Implies(f, g), true) => or(go(f, false), go(g, true)),
            (Formula::Implies(f, g), false) => and(go(f, true), go(g, false)),
            (Formula::Equiv(f, g), _) => {
                // f <-> g is (f && g) || (!f && !g); its negation (f && !g) || (!f && g).
                or(
                    and(go(f, true), go(g, positive)),
                    and(go(f, false), go(g, !positive)),
                )
            }
            (Formula::Next(f), _) => next(go(f, positive)),
            (Formula::Always(f), true) | (Formula::Eventually(f), false) => {
                release(False, go(f, positive))
            }
            (Formula::Eventually(f), true) | (Formula::Always(f), false) => {
                until(True, go(f, positive))
            }
            (Formula::Until(f, g), true) => until(go(f, true), go(g, true)),
            (Formula::Until(f, g), false) => release(go(f, false), go(g, false)),
            (Formula::Release(f, g), true) => release(go(f, true), go(g, true)),
            (Formula::Release(f, g), false) => until(go(f, false), go(g, false)),
            // f W g = g R (f || g); its negation (!g) U (!f && !g).
            (Formula::WeakUntil(f, g), true) => release(go(g, true), or(go(f, true), go(g, true))),
            (Formula::WeakUntil(f, g), false) => {
                until(go(g, false), and(go(f, false), go(g, false)))
            }
        }
    }

    /// `<> f` as `true U f`: recognised by the rules.
    fn eventually_of(&self) -> Option<&Nnf> {
        match self {
            Until(f, g) if **f == True => Some(g),
            _ => None,
        }
    }

    /// `[] f` as `false R f`.
    fn always_of(&self) -> Option<&Nnf> {
        match self {
            Release(f, g) if **f == False => Some(g),
            _ => None,
        }
    }

    /// The formula rewritten by the rules, bottom-up, until none applies.
    pub fn simplified(&self) -> Nnf {
        let rebuilt = match self {
            True | False | Lit(..) => return self.clone(),
            And(f, g) => and(f.simplified(), g.simplified()),
            Or(f, g) => or(f.simplified(), g.simplified()),
            Next(f) => next(f.simplified()),
            Until(f, g) => until(f.simplified(), g.simplified()),
            Release(f, g) => release(f.simplified(), g.simplified()),
        };
        // Each rule makes the formula smaller, or moves an `X` to the top, where no rule
        // applies: this ends.
        let mut current = rebuilt;
        while let Some(smaller) = current.rewrite_top() {
            current = smaller;
        }
        current
    }

    /// One rule applied at the top of a formula whose operands are simplified, if one
    /// applies.
    fn rewrite_top(&self) -> Option<Nnf> {
        Some(match self {
            And(f, g) => match (&**f, &**g) {
                (False, _) | (_, False) => False,
                (True, h) | (h, True) => h.clone(),
                (a, b) if a == b => a.clone(),
                (Lit(a, p), Lit(b, q)) if a == b && p != q => False,
                // X f && X g = X (f && g)
                (Next(a), Next(b)) => next(and((**a).clone(), (**b).clone()).simplified()),
                // f U h && g U h = (f && g) U h
                (Until(a, h1), Until(b, h2)) if h1 == h2 => until(
                    and((**a).clone(), (**b).clone()).simplified(),
                    (**h1).clone(),
                ),
                // h R f && h R g = h R (f && g)
                (Release(h1, a), Release(h2, b)) if h1 == h2 => release(
                    (**h1).clone(),
                    and((**a).clone(), (**b).clone()).simplified(),
                ),
                // <>[]f && <>[]g = <>[](f && g)
                (a, b) if eventually_always(a).is_some() && eventually_always(b).is_some() => {
                    let (Some(a), Some(b)) = (eventually_always(a), eventually_always(b)) else {
                        return None;
                    };
                    until(True, release(False, and(a.clone(), b.clone()).simplified()))
                }
                _ => return None,
            },
            Or(f, g) => match (&**f, &**g) {
                (True, _) | (_, True) => True,
                (False, h) | (h, False) => h.clone(),
                (a, b) if a == b => a.clone(),
                (Lit(a, p), Lit(b, q)) if a == b && p != q => True,
                // X f || X g = X (f || g)
                (Next(a), Next(b)) => next(or((**a).clone(), (**b).clone()).simplified()),
                // h U f || h U g = h U (f || g)
                (Until(h1, a), Until(h2, b)) if h1 == h2 => until(
                    (**h1).clone(),
                    or((**a).clone(), (**b).clone()).simplified(),
                ),
                // f R h || g R h = (f || g) R h
                (Release(a, h1), Release(b, h2)) if h1 == h2 => release(
                    or((**a).clone(), (**b).clone()).simplified(),
                    (**h1).clone(),
                ),
                // []<>f || []<>g = []<>(f || g)
                (a, b) if always_eventually(a).is_some() && always_eventually(b).is_some() => {
                    let (Some(a), Some(b)) = (always_eventually(a), always_eventually(b)) else {
                        return None;
                    };
                    release(False, until(True, or(a.clone(), b.clone()).simplified()))
                }
                _ => return None,
            },
            Next(f) => match &**f {
                True => True,
                False => False,
                _ => return None,
            },
            Until(f, g) => match (&**f, &**g) {
                (_, True) => True,
                (_, False) => False,
                (a, b) if a == b => a.clone(),
                (False, b) => b.clone(),
                // X f U X g = X (f U g)
                (Next(a), Next(b)) => next(until((**a).clone(), (**b).clone()).simplified()),
                // f U (f U g) = f U g
                (a, Until(c, d)) if a == &**c => until(a.clone(), (**d).clone()),
                // <> X f = X <> f
                (True, Next(b)) => next(until(True, (**b).clone())),
                // <>[]<> f = []<> f
                (True, b) if always_eventually(b).is_some() => b.clone(),
                _ => return None,
            },
            Release(f, g) => match (&**f, &**g) {
                (_, False) => False,
                (_, True) => True,
                (a, b) if a == b => a.clone(),
                (True, b) => b.clone(),
                // X f R X g = X (f R g)
                (Next(a), Next(b)) => next(release((**a).clone(), (**b).clone()).simplified()),
                // f R (f R g) = f R g
                (a, Release(c, d)) if a == &**c => release(a.clone(), (**d).clone()),
                // [] X f = X [] f
                (False, Next(b)) => next(release(False, (**b).clone())),
                // []<>[] f = <>[] f
                (False, b) if eventually_always(b).is_some() => b.clone(),
                _ => return None,
            },
            True | False | Lit(..) => return None,
        })
    }

    /// Operators and propositions in the formula.
    pub fn size(&self) -> usize {
        match self {
            True | False | Lit(..) => 1,
            Next(f) => 1 + f.size(),
            And(f, g) | Or(f, g) | Until(f, g) | Release(f, g) => 1 + f.size() + g.size(),
        }
    }
}

/// `f` when the formula is `<>[] f`.
fn eventually_always(formula: &Nnf) -> Option<&Nnf> {
    formula.eventually_of()?.always_of()
}

/// `f` when the formula is `[]<> f`.
fn always_eventually(formula: &Nnf) -> Option<&Nnf> {
    formula.always_of()?.eventually_of()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(n: u32) -> Box<Formula> {
        Box::new(Formula::Atom(n))
    }

    #[test]
    fn negations_reach_the_propositions() {
        let f = Formula::Not(Box::new(Formula::Always(Box::new(Formula::Implies(
            atom(0),
            Box::new(Formula::Eventually(atom(1))),
        )))));
        // !([](p -> <>q)) = true U (p && false R !q)
        assert_eq!(
            Nnf::from_formula(&f),
            until(True, and(Lit(0, true), release(False, Lit(1, false))))
        );
    }

    #[test]
    fn the_rules_make_formulas_smaller() {
        let gf = |n| release(False, until(True, Lit(n, true)));
        let fg = |n| until(True, release(False, Lit(n, true)));
        assert_eq!(
            or(gf(0), gf(1)).simplified(),
            release(False, until(True, or(Lit(0, true), Lit(1, true))))
        );
        assert_eq!(
            and(fg(0), fg(1)).simplified(),
            until(True, release(False, and(Lit(0, true), Lit(1, true))))
        );
        assert_eq!(and(Lit(0, true), Lit(0, false)).simplified(), False);
        assert_eq!(until(True, gf(0)).simplified(), gf(0));
        assert_eq!(next(True).simplified(), True);
        assert_eq!(
            until(next(Lit(0, true)), next(Lit(1, true))).simplified(),
            next(until(Lit(0, true), Lit(1, true)))
        );
    }
}
