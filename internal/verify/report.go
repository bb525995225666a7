package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/outpostchess/outpost/internal/store"
)

// BotGame is one game of the bot with its checks against Lichess: one
// line of `outpost compare --bot` (and one element of its --json "games").
type BotGame struct {
	ID           string    `json:"id"`
	Opponent     string    `json:"opponent"`
	Color        string    `json:"color"`
	Finished     time.Time `json:"finished"`
	State        string    `json:"state"`
	Judgements   int       `json:"judgements"`
	Agree        int       `json:"agree"`
	CloudChecked int       `json:"cloud_checked"`
	CloudAgree   int       `json:"cloud_agree"`
	CloudMissing int       `json:"cloud_missing"`
	Polls        int       `json:"polls"`
	Note         string    `json:"note,omitempty"`
	// Period is the period of Lichess's analysis detected from its evals
	// ([verify] detect_period), "" when not detected.
	Period     string          `json:"period,omitempty"`
	Comparison json.RawMessage `json:"lichess,omitempty"`
	Cloud      json.RawMessage `json:"cloud,omitempty"`
	// CloudDone is true once the cloud check ran (its counts are then
	// meaningful, even when zero).
	CloudDone bool `json:"-"`
}

// BotGames returns the newest maxGames verifications in st, newest first,
// with each game's opponent and colour when the store has the game.
func BotGames(ctx context.Context, st *store.Store, maxGames int) ([]BotGame, error) {
	vs, err := st.RecentVerifications(ctx, maxGames)
	if err != nil {
		return nil, fmt.Errorf("verify: reading the bot's verifications: %w", err)
	}
	rows := make([]BotGame, 0, len(vs))
	for _, v := range vs {
		r := BotGame{ID: v.GameID, Finished: v.FinishedAt.UTC(), State: string(v.State), Judgements: v.Judgements,
			Agree: v.Agree, CloudChecked: v.CloudChecked, CloudAgree: v.CloudAgree, CloudMissing: v.CloudMissing,
			Polls: v.Attempts, Note: v.Error, CloudDone: v.CloudDone}
		if g, err := st.Game(ctx, v.GameID); err == nil {
			r.Opponent, r.Color = g.Opponent, g.Color
		}
		if v.LichessResult != "" {
			r.Comparison = json.RawMessage(v.LichessResult)
			var rep ServerReport
			if json.Unmarshal(r.Comparison, &rep) == nil {
				r.Period = rep.Period
			}
		}
		if v.CloudResult != "" {
			r.Cloud = json.RawMessage(v.CloudResult)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// WriteBotGamesJSON writes rows as the JSON document {"games": [...]},
// indented.
func WriteBotGamesJSON(w io.Writer, rows []BotGame) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"games": rows})
}

// WriteBotGames prints rows as a table (game, finish time, opponent, the
// agreement with the analysis of against — Lichess or the sandbox's
// stand-in — and with the cloud evals, state) and the totals; with no
// rows, a line saying how to turn verification on.
func WriteBotGames(w io.Writer, rows []BotGame, against Against) {
	if len(rows) == 0 {
		fmt.Fprintf(w, "No game of the bot verified against %s yet ([verify] enabled = true in the daemon's configuration).\n", against.Name())
		return
	}
	if against != Lichess && against != "" {
		fmt.Fprintf(w, "Checked against %s: its analysis is our own Stockfish under Lichess's rules, not Lichess's.\n", against.Name())
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	col := "LICHESS ANALYSIS"
	if against == StandIn {
		col = "STAND-IN ANALYSIS"
	}
	fmt.Fprintln(tw, "GAME\tFINISHED (UTC)\tOPPONENT\t"+col+"\tCLOUD EVAL\tSTATE")
	var j, a, cc, ca, done int
	for _, r := range rows {
		lichessCol := "-"
		if r.State == string(store.VerifyDone) {
			lichessCol = fmt.Sprintf("%d/%d agree", r.Agree, r.Judgements)
			if r.Period != "" {
				lichessCol += " (" + r.Period + ")"
			}
			j, a, done = j+r.Judgements, a+r.Agree, done+1
		}
		cloudCol := "-"
		if r.CloudDone {
			cloudCol = fmt.Sprintf("%d/%d agree", r.CloudAgree, r.CloudChecked)
			if r.CloudMissing > 0 {
				cloudCol += fmt.Sprintf(" (%d not in the cloud)", r.CloudMissing)
			}
			cc, ca = cc+r.CloudChecked, ca+r.CloudAgree
		}
		state := r.State
		if r.State == string(store.VerifyWaiting) {
			state = fmt.Sprintf("waiting (%d polls)", r.Polls)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Finished.Format("2006-01-02 15:04"), r.Opponent, lichessCol, cloudCol, state)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d games; %d compared with %s analysis: %d/%d judgements agree%s; cloud eval: %d/%d critical moves agree%s\n",
		len(rows), done, against.Possessive(), a, j, pctText(a, j), ca, cc, pctText(ca, cc))
}

// pctText is " (n/d as a percentage)", or "" when d is 0.
func pctText(n, d int) string {
	if d == 0 {
		return ""
	}
	return fmt.Sprintf(" (%.1f%%)", 100*float64(n)/float64(d))
}
