//! Resolving a checker's options against a model into the [`Plan`], or the
//! [`ConfigError`] that says why they cannot run.

use crate::model::{Model, PropertyInfo, PropertyKind};
use crate::store::Bitstate;
use crate::verdict::Strategy;

use super::heuristic::{self, Heuristic};
use super::swarm;
use super::{
    one_table, product_word_bits, ConfigError, Fairness, Options, Plan, PropertyCheck, Storage,
    BITSTATE_HASHES, BITSTATE_LOG2_BITS, MAX_THREADS,
};

/// Resolves the plan of an exhaustive search (`simulation` false) or a simulation.
pub(crate) fn resolve<M: Model>(
    model: &M,
    options: &Options,
    simulation: bool,
) -> Result<Plan, ConfigError> {
    if options.threads == 0 || options.threads > MAX_THREADS {
        return Err(ConfigError::Threads {
            threads: options.threads,
        });
    }
    if let Storage::Bitstate { log2_bits, hashes } = options.storage {
        if !BITSTATE_LOG2_BITS.contains(&log2_bits) {
            return Err(ConfigError::BitstateSize { log2_bits });
        }
        if !BITSTATE_HASHES.contains(&hashes) {
            return Err(ConfigError::BitstateHashes { hashes });
        }
        let bytes = Bitstate::bytes_for(log2_bits);
        if let Some(limit) = options.memory_limit {
            if bytes > limit as u64 {
                return Err(ConfigError::BitstateMemory { bytes, limit });
            }
        }
    }
    let initial = model.initial_state();
    let words = model.state_word(&initial).is_some();
    // Compact storage of wider states stores the words the model writes them as.
    let writes_words = words || model.write_state_words(&initial, &mut Vec::new());
    let mut notes = Vec::new();
    let property = match &options.property {
        Some(check) => Some(resolve_property(model, options, check)?),
        None if options.fairness != Fairness::None => {
            return Err(ConfigError::Unsupported {
                combination: "fairness without an LTL property",
                reason: "fairness concerns the runs an LTL check considers; select one with \
                         `ltl(name)`",
            })
        }
        None => None,
    };
    let heuristic_search = matches!(
        options.strategy,
        Strategy::BestFirst | Strategy::OrderedDepthFirst | Strategy::Swarm
    );
    let strategy = if let Some((strategy, _)) = property {
        if heuristic_search && !simulation {
            return Err(ConfigError::Unsupported {
                combination: "a property check by a heuristic search or a swarm",
                reason: "LTL and reachability checks run searches of their own; drop the                          heuristic search or the swarm",
            });
        }
        if simulation {
            return Err(ConfigError::Unsupported {
                combination: "a random simulation of a property check",
                reason: "walks check safety only; drop `ltl`/`reachable`",
            });
        }
        strategy
    } else if simulation {
        if options.threads > 1 {
            return Err(ConfigError::Unsupported {
                combination: "a random simulation on several threads",
                reason: "walks run on one thread; drop `threads`",
            });
        }
        if options.storage.is_lossy() {
            return Err(ConfigError::Unsupported {
                combination: "a random simulation with hash compaction or bitstate hashing",
                reason: "a simulation stores states only to count them; drop the storage option",
            });
        }
        Strategy::Simulation
    } else if options.strategy == Strategy::Swarm {
        Strategy::Swarm
    } else if options.threads > 1 {
        if heuristic_search {
            return Err(ConfigError::Unsupported {
                combination: "a best-first or ordered depth-first search on several threads",
                reason: "a heuristic orders one search; drop `threads`, or run a swarm of                          diversified searches on them (`swarm`)",
            });
        }
        if options.strategy == Strategy::BreadthFirst {
            return Err(ConfigError::Unsupported {
                combination: "breadth-first search on several threads",
                reason: "the parallel search expands states in no fixed order, so its \
                         counterexamples are not shortest; drop `threads` for shortest \
                         counterexamples, or `bfs` for speed",
            });
        }
        Strategy::Parallel
    } else {
        options.strategy
    };
    let mut storage = options.storage;
    if strategy == Strategy::Swarm {
        storage = swarm::storage(options, &mut notes)?;
    } else if storage == Storage::HashCompaction && words {
        storage = Storage::Exact;
        notes.push(
            "hash compaction asked for, but every state fits in a 64-bit word: states are \
             stored exactly, in as little memory as their fingerprints would take"
                .to_string(),
        );
    }
    // An LTL search stores product states: as words when the model's word and the
    // automaton's state fit in one, else (compact) as trees of the words the model writes.
    let product_words =
        property.is_some_and(|(_, index)| product_word_bits(model, index).is_some());
    if storage == Storage::Compact && strategy != Strategy::Swarm {
        storage = compact_or_exact(strategy, writes_words, product_words, &mut notes)?;
    }
    let layout = match (strategy, storage, words) {
        (Strategy::Swarm, Storage::Bitstate { .. }, _) => "a bit array per search",
        (Strategy::Swarm, _, _) => "64-bit fingerprints, a table per search",
        (_, Storage::Bitstate { .. }, _) => "bits of a bit array",
        (Strategy::NestedDepthFirst, Storage::Compact, _) if product_words => {
            "remainders of product states' words in quotient tables (blue and red); the \
             stack's words in a set (cyan); the stack as successor numbers"
        }
        (Strategy::NestedDepthFirst, Storage::Compact, _) => {
            "trees of interned half-words of product states, their roots' remainders in \
             quotient tables (blue and red); the stack's states in a set (cyan); the stack \
             as successor numbers"
        }
        (Strategy::DepthFirst, Storage::Compact, true) => {
            "remainders of words in a quotient table; the depth-first path as successor numbers"
        }
        (_, Storage::Compact, true) => {
            "remainders of words in a quotient table; one level of states queued, with 8-byte \
             parent links"
        }
        (Strategy::DepthFirst, Storage::Compact, false) => {
            "trees of interned half-words, their roots' remainders in a quotient table; the \
             depth-first path as successor numbers"
        }
        (_, Storage::Compact, false) => {
            "trees of interned half-words, their roots' remainders in a quotient table; one \
             level of states queued, with 8-byte parent links"
        }
        (_, Storage::HashCompaction, _) => "64-bit fingerprints",
        (Strategy::BreadthFirst, _, _) => "states in discovery order, with 4-byte parent links",
        (Strategy::NestedDepthFirst, Storage::Exact, _)
            if property.is_some_and(|(_, index)| one_table(model, index)) =>
        {
            "product states as words with two colour bits, in one table (blue, cyan and red)"
        }
        (Strategy::NestedDepthFirst, _, _) if product_words => {
            "product states as words, in two tables (blue and red); the stack's words in a \
             set (cyan)"
        }
        (Strategy::NestedDepthFirst, _, _) => "product states inline, in two sets (blue and red)",
        (Strategy::FairCycles, _, _) if product_words => {
            "product states as words, each with its search number, in one table"
        }
        (Strategy::FairCycles, _, _) => {
            "product states inline, and the search numbers of the live ones in a map"
        }
        (_, _, true) => "64-bit words",
        (Strategy::Parallel, _, false) => "states inline, in 64 locked shards",
        (_, _, false) => "states inline",
    };
    let weak = property.is_some_and(|(_, index)| match &model.properties()[index].kind {
        PropertyKind::Ltl { automaton, .. } => automaton.is_weak(),
        PropertyKind::Reachable => false,
    });
    if strategy == Strategy::NestedDepthFirst && weak {
        notes.push(
            "the property's automaton is weak (each of its cycles accepting throughout or \
             nowhere): the blue search finds every accepting cycle on its own, so there is no \
             red search"
                .to_string(),
        );
    }
    if strategy == Strategy::BreadthFirst && storage.is_lossy() {
        notes.push(
            "the breadth-first queue holds one level of states at a time; the seen set \
             keeps no states, and counterexamples are rebuilt from 8-byte parent links"
                .to_string(),
        );
    }
    let por = options.por && model.ample_safe().contains(&true);
    if options.por && heuristic_search && !simulation {
        return Err(ConfigError::Unsupported {
            combination: "partial-order reduction in a heuristic search or a swarm",
            reason: "its cycle proviso is proven for depth-first and breadth-first order, \
                     not for an order a heuristic chooses; drop `por`",
        });
    }
    if options.por {
        if strategy == Strategy::Simulation {
            return Err(ConfigError::Unsupported {
                combination: "a random simulation with partial-order reduction",
                reason: "walks choose among all enabled transitions; drop `por`",
            });
        }
        if strategy == Strategy::FairCycles {
            return Err(ConfigError::Unsupported {
                combination: "an LTL check under fairness with partial-order reduction",
                reason: "the reduced graph drops interleavings that fairness is about; drop \
                         `por` or the fairness",
            });
        }
        let next_free = property.and_then(|(_, index)| match &model.properties()[index].kind {
            PropertyKind::Ltl { next_free, .. } => Some(*next_free),
            PropertyKind::Reachable => None,
        });
        if next_free == Some(false) {
            return Err(ConfigError::Unsupported {
                combination: "partial-order reduction for a formula with `X`",
                reason: "reduction preserves only properties that cannot count steps; drop \
                         `por`, or `X` from the formula",
            });
        }
        if !por {
            notes.push(
                "partial-order reduction asked for, but no location of the model is safe \
                 (every transformation touches something another instance shares or a \
                 property observes): the search is the full one"
                    .to_string(),
            );
        }
    }
    let symmetry = resolve_symmetry(model, options, strategy, &mut notes)?;
    let compact_serves = storage == Storage::Exact
        && compact_or_exact(strategy, writes_words, product_words, &mut Vec::new())
            == Ok(Storage::Compact);
    if let Some(heuristic) = &options.heuristic {
        heuristic::check(model, heuristic)?;
    }
    let heuristic = match strategy {
        Strategy::BestFirst | Strategy::OrderedDepthFirst => Some(options.ordering().describe()),
        Strategy::Swarm => options.heuristic.as_ref().map(Heuristic::describe),
        _ => None,
    };
    let threads = match strategy {
        Strategy::Swarm => swarm::threads(options),
        _ => options.threads,
    };
    Ok(Plan {
        strategy,
        threads,
        heuristic,
        swarm: if strategy == Strategy::Swarm {
            options.swarm
        } else {
            0
        },
        swarm_workers: usize::from(strategy == Strategy::Swarm),
        storage,
        layout,
        por,
        symmetry,
        property: property.map(|(_, index)| model.properties()[index].name.to_string()),
        fairness: options.fairness,
        notes,
        compact_serves,
    })
}

