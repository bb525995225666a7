package pgn

import "testing"

// TestResultOf: lila's result rule for every status class, the cases the
// three former copies disagreed on included (an aborted game was a draw in
// the daemon's records; an unclaimed timeout or a variant end without a
// winner was "*" in the Lichess JSON reader).
func TestResultOf(t *testing.T) {
	for _, tc := range []struct{ winner, status, want string }{
		{"white", "mate", "1-0"},
		{"black", "resign", "0-1"},
		{"black", "outoftime", "0-1"},
		{"", "draw", "1/2-1/2"},
		{"", "stalemate", "1/2-1/2"},
		{"", "outoftime", "1/2-1/2"},
		{"", "insufficientMaterialClaim", "1/2-1/2"},
		{"", "timeout", "1/2-1/2"},
		{"", "variantEnd", "1/2-1/2"},
		{"", "aborted", "*"},
		{"", "started", "*"},
		{"", "created", "*"},
		{"", "", "*"},
	} {
		if got := ResultOf(tc.winner, tc.status); got != tc.want {
			t.Errorf("ResultOf(%q, %q) = %q, want %q", tc.winner, tc.status, got, tc.want)
		}
	}
}
