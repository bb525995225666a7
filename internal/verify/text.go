package verify

import (
	"encoding/json"
	"fmt"

	"github.com/outpostchess/outpost/internal/store"
)

// Text is the one-line summary of a verification against srv, as the
// demo, the console and `outpost compare --bot` show it.
func Text(v store.Verification, srv Against) string {
	var s string
	switch v.State {
	case store.VerifyDone:
		s = fmt.Sprintf("verified against %s: %d/%d judgements agree", srv.Name(), v.Agree, v.Judgements)
		var rep ServerReport
		if json.Unmarshal([]byte(v.LichessResult), &rep) == nil && rep.Period != "" {
			s += "; " + srv.Possessive() + " engine: " + rep.Period
		}
	case store.VerifyWaiting:
		s = fmt.Sprintf("waiting for %s analysis (%d polls so far, next %s UTC)", srv.Possessive(), v.Attempts, v.NextAt.UTC().Format("01-02 15:04"))
	case store.VerifyExpired:
		s = "no Lichess analysis"
		if srv.Name() != string(Lichess) {
			s = "no analysis from " + srv.Name()
		}
		if v.Error != "" {
			s += " (" + v.Error + ")"
		}
	default:
		s = "not verified: " + v.Error
	}
	if v.CloudDone {
		switch {
		case v.CloudChecked > 0:
			s += fmt.Sprintf(", cloud eval %d/%d", v.CloudAgree, v.CloudChecked)
		case v.CloudMissing > 0:
			s += fmt.Sprintf(", cloud eval: none of %d critical moves in the cloud", v.CloudMissing)
		default:
			var rep CloudReport
			if json.Unmarshal([]byte(v.CloudResult), &rep) == nil && rep.Error != "" {
				s += ", cloud eval skipped (" + rep.Error + ")"
			}
		}
	}
	return s
}
