package web

import (
	"context"
	"encoding/json"

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
	Text string
	// Against names what it was checked against; AgainstPossessive is
	// its possessive.
	Against, AgainstPossessive string
	Disagreements              []analysis.Disagree
	Cloud                      []verify.CloudPosition
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
	a := s.opt.Against
	view := &verifiedView{State: string(v.State), Text: verify.Text(v, a), Against: a.Name(), AgainstPossessive: a.Possessive()}
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
