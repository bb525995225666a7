// Package app wires Outpost's libraries together for the commands of
// cmd/outpost: the live daemon with its store, summaries, verification, web
// console and scheduled comparisons (RunLive); the daemon against an
// embedded sandbox (RunSandboxDemo); the expected-winrate calculator with
// Maia, a Stockfish pool and a cache (OpenEWR); the shared Maia predictor
// (MaiaOption) and the sandbox's stand-in fishnet (SandboxFishnet). The
// commands parse flags and call these; the work is the libraries'.
package app