/// What compact storage becomes in a search of `strategy`: compact where the search has a
/// compact set (one thread; depth-first or breadth-first on states the model `writes` as
/// words, as every generated model does; the nested search on product states that are
/// words, `product_words`, or that the model writes as words), exact with a note
/// elsewhere; refused on several threads, where it was asked for.
fn compact_or_exact(
    strategy: Strategy,
    writes: bool,
    product_words: bool,
    notes: &mut Vec<String>,
) -> Result<Storage, ConfigError> {
    let note = match strategy {
        Strategy::Parallel => {
            return Err(ConfigError::Unsupported {
                combination: "compact storage on several threads",
                reason: "the compact set serves one thread; drop `threads`, or the compact \
                         storage for the parallel search's shared word table",
            })
        }
        Strategy::DepthFirst | Strategy::BreadthFirst if writes => return Ok(Storage::Compact),
        Strategy::DepthFirst | Strategy::BreadthFirst => {
            "compact storage asked for, but the states do not fit in a 64-bit word and the \
             model cannot write them as words (`Model::write_state_words`): they are stored \
             exactly, inline"
        }
        Strategy::NestedDepthFirst if product_words || writes => return Ok(Storage::Compact),
        Strategy::NestedDepthFirst => {
            "compact storage asked for, but the product states do not fit in a 64-bit word \
             and the model cannot write them as words (`Model::write_state_words`): they are \
             stored exactly, inline"
        }
        Strategy::FairCycles => {
            "compact storage asked for, but the search for fair cycles keeps a number with \
             each state it has not finished with (often all of them), which a word table holds \
             in its slots' spare bits and a quotient table would need a map for: states are \
             stored exactly"
        }
        _ => {
            "compact storage asked for, but it serves depth-first, breadth-first and nested \
             depth-first search: states are stored exactly, inline"
        }
    };
    notes.push(note.to_string());
    Ok(Storage::Exact)
}

