// Package analysis analyses chess games the way Lichess does: evals from
// White's point of view, Lichess's winning chances and Win%, judgements
// (Inaccuracy / Mistake / Blunder with the best-move gate and the mate
// cases), NAGs and comment wording, move and game accuracy, ACPL and the
// per-player counts, exactly as lila computes them. It also runs the engine
// side (a pool of UCI engines, one per worker, with crash restart and a
// deeper re-search of borderline plies) and compares our analysis with the
// Lichess analysis an input carries.
//
// Sub-packages: pgn (PGN syntax), replay (moves on a board, with bots/board's rules),
// input (PGN and Lichess JSON exports into Game values; GameSource),
// report (text, literate PGN and JSON output), chat (short chat summaries).
//
// # Rules (see ../shared/docs/lichess-analysis.md)
//
//   - wc(cp) = clamp(2/(1+exp(-0.00368208·cp)) − 1, −1, 1), cp uncapped, for
//     judgements; Win% = 50 + 50·wc(clamp(cp, ±1000)), a mate = ±1000.
//   - Ply 1's previous eval is +15 cp. A ply is judged only when the engine's
//     best move before it differs from the move played. Both cp: the mover's
//     loss of winning chances ≥ 0.3 Blunder, ≥ 0.2 Mistake, ≥ 0.1
//     Inaccuracy. Mate created: mover's previous cp < −999 Inaccuracy,
//     < −700 Mistake, else Blunder ("Checkmate is now unavoidable"); mate
//     lost: next cp > 999 Inaccuracy, > 700 Mistake, else Blunder ("Lost
//     forced checkmate sequence"); had mate and now mated: Blunder.
//   - Move accuracy 103.1668100711649·exp(−0.04354415386753951·drop) −
//     3.166924740191411 + 1 in [0, 100]; game accuracy = (volatility-weighted
//     mean + harmonic mean) / 2 with windows of clamp(evals/10, 2, 8) Win%s.
//   - ACPL: mean of max(0, loss) over own moves, capped cp, rounded.
//
// # Budgets
//
// Per position, by nodes (as Lichess) or depth. Presets: quick = 100,000
// nodes, lichess = 1,000,000 nodes (Lichess's budget for a requested
// analysis), lichess-sf15 = 1,500,000 nodes with a fresh hash per position
// (fishnet 2.x with Stockfish 15/15.1; with Debian's Stockfish 15.1 and a
// 16 MB hash it reproduces that analysis exactly), deep = 5,000,000 nodes
// (Lichess's broadcast budget). Otherwise positions are searched as the
// current fishnet does: chunks of 5 counted from the game's end, each
// searched backwards after ucinewgame and a warm-up search of the following
// position, at 6/7 of the node budget, with Stockfish's default 16 MB hash.
//
// # Engines
//
// Any UCI command line, or an engine name resolved by package enginepath:
// sf15 (Stockfish 15.1: the native build made by setup, else Debian's; the
// default), sf18 (the native Stockfish 18 build), sf19 (npm stockfish@19.0.0
// under node) and auto (19 when installed, else 15.1).
//
// # Borderline re-search
//
// A ply whose
// delta is within the borderline band (default 0.03) of a threshold gets
// both positions re-searched at 4× the budget; judgements still within the
// band are marked borderline.
//
// # JSON output schema
//
// `outpost analyse --format json` writes one object:
//
//	{
//	  "games": [ {
//	    "id": "q7ZvsdUF",              // Lichess id, else "<source>#<index>"
//	    "index": 1,                    // 1-based game index in its source
//	    "source": "games.pgn",
//	    "players": {
//	      "white": {"name": "…", "rating": 2389,
//	                "accuracy": 90,            // rounded as Lichess; null if evals missing
//	                "accuracy_exact": 89.7,
//	                "acpl": 26,                // null if no evaluated move
//	                "inaccuracy": 5, "mistake": 2, "blunder": 1},
//	      "black": { … }
//	    },
//	    "result": "1/2-1/2",
//	    "fen": "…",                    // start FEN, only for games from a position
//	    "engine": "Stockfish 15.1 nodes 1000000" | "lichess-evals",
//	    "plies": [ {
//	      "ply": 8, "move_number": 4, "color": "black",
//	      "san": "Nd7", "uci": "b8d7",
//	      "eval": {"cp": 85} | {"mate": -3} | null,   // after the move, White POV
//	      "best_uci": "d5e4" | null,   // engine's best move before the move
//	      "best_san": "dxe4" | null,   //   (null when unknown, e.g. --lichess-evals
//	                                   //   on a ply Lichess gave no advice)
//	      "variation": ["dxe4", "Nxe4", …],           // judged plies, ≤ 12 plies
//	      "judgment": "Inaccuracy" | "Mistake" | "Blunder" | null,
//	      "nag": "?!",
//	      "comment": "Inaccuracy. dxe4 was best.",   // Lichess JSON wording
//	      "eval_change": "0.05 → 0.85",              // the literate "(a → b)"
//	      "mate_case": "created" | "lost",
//	      "delta": 0.137,              // mover's loss of winning chances (cp evals)
//	      "accuracy": 71.3,            // move accuracy
//	      "borderline": true           // stayed within the band after re-search
//	    } ],
//	    "comparison": {                // only when the input carries Lichess's analysis
//	      "judgments": {"lichess": 15, "ours": 14, "exact": 11},
//	      "eval_mae_cp": 23.4, "eval_mae_winpct": 2.1, "eval_plies": 125,
//	      "confusion": {"Inaccuracy": {"none": 2, "Inaccuracy": 6, …}, …},  // [lichess][ours]
//	      "precision": 0.9, "recall": 0.85, "f1": 0.87, "same_name_rate": 0.73,
//	      "plies": 125, "agree": 118, "within_one_grade": 124,
//	      "white": {"our_accuracy": 88.1, "lichess_accuracy": 90, "accuracy_diff": -1.9,
//	                "our_acpl": 29, "lichess_acpl": 26, "acpl_diff": 3},
//	      "black": { … },
//	      "ply_diffs": [ {"ply": 1, "ours": {"cp": 20}, "lichess": {"cp": 8},
//	                      "diff_cp": 12, "diff_winpct": 1.1} ],
//	      "disagreements": [ {"ply": 27, "san": "Qf3", "lichess": "Mistake", "ours": "Inaccuracy",
//	                          "cause": "borderline" | "eval_scale" | "mate_vs_cp" | "best_move_gate",
//	                          "our_delta": 0.19, "lichess_delta": 0.21} ],
//	      "causes": {"borderline": 3}
//	    }
//	  } ],
//	  "errors": ["games.pgn: game 3 (line 41; White \"x\"): line 44: move 12. Ke3: illegal move …"],
//	  "aggregate": { … }              // the comparisons summed over all games
//	}
//
// Optional fields are omitted when empty; null marks unknown values.
package analysis
