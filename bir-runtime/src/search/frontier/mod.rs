//! The frontiers: which state a search expands next. Each runs on the one core
//! (`search::core`) and ends in the one `finish`: depth-first (`dfs`), breadth-first
//! (`bfs`), best-first and heuristically ordered depth-first (`best_first`), diversified
//! searches at once (`swarm`), several threads sharing one seen set (`parallel`), random walks
//! (`simulation`), and one worker's part of a distributed breadth-first search (`shard`,
//! whose states `bir-dist` moves between workers).

pub(crate) mod best_first;
pub(crate) mod bfs;
pub(crate) mod dfs;
pub(crate) mod open;
pub(crate) mod parallel;
pub mod shard;
pub(crate) mod simulation;
pub(crate) mod swarm;