/// The group of a symmetry-reduced search, in words; `None` when symmetry reduction is off
/// or the model has none (with a note on why); or why it cannot run.
fn resolve_symmetry<M: Model>(
    model: &M,
    options: &Options,
    strategy: Strategy,
    notes: &mut Vec<String>,
) -> Result<Option<String>, ConfigError> {
    if !options.symmetry {
        return Ok(None);
    }
    match strategy {
        Strategy::Simulation => {
            return Err(ConfigError::Unsupported {
                combination: "a random simulation with symmetry reduction",
                reason: "walks follow concrete transitions and store states only to count \
                         them; drop `symmetry`",
            })
        }
        Strategy::FairCycles => {
            return Err(ConfigError::Unsupported {
                combination: "an LTL check under fairness with symmetry reduction",
                reason: "fairness is about each instance, and a cycle of the reduced graph may \
                         hand an instance's steps to another; drop `symmetry` or the fairness",
            })
        }
        Strategy::NestedDepthFirst if options.por => {
            return Err(ConfigError::Unsupported {
                combination: "an LTL check with both symmetry and partial-order reduction",
                reason: "the cycle proviso of the reduction is not proven on the quotient; \
                         drop `symmetry` or `por`",
            })
        }
        _ => {}
    }
    let Some(symmetry) = model.symmetry() else {
        notes.push(
            "symmetry reduction asked for, but the model declares no symmetry (models \
             written by hand must implement `Model::symmetry` and `Model::encode`): the \
             search is the full one"
                .to_string(),
        );
        return Ok(None);
    };
    let initial = model.initial_state();
    let mut values = Vec::new();
    model.decode(&initial, &mut values);
    if model.encode(&values).as_ref() != Some(&initial) {
        notes.push(
            "symmetry reduction asked for, but the model cannot build states from values \
             (`Model::encode`): the search is the full one"
                .to_string(),
        );
        return Ok(None);
    }
    if symmetry.is_trivial() {
        let why = if symmetry.notes.is_empty() {
            "it has no family of `active [N]` threads nor a pool".to_string()
        } else {
            symmetry.notes.join("; ")
        };
        notes.push(format!(
            "symmetry reduction asked for, but the model has no symmetry ({why}): the \
             search is the full one"
        ));
        return Ok(None);
    }
    notes.extend(
        symmetry
            .notes
            .iter()
            .map(|note| format!("symmetry: {note}")),
    );
    Ok(Some(symmetry.describe()))
}

