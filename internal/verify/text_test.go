package verify

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/internal/store"
)

// TestText: the one-line summary names what the game was checked
// against — Lichess, unchanged, or the sandbox's stand-in.
func TestText(t *testing.T) {
	done := store.Verification{State: store.VerifyDone, Judgements: 14, Agree: 14, CloudDone: true, CloudChecked: 5, CloudAgree: 4,
		LichessResult: `{"period":"Stockfish 16"}`}
	waiting := store.Verification{State: store.VerifyWaiting, Attempts: 2, NextAt: time.Date(2026, 12, 1, 22, 5, 0, 0, time.UTC)}
	for _, tc := range []struct {
		v       store.Verification
		against Against
		want    string
	}{
		{store.Verification{State: store.VerifyDone, Judgements: 14, Agree: 14}, Lichess, "verified against Lichess: 14/14 judgements agree"},
		{done, Lichess, "verified against Lichess: 14/14 judgements agree; Lichess's engine: Stockfish 16, cloud eval 4/5"},
		{done, "", "verified against Lichess: 14/14 judgements agree; Lichess's engine: Stockfish 16, cloud eval 4/5"},
		{done, StandIn, "verified against the sandbox's Lichess stand-in: 14/14 judgements agree; the sandbox's Lichess stand-in's engine: Stockfish 16, cloud eval 4/5"},
		{waiting, Lichess, "waiting for Lichess's analysis (2 polls so far, next 12-01 22:05 UTC)"},
		{waiting, StandIn, "waiting for the sandbox's Lichess stand-in's analysis (2 polls so far, next 12-01 22:05 UTC)"},
		{store.Verification{State: store.VerifyExpired, Error: "no Lichess analysis within 48h0m0s after the game (30 polls)",
			CloudDone: true, CloudMissing: 4}, Lichess, "no Lichess analysis (no Lichess analysis within 48h0m0s after the game (30 polls)), cloud eval: none of 4 critical moves in the cloud"},
		{store.Verification{State: store.VerifyExpired}, StandIn, "no analysis from the sandbox's Lichess stand-in"},
		{store.Verification{State: store.VerifyFailed, Error: "game gone"}, StandIn, "not verified: game gone"},
	} {
		assert.Equal(t, tc.want, Text(tc.v, tc.against))
	}
}

// TestAgainstURL: lichess.org (and its subdomains, and the default empty
// URL) is Lichess; any other server is the sandbox's stand-in.
func TestAgainstURL(t *testing.T) {
	for url, want := range map[string]Against{
		"":                                Lichess,
		"https://lichess.org":             Lichess,
		"https://Lichess.org./":           Lichess,
		"https://www.lichess.org":         Lichess,
		"http://127.0.0.1:9663":           StandIn,
		"http://localhost:8080":           StandIn,
		"https://notlichess.org":          StandIn,
		"https://lichess.org.example.com": StandIn,
	} {
		assert.Equal(t, want, AgainstURL(url), url)
	}
}
