package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web/svgboard"
)

// recentLimit is how many finished games the dashboard lists.
const recentLimit = 30

type liveGame struct {
	ID, Opponent, Color, Speed string
	Plies                      int
	Board                      template.HTML
}

type recentGame struct {
	ID, Opponent, Color, Speed, Status, Outcome string
	Rating                                      int
	Date                                        string
	Analysis                                    string // state
	Summary                                     []string
	HasReport                                   bool
	Verified                                    string // checks against Lichess, "" when none
}

type dashboardData struct {
	StatusKnown bool
	Playing     int
	Live        []liveGame
	Recent      []recentGame
	Error       string
	// Against heads the verification column: what the games were checked
	// against.
	Against string
}

func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) {
	d := dashboardData{Against: s.opt.Against.Name()}
	if s.opt.Status != nil {
		d.StatusKnown = true
		d.Playing = len(s.opt.Status.Playing())
	}
	live, _, err := s.liveGames(r.Context())
	if err != nil {
		d.Error = err.Error()
	}
	d.Live = live
	games, err := s.opt.Store.RecentGames(r.Context(), recentLimit)
	if err != nil {
		d.Error = err.Error()
	}
	for _, g := range games {
		if !g.Finished() {
			continue
		}
		rg := recentGame{ID: g.ID, Opponent: g.Opponent, Rating: g.OpponentRating, Color: g.Color, Speed: g.Speed,
			Status: g.Status, Outcome: outcome(g), Date: g.FinishedAt.UTC().Format("2006-01-02 15:04")}
		a, err := s.opt.Store.AnalysisOf(r.Context(), g.ID)
		switch {
		case err == nil:
			rg.Analysis = string(a.State)
			rg.HasReport = a.Result != ""
			for _, l := range strings.Split(strings.TrimSpace(a.Summary), "\n") {
				if l != "" {
					rg.Summary = append(rg.Summary, l)
				}
			}
		case errors.Is(err, store.ErrNotFound):
			rg.Analysis = "none"
		default:
			d.Error = err.Error()
		}
		if v := s.verifiedFor(r.Context(), g.ID); v != nil {
			rg.Verified = v.Text
		}
		d.Recent = append(d.Recent, rg)
	}
	s.render(w, http.StatusOK, "dashboard", page{Title: "Dashboard", Nav: "dashboard", Scripts: []string{"dashboard.js"}, Data: d})
}

// outcome is "won", "lost", "draw" or "aborted" from the bot's side.
func outcome(g store.Game) string {
	if g.Status == "aborted" || g.Status == "noStart" {
		return "aborted"
	}
	switch g.Winner {
	case "":
		return "draw"
	case g.Color:
		return "won"
	}
	return "lost"
}

// liveGames reads the games in progress and renders their boards; the
// second result fingerprints them so that unchanged states are not resent.
func (s *Server) liveGames(ctx context.Context) ([]liveGame, string, error) {
	games, err := s.opt.Store.ActiveGames(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("live games: %w", err)
	}
	sort.Slice(games, func(i, j int) bool { return games[i].StartedAt.Before(games[j].StartedAt) })
	var out []liveGame
	var fp strings.Builder
	for _, g := range games {
		moves := strings.Fields(g.Moves)
		fen := g.InitialFEN
		if fen == "" || fen == "startpos" {
			fen = svgboard.StartFEN
		}
		opt := svgboard.Options{Flip: g.Color == "black", Label: "Live game against " + g.Opponent}
		if len(moves) > 0 {
			fens, err := svgboard.PositionFENs(fen, moves)
			if err != nil {
				// A bad move list in the store still shows the game, at
				// the last legal position.
				s.opt.Logger.Warn().Err(err).Str("game", g.ID).Msg("web: live game moves")
			}
			if len(fens) > 0 {
				fen = fens[len(fens)-1]
				if f, t, ok := svgboard.MoveSquares(moves[len(fens)-1]); ok {
					opt.Highlight = []string{f, t}
				}
			}
		}
		svg, err := svgboard.SVG(fen, opt)
		if err != nil {
			return nil, "", fmt.Errorf("live game %s: %w", g.ID, err)
		}
		out = append(out, liveGame{ID: g.ID, Opponent: g.Opponent, Color: g.Color, Speed: g.Speed, Plies: len(moves), Board: template.HTML(svg)})
		fmt.Fprintf(&fp, "%s:%s;", g.ID, g.Moves)
	}
	return out, fp.String(), nil
}

// liveEvents streams the live games as server-sent events: an "games"
// event with the rendered cards whenever they change.
func (s *Server) liveEvents(w http.ResponseWriter, r *http.Request) {
	sse, ok := newSSE(w)
	if !ok {
		return
	}
	ctx := r.Context()
	last := "\x00"
	tick := time.NewTicker(s.opt.LivePoll)
	defer tick.Stop()
	for {
		games, fp, err := s.liveGames(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			_ = sse.send("failure", map[string]string{"error": err.Error()})
		} else if fp != last {
			last = fp
			var b strings.Builder
			if err := s.pages["dashboard"].ExecuteTemplate(&b, "live", games); err != nil {
				_ = sse.send("failure", map[string]string{"error": err.Error()})
				return
			}
			playing := -1
			if s.opt.Status != nil {
				playing = len(s.opt.Status.Playing())
			}
			if err := sse.send("games", map[string]any{"html": b.String(), "count": len(games), "playing": playing}); err != nil {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// sse writes server-sent events.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) (*sse, bool) {
	f, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "outpost serve: streaming not supported", http.StatusInternalServerError)
		return nil, false
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	f.Flush()
	return &sse{w: w, f: f}, true
}

// send writes one event with a JSON payload.
func (e *sse) send(event string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("web: event %s: %w", event, err)
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, data); err != nil {
		return fmt.Errorf("web: event %s: %w", event, err)
	}
	e.f.Flush()
	return nil
}
