// Package report writes game analyses: a plain-text table per game with a
// per-player summary, Lichess's literate annotated PGN, and JSON (the
// schema is documented in package analysis). With an EWRSet (outpost
// analyse --ewr) each format also carries the expected winrate at the
// game's critical moments: a "Critical moments" text section, an "ewr"
// array per JSON game, and an EWR comment after the move in the PGN.
package report
