package daemon

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/config"
)

// TestConductMapsEveryField: every runner conduct setting comes from the
// [game] section (a field forgotten in Conduct would stay zero).
func TestConductMapsEveryField(t *testing.T) {
	g := config.Default().Game
	g.ResignEnabled, g.TakebacksPerGame, g.OfferDraw = true, 1, true // off by default
	c := reflect.ValueOf(Conduct(g))
	for i := range c.NumField() {
		if c.Field(i).IsZero() {
			t.Errorf("runner.Conduct.%s is not set from [game]", c.Type().Field(i).Name)
		}
	}
	if got := Conduct(g); got.AcceptDraw != g.AcceptDraw || got.MoveOverhead != g.MoveOverhead || got.Greeting != g.Greeting {
		t.Errorf("conduct %+v from %+v", got, g)
	}
}

// TestClientOptions: the client's rate-limit pause and timeouts come from
// [ratelimit] and [lichess]; server and token are the caller's.
func TestClientOptions(t *testing.T) {
	cfg := config.Default()
	cfg.RateLimit.Seconds, cfg.Lichess.RequestTimeout, cfg.Lichess.StreamTimeout = 90, 7*time.Second, 11*time.Second
	o := ClientOptions(cfg, "http://127.0.0.1:8080", "tok", zerolog.Nop())
	if o.BaseURL != "http://127.0.0.1:8080" || o.Token != "tok" || o.RateLimit != 90*time.Second ||
		o.RequestTimeout != 7*time.Second || o.StreamTimeout != 11*time.Second {
		t.Errorf("options %+v", o)
	}
}

// TestCompareSchedule: the [compare] section becomes the scheduler's
// settings; nodes win over the preset; a bad preset names the key.
func TestCompareSchedule(t *testing.T) {
	c := config.CompareConfig{Enabled: true, Users: []string{"alice"}, Interval: time.Hour, MaxGames: 7,
		Since: 48 * time.Hour, Preset: "deep", Engine: []string{"sf"}}
	s, err := CompareSchedule(c, config.AnalysisConfig{HashMB: 32})
	if err != nil {
		t.Fatal(err)
	}
	deep, _ := analysis.Preset("deep") // the preset's budget, named
	if !s.Enabled || s.Users[0] != "alice" || s.Interval != time.Hour || s.MaxGames != 7 || s.Since != 48*time.Hour ||
		s.Budget != deep || s.Engine[0] != "sf" || s.HashMB != 32 {
		t.Errorf("schedule %+v", s)
	}
	c.Nodes = 1234
	if s, err = CompareSchedule(c, config.AnalysisConfig{}); err != nil || s.Budget.Nodes != 1234 {
		t.Errorf("nodes: %+v %v", s.Budget, err)
	}
	c.Nodes, c.Preset = 0, "huge"
	if _, err = CompareSchedule(c, config.AnalysisConfig{}); err == nil || !strings.Contains(err.Error(), "compare.preset") {
		t.Errorf("bad preset: %v", err)
	}
	// the scheduled runs pick each game's period (preset and engine) by default
	if s, err = CompareSchedule(config.Default().Compare, config.AnalysisConfig{}); err != nil || !s.Budget.ByDate {
		t.Errorf("default schedule budget %+v, %v: want by-date", s.Budget, err)
	}
}
