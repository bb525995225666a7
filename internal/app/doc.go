// Package app wires Outpost's libraries together for the commands of
// cmd/outpost, which parse flags and call it: the live daemon with its
// store, summaries, verification, web console and scheduled comparisons
// (RunLive); the daemon against an embedded sandbox (RunSandboxDemo);
// `outpost analyse`'s game-by-game stream (StreamAnalyses) and whole-run
// report (WriteAnalyses); the expected-winrate calculator with Maia, a
// Stockfish pool and a cache (OpenEWR, LazyEWR, and analyse --ewr's
// EWRParts); the shared Maia predictor (MaiaOption, MaiaConfig); the
// sandbox's stand-in fishnet (SandboxFishnet); `outpost config check`
// (CheckConfigs, EnvironmentWarnings); and `outpost bench` (BenchNPS, and
// BenchPerft, the one package outside the tests that imports notnil/chess,
// for its side-by-side speed figure).
package app
