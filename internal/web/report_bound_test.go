package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web/htmlreport"
)

// TestGamePageBoundsLongGames: GET /game/ID of a stored game longer than
// htmlreport.MaxPlies answers with the count and the bound instead of the
// report (a 10,000-ply game's page took 698 MB and four at once killed
// `outpost serve`); a game at the bound gets its report.
func TestGamePageBoundsLongGames(t *testing.T) {
	e := newTestEnv(t, nil)
	ctx := context.Background()
	for id, n := range map[string]int{"long0001": htmlreport.MaxPlies + 1, "long0002": htmlreport.MaxPlies} {
		san := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
		uci := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
		a := analysis.Analysis{ID: id, Result: "*"}
		var moves []string
		for i := range n {
			color := "white"
			if i%2 == 1 {
				color = "black"
			}
			a.Plies = append(a.Plies, analysis.Ply{Ply: i + 1, MoveNumber: i/2 + 1, Color: color, SAN: san[i%4], UCI: uci[i%4]})
			moves = append(moves, uci[i%4])
		}
		raw, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.st.StartGame(ctx, store.Game{ID: id, Opponent: "bob", Color: "white", Variant: "standard", InitialFEN: "startpos", Status: "started"}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.st.FinishGame(ctx, id, "draw", "", strings.Join(moves, " "), ""); err != nil {
			t.Fatal(err)
		}
		if err := e.st.EnqueueAnalysis(ctx, id); err != nil {
			t.Fatal(err)
		}
		if err := e.st.SaveAnalysis(ctx, id, string(raw), "summary"); err != nil {
			t.Fatal(err)
		}
	}
	code, body := e.get(t, "/game/long0001")
	if code != 200 || !strings.Contains(body, "1001 plies, at most 1000") || strings.Contains(body, "g1-p1\"") || len(body) > 1<<20 {
		t.Errorf("past the bound: %d, %d bytes, says the bound: %v", code, len(body), strings.Contains(body, "1001 plies, at most 1000"))
	}
	code, body = e.get(t, "/game/long0002")
	if code != 200 || !strings.Contains(body, `id="g1-p1000"`) {
		t.Errorf("at the bound: %d, %d bytes", code, len(body))
	}
}
