// Package report writes game analyses: a plain-text table per game with a
// per-player summary, Lichess's literate annotated PGN, and JSON (the
// schema is documented in package analysis).
package report
