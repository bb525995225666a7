package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/sandbox/fishnet"
)

// withVerify adds the verification of summaries against Lichess ([verify])
// to the daemon's options: the worker as a background job, woken by each
// posted summary, and the chat line around the summariser.
func withVerify(o *daemon.Options, cfg *config.Config, client *lichess.Client, st *store.Store, log zerolog.Logger) error {
	if !cfg.Verify.Enabled || o.Summariser == nil {
		return nil
	}
	vo := verify.ConfigOptions(cfg.Verify)
	vo.API, vo.Store, vo.Logger = client, st, log.With().Str("component", "verify").Logger()
	w, err := verify.New(vo)
	if err != nil {
		return err
	}
	inner := o.Hooks.SummaryPosted
	o.Hooks.SummaryPosted = func(id string, lines []string) {
		w.Kick()
		if inner != nil {
			inner(id, lines)
		}
	}
	if cfg.Verify.ChatLine {
		o.Summariser = verify.ChatLine{Inner: o.Summariser, API: client}
	}
	o.Background = append(o.Background, w.Run)
	return nil
}

// Budgets of the embedded sandbox's stand-in fishnet in `outpost run
// --sandbox`: the summary's node budget (Lichess's is 1M, too slow next to
// the games on two cores) and a cloud depth that evaluates a game's
// positions in seconds.
const (
	demoFishnetNodes = 100_000
	demoCloudDepth   = 12
)

// sandboxFishnet returns the sandbox's stand-in for Lichess's analysis,
// on the configured analysis engine (our own hard engine when it is
// missing, as for the summaries).
func sandboxFishnet(cfg *config.Config, nodes int64, depth int) *fishnet.Analyser {
	cmd := cfg.Analysis.Engine
	if len(cmd) > 0 && enginepath.Name(cmd) == "" { // engine names are resolved by the pool
		if _, err := os.Stat(cmd[0]); errors.Is(err, os.ErrNotExist) {
			if self, err := os.Executable(); err == nil {
				cmd = []string{self, "uci", "--engine", "hard"}
			}
		}
	}
	return fishnet.New(fishnet.Config{Pool: analysis.PoolConfig{Command: cmd, Workers: 1, Threads: 1, HashMB: 16},
		Nodes: nodes, CloudDepth: depth})
}

// botVerification is one line of `outpost compare --bot --json`.
type botVerification struct {
	ID           string          `json:"id"`
	Opponent     string          `json:"opponent"`
	Color        string          `json:"color"`
	Finished     time.Time       `json:"finished"`
	State        string          `json:"state"`
	Judgements   int             `json:"judgements"`
	Agree        int             `json:"agree"`
	CloudChecked int             `json:"cloud_checked"`
	CloudAgree   int             `json:"cloud_agree"`
	CloudMissing int             `json:"cloud_missing"`
	Polls        int             `json:"polls"`
	Note         string          `json:"note,omitempty"`
	Comparison   json.RawMessage `json:"lichess,omitempty"`
	Cloud        json.RawMessage `json:"cloud,omitempty"`
}

// printBotVerifications implements `outpost compare --bot`: the bot's games
// with their checks against Lichess, newest first, and the totals.
func printBotVerifications(ctx context.Context, env *Env, cfgPath, storePath string, maxGames int, asJSON bool) error {
	cfg := config.Default()
	if cfgPath != "" {
		var err error
		if cfg, err = config.Load(cfgPath); err != nil {
			return err
		}
	}
	path := cfg.Store.Path
	if storePath != "" {
		path = storePath
	}
	if maxGames < 0 {
		return fmt.Errorf("--max %d: want 1 or more", maxGames)
	}
	if maxGames == 0 {
		maxGames = cfg.Compare.MaxGames
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("--store: %w", err)
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	vs, err := st.RecentVerifications(ctx, maxGames)
	if err != nil {
		return err
	}
	rows := make([]botVerification, 0, len(vs))
	for _, v := range vs {
		r := botVerification{ID: v.GameID, Finished: v.FinishedAt.UTC(), State: string(v.State), Judgements: v.Judgements,
			Agree: v.Agree, CloudChecked: v.CloudChecked, CloudAgree: v.CloudAgree, CloudMissing: v.CloudMissing,
			Polls: v.Attempts, Note: v.Error}
		if g, err := st.Game(ctx, v.GameID); err == nil {
			r.Opponent, r.Color = g.Opponent, g.Color
		}
		if v.LichessResult != "" {
			r.Comparison = json.RawMessage(v.LichessResult)
		}
		if v.CloudResult != "" {
			r.Cloud = json.RawMessage(v.CloudResult)
		}
		rows = append(rows, r)
	}
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"games": rows})
	}
	writeBotVerifications(env.Stdout, rows, vs)
	return nil
}

// writeBotVerifications prints the table and the totals.
func writeBotVerifications(w io.Writer, rows []botVerification, vs []store.Verification) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "No game of the bot verified against Lichess yet ([verify] enabled = true in the daemon's configuration).")
		return
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tFINISHED (UTC)\tOPPONENT\tLICHESS ANALYSIS\tCLOUD EVAL\tSTATE")
	var j, a, cc, ca, done int
	for i, r := range rows {
		lichessCol := "-"
		if r.State == string(store.VerifyDone) {
			lichessCol = fmt.Sprintf("%d/%d agree", r.Agree, r.Judgements)
			j, a, done = j+r.Judgements, a+r.Agree, done+1
		}
		cloudCol := "-"
		if vs[i].CloudDone {
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
	fmt.Fprintf(w, "\n%d games; %d compared with Lichess's analysis: %d/%d judgements agree%s; cloud eval: %d/%d critical moves agree%s\n",
		len(rows), done, a, j, pctText(a, j), ca, cc, pctText(ca, cc))
}

func pctText(n, d int) string {
	if d == 0 {
		return ""
	}
	return fmt.Sprintf(" (%.1f%%)", 100*float64(n)/float64(d))
}
