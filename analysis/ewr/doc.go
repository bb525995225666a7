// Package ewr computes the "expected winrate" of a position's moves: how
// well a human of a given rating can expect to do after each move, combining
// Maia's human move probabilities with Stockfish's evaluations.
//
// For the side to move (the analysing player):
//
//  1. Stockfish evaluates the position (the base winrate) and the position
//     after every legal move, all at the chosen depth. Moves keeping a
//     winrate of at least base + loss threshold are the candidates.
//  2. Phase A: for each candidate, Maia predicts both sides' moves
//     alternately, building a probability tree. A move is followed while the
//     path's cumulative probability stays at or above the probability
//     threshold; checkmate, stalemate, insufficient material, a repeated
//     position and the fifty-move rule end a path (a repetition scores as a
//     draw, as engines score repetitions in search).
//  3. Phase B: Stockfish evaluates the leaves and every position reached by
//     one of the analysing player's moves. When the analysing player's move
//     drops below base + loss threshold the path ends there with that
//     winrate (pruning reason "analyzing_player_blunder"); the opponent's
//     bad moves are followed, since they benefit the analysing player.
//  4. expected = Σ p·wr over the evaluated paths + (1 − Σ p)·base, where p
//     is a path's cumulative probability. Σ p is the coverage; confidence
//     is High above 80 %, Medium from 60 % to 80 %, Low below 60 %. Tree
//     depth is the mean length of the evaluated paths in plies (the
//     candidate move counts as ply 1).
//
// # Winrate
//
// There is one centipawn → winrate mapping, Lichess's Win%:
// winrate = 0.5 + 0.5·(2/(1+exp(−0.00368208·cp)) − 1) with cp capped at
// ±1000 (analysis.WinPercent / 100); a mate for a side counts as 1 for it
// and 0 for the other. Winrates are always from the analysing player's side.
//
// # Engines
//
// The calculation talks to two small interfaces, MoveProber (Maia) and
// Evaluator (Stockfish), so it can be tested on hand-built trees. The real
// adapters are MaiaProber (models.Predictor, which batches each tree level
// into few session runs), EngineEvaluator (StartEngines: one bots/uci
// engine per worker, hash kept across the calculation, results reported as
// they arrive) and PoolEvaluator (an analysis.Pool, for callers that
// already run one).
//
// An Evaluator that is also a Dispatcher (EngineEvaluator is) lets the
// calculation hand each engine its next position as results arrive. Phase
// B then has no rounds: an analysing player's move that clears the loss
// threshold releases its subtree at once, so no engine idles at the end of
// a round; and a position goes to the engine that searched its nearest
// evaluated ancestor, in depth-first order with the best candidate first,
// an idle engine stealing work when it has none of its own. The positions
// evaluated, the pruning and the result are the same as with rounds (a
// test checks it on random trees for any number of engines and any order
// of results).
//
// Stockfish is nearly all of the time (Maia about 1 %, more only in small
// endgames that take well under a second), and the work is as small as the
// specification allows: every position the result needs is searched once,
// at the chosen depth, and nothing else is. What saves nodes is the hash
// kept across related positions: 30 % fewer nodes than clearing it between
// searches (six benchmark positions, depth 12, one engine). A bigger hash
// (512 MB instead of 128 MB) and depth-first instead of round order save
// nothing measurable there.
//
// Every legal move is evaluated by its own search of the position after it,
// not by one MultiPV search over all legal moves: the searches run in
// parallel over the workers, each evaluation is keyed by position so the
// trees and transpositions reuse it, and it costs about as much. Over the
// ten benchmark positions at depth 12 (Stockfish 15.1, one thread, hash
// kept) one MultiPV search per position searched 7.9M nodes, the separate
// searches 8.9M: 11 % fewer nodes, but on one core instead of two, so the
// step would take about 1.8 times as long.
//
// # Caching
//
// With a Cache (internal/store's Store satisfies it) Stockfish evaluations
// are stored under kind "ewr-eval" keyed by the FEN without move counters and
// the depth, and whole results under "ewr-result" keyed by the position,
// its history and the parameters. Within one calculation each distinct
// position is evaluated once.
package ewr
