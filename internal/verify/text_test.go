package verify

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/internal/store"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		v    store.Verification
		want string
	}{
		{store.Verification{State: store.VerifyDone, Judgements: 14, Agree: 14}, "verified against Lichess: 14/14 judgements agree"},
		{store.Verification{State: store.VerifyExpired, Error: "no Lichess analysis within 48h0m0s after the game (30 polls)",
			CloudDone: true, CloudMissing: 4}, "no Lichess analysis (no Lichess analysis within 48h0m0s after the game (30 polls)), cloud eval: none of 4 critical moves in the cloud"},
		{store.Verification{State: store.VerifyFailed, Error: "game gone"}, "not verified: game gone"},
	} {
		assert.Equal(t, tc.want, Text(tc.v))
	}
}