/// The strategy of a property check and the property's index, or why it cannot run.
fn resolve_property<M: Model>(
    model: &M,
    options: &Options,
    check: &PropertyCheck,
) -> Result<(Strategy, usize), ConfigError> {
    let (name, reachable) = match check {
        PropertyCheck::Ltl(name) => (name, false),
        PropertyCheck::Reachable(name) => (name, true),
    };
    let kind = if reachable { "reachable" } else { "ltl" };
    let of_kind = |p: &&PropertyInfo| matches!(p.kind, PropertyKind::Reachable) == reachable;
    let Some(index) = model
        .properties()
        .iter()
        .position(|p| p.name == *name && of_kind(&p))
    else {
        return Err(ConfigError::UnknownProperty {
            name: name.clone(),
            kind,
            known: model
                .properties()
                .iter()
                .filter(of_kind)
                .map(|p| p.name.to_string())
                .collect(),
        });
    };
    if options.threads > 1 {
        return Err(ConfigError::Unsupported {
            combination: "a property check on several threads",
            reason: "LTL and reachability checks run on one thread; drop `threads`",
        });
    }
    if reachable {
        if options.fairness != Fairness::None {
            return Err(ConfigError::Unsupported {
                combination: "fairness with a reachability check",
                reason: "fairness concerns infinite runs; a witness is a finite path",
            });
        }
        return Ok((Strategy::BreadthFirst, index));
    }
    if options.strategy == Strategy::BreadthFirst {
        return Err(ConfigError::Unsupported {
            combination: "an LTL check in breadth-first order",
            reason: "cycles are found by depth-first search; drop `bfs`",
        });
    }
    if options.fairness == Fairness::None {
        return Ok((Strategy::NestedDepthFirst, index));
    }
    if matches!(options.storage, Storage::Bitstate { .. }) {
        return Err(ConfigError::Unsupported {
            combination: "an LTL check under fairness with bitstate hashing",
            reason: "the search for fair cycles numbers every state; use exact storage or \
                     hash compaction",
        });
    }
    Ok((Strategy::FairCycles, index))
}
