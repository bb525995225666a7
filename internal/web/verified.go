package web

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
)

// VerificationStore is what the console reads to show a game's checks
// against Lichess (internal/verify); a Store that also has it
// (*store.Store does) gets the "verified against Lichess" column and
// section.
type VerificationStore interface {
	Verification(ctx context.Context, gameID string) (store.Verification, error)
}

// verifiedView is a game's verification as the pages show it.
type verifiedView struct {
	State string // waiting, done, expired, failed
	// Text is the one-line summary ("verified against Lichess: 34/36
	// judgements agree, cloud eval 5/6").
	Text          string
	Disagreements []analysis.Disagree
	Cloud         []verify.CloudPosition
}

// verifiedFor reads a game's verification; nil when the store keeps none
// or the game has none.
func (s *Server) verifiedFor(ctx context.Context, gameID string) *verifiedView {
	vs, ok := s.opt.Store.(VerificationStore)
	if !ok {
		return nil
	}
	v, err := vs.Verification(ctx, gameID)
	if err != nil {
		return nil
	}
	view := &verifiedView{State: string(v.State), Text: VerifiedText(v)}
	var rep verify.ServerReport
	if v.LichessResult != "" && json.Unmarshal([]byte(v.LichessResult), &rep) == nil && rep.Comparison != nil {
		view.Disagreements = rep.Comparison.Disagreements
	}
	var cloud verify.CloudReport
	if v.CloudResult != "" && json.Unmarshal([]byte(v.CloudResult), &cloud) == nil {
		view.Cloud = cloud.Positions
	}
	return view
}

// VerifiedText is the one-line summary of a verification.
func VerifiedText(v store.Verification) string {
	var s string
	switch v.State {
	case store.VerifyDone:
		s = fmt.Sprintf("verified against Lichess: %d/%d judgements agree", v.Agree, v.Judgements)
	case store.VerifyWaiting:
		s = fmt.Sprintf("waiting for Lichess's analysis (%d polls so far, next %s UTC)", v.Attempts, v.NextAt.UTC().Format("01-02 15:04"))
	case store.VerifyExpired:
		s = "no Lichess analysis"
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
		}
	}
	return s
}
