package daemon

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/online"
)

// onlineServices are the clients of Lichess's services the online move
// sources share across every engine and game of one engine factory (so of
// one daemon): one per host, each with its own 429 lockout. They are made
// on first use.
type onlineServices struct {
	cfg *config.Config
	log zerolog.Logger

	once      sync.Once
	err       error
	cloud     *lichess.Client
	explorer  *lichess.Service
	tablebase *lichess.Service
}

// newOnlineServices returns the (not yet connected) services of cfg.
func newOnlineServices(cfg *config.Config, log zerolog.Logger) *onlineServices {
	return &onlineServices{cfg: cfg, log: log}
}

// onlineKey carries an engine factory's onlineServices to the source
// builders, which have no other way to reach per-daemon state.
type onlineKey struct{}

// withOnlineServices returns ctx carrying s.
func withOnlineServices(ctx context.Context, s *onlineServices) context.Context {
	return context.WithValue(ctx, onlineKey{}, s)
}

// clients builds the three clients once. The token (LICHESS_TOKEN or
// lichess.token_file) is sent only over https, so a sandbox on loopback
// never sees a real token; without one the services are asked anonymously.
func (s *onlineServices) clients() error {
	s.once.Do(func() {
		l := s.cfg.Lichess
		tok, _ := lichess.LoadToken(os.Getenv, l.TokenFile)
		secure := func(u string) lichess.Token {
			if strings.HasPrefix(u, "https://") {
				return tok
			}
			return ""
		}
		base := l.URL
		if base == "" {
			base = lichess.DefaultBaseURL
		}
		s.cloud, s.err = lichess.New(lichess.Options{BaseURL: base, Token: secure(base), Logger: s.log, RequestTimeout: l.RequestTimeout})
		if s.err != nil {
			return
		}
		exURL := cmpOr(l.ExplorerURL, lichess.DefaultExplorerURL)
		if s.explorer, s.err = lichess.NewService(lichess.ServiceOptions{BaseURL: exURL, Token: secure(exURL)}); s.err != nil {
			return
		}
		tbURL := cmpOr(l.TablebaseURL, lichess.DefaultTablebaseURL)
		s.tablebase, s.err = lichess.NewService(lichess.ServiceOptions{BaseURL: tbURL})
	})
	return s.err
}

// cmpOr returns v, or def when v is empty.
func cmpOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// onlineSources builds an engine's [engines.NAME.online] sources: cloud
// evaluation, opening explorer, online tablebase, in that order.
func onlineSources(ctx context.Context, cfg *config.Config, name string, def config.EngineConfig) ([]movesource.Bounded, error) {
	o := def.Online
	if !o.Any() {
		return nil, nil
	}
	svc, _ := ctx.Value(onlineKey{}).(*onlineServices)
	if svc == nil {
		svc = newOnlineServices(cfg, zerolog.Nop())
	}
	if err := svc.clients(); err != nil {
		return nil, fmt.Errorf("online move sources: %w", err)
	}
	var out []movesource.Bounded
	if c := o.CloudEval; c.Enabled {
		s, err := online.NewCloudEval(svc.cloud, online.CloudEvalOptions{MinDepth: c.MinDepth, MultiPV: c.MultiPV})
		if err != nil {
			return nil, err
		}
		out = append(out, movesource.Bounded{Source: s, Timeout: c.Timeout})
	}
	if e := o.Explorer; e.Enabled {
		s, err := online.NewExplorer(svc.explorer, online.ExplorerOptions{DB: lichess.ExplorerDB(e.Source), Speeds: e.Speeds,
			Ratings: e.Ratings, Selection: e.Selection, MinGames: e.MinGames, MaxPly: e.MaxPly})
		if err != nil {
			return nil, err
		}
		out = append(out, movesource.Bounded{Source: s, Timeout: e.Timeout})
	}
	if t := o.Tablebase; t.Enabled {
		s, err := online.NewTablebase(svc.tablebase, online.TablebaseOptions{MaxPieces: t.MaxPieces})
		if err != nil {
			return nil, err
		}
		out = append(out, movesource.Bounded{Source: s, Timeout: t.Timeout})
	}
	return out, nil
}
