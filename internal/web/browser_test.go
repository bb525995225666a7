package web

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/internal/web/htmlreport"
	"github.com/outpostchess/outpost/internal/web/svgboard"
)

// The browser tests drive headless Chromium (Debian packages chromium and
// chromium-driver) against the console on loopback. They are skipped when
// no browser is installed or with -short. OUTPOST_CHROMIUM names the
// browser binary; OUTPOST_SCREENSHOTS, when set, is a directory that gets
// one screenshot of each page. On failure a screenshot goes to
// testdata/out (ignored by git).

func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	testkit.AwaitSetup(t, testkit.SetupDebian) // chromium, chromium-driver
	if p := os.Getenv("OUTPOST_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Skip("no Chromium found: install the Debian packages chromium and chromium-driver (or set OUTPOST_CHROMIUM) to run the browser tests")
	return ""
}

// browser starts headless Chromium and returns a tab context whose actions
// time out after a minute in all. Call it after starting the server: the
// cleanups run in reverse, so the browser (and its open event streams)
// goes before the server waits for its requests to end.
func browser(t *testing.T) context.Context {
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1200),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil {
		cancelC()
		cancelA()
		t.Fatalf("starting %s: %v", path, err)
	}
	tctx, cancelT := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() {
		if t.Failed() {
			shot(t, ctx, filepath.Join("testdata", "out", strings.ReplaceAll(t.Name(), "/", "_")+".png"), false)
		}
		cancelT()
		cancelC()
		cancelA()
	})
	return tctx
}

// shot saves a screenshot of the whole page, or of the viewport only.
func shot(t *testing.T, ctx context.Context, path string, viewport bool) {
	act := chromedp.FullScreenshot(100)
	if viewport {
		act = chromedp.CaptureScreenshot()
	}
	b, err := chromedp.Run(ctx, act)
	if err != nil {
		t.Logf("screenshot %s: %v", path, err)
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Logf("screenshot %s: %v", path, err)
		return
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Logf("screenshot %s: %v", path, err)
		return
	}
	t.Logf("screenshot: %s", path)
}

// pageShot saves a screenshot for the README when OUTPOST_SCREENSHOTS is set.
func pageShot(t *testing.T, ctx context.Context, name string) {
	if dir := os.Getenv("OUTPOST_SCREENSHOTS"); dir != "" {
		_, _ = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		shot(t, ctx, filepath.Join(dir, name+".png"), true)
	}
}

// sectionShot saves a screenshot of the viewport scrolled to an element,
// for the README, when OUTPOST_SCREENSHOTS is set.
func sectionShot(t *testing.T, ctx context.Context, name, selector string) {
	if dir := os.Getenv("OUTPOST_SCREENSHOTS"); dir != "" {
		_, _ = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+strconv.Quote(selector)+`).scrollIntoView({block: "start"})`))
		shot(t, ctx, filepath.Join(dir, name+".png"), true)
	}
}

func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// poll reports whether expr became true within the timeout.
func poll(ctx context.Context, expr string, timeout time.Duration) bool {
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(timeout)))
	return err == nil
}

func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

// fenAfter returns the FEN after n plies of the fixture game.
func fenAfter(t *testing.T, a *analysis.Analysis, n int) string {
	var moves []string
	for _, p := range a.Plies[:n] {
		moves = append(moves, p.UCI)
	}
	fens, err := svgboard.PositionFENs(a.FEN, moves)
	if err != nil {
		t.Fatal(err)
	}
	return fens[n-1]
}

// checkReport clicks a judged move and a graph marker in a loaded report.
func checkReport(t *testing.T, ctx context.Context, a *analysis.Analysis) {
	viewerFEN := `document.querySelector('.viewer svg.board').getAttribute('data-fen')`
	if got := eval[string](t, ctx, viewerFEN); got != svgboard.StartFEN {
		t.Fatalf("viewer starts at %q", got)
	}
	// Ply 14 is 7… Nf6??, a blunder.
	if a.Plies[13].Judgement != analysis.Blunder {
		t.Fatal("fixture changed: ply 14 is not a blunder")
	}
	do(t, ctx, "click 7… Nf6??", chromedp.Click(chromedp.CSS(`nav.moves button.mv[data-ply="14"]`)))
	waitFor(t, ctx, "ply 14 shown", `document.querySelector('.viewer .ply-view[data-shown="14"]') !== null`)
	if got, want := eval[string](t, ctx, viewerFEN), fenAfter(t, a, 14); got != want {
		t.Errorf("board after click: %q, want %q", got, want)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('.viewer .board-wrap.best .arrow-best').length`); n != 1 {
		t.Errorf("best-line board has %d best arrows", n)
	}
	if !strings.Contains(eval[string](t, ctx, `document.querySelector('.viewer .line').textContent`), "7… d6") {
		t.Error("best line not shown")
	}
	if eval[string](t, ctx, `document.querySelector('nav.moves button.mv[data-ply="14"]').getAttribute('aria-current')`) != "true" {
		t.Error("clicked move not marked current")
	}
	// A graph marker shows its move too, and → steps on.
	do(t, ctx, "click a graph marker", chromedp.Click(chromedp.CSS(`svg.eval-graph circle.marker[data-ply="15"]`)))
	waitFor(t, ctx, "ply 15 shown", `document.querySelector('.viewer .ply-view[data-shown="15"]') !== null`)
	do(t, ctx, "press →", chromedp.KeyEvent(kb.ArrowRight))
	waitFor(t, ctx, "ply 16 shown", `document.querySelector('.viewer .ply-view[data-shown="16"]') !== null`)
	if got, want := eval[string](t, ctx, viewerFEN), fenAfter(t, a, 16); got != want {
		t.Errorf("board after →: %q, want %q", got, want)
	}
}

// colourScheme emulates prefers-color-scheme.
func colourScheme(s string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}})
		return err
	})
}

// contrastJS returns the elements (selector: ratio) whose text contrast
// with the nearest opaque background is below 4.5:1 (WCAG AA).
const contrastJS = `(() => {
  const lum = c => { const m = c.match(/[\d.]+/g).map(Number); const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(m[0]) + 0.7152 * f(m[1]) + 0.0722 * f(m[2]); };
  const bg = el => { for (; el; el = el.parentElement) { const c = getComputedStyle(el).backgroundColor; const m = c.match(/[\d.]+/g); if (m && (m.length < 4 || Number(m[3]) > 0.5)) { return c; } } return getComputedStyle(document.body).backgroundColor; };
  const bad = [];
  for (const sel of ["body", "h1", "p.muted", "header.top a", "#ranking td.ewr", "#ranking .move-btn", "#ranking td.conf", "#tree .san", "#tree .prob", "#tree .wr", "#tree .wr.pending", "#tree li.previewed .wr", "#tree li.previewed .prob", ".wr-key", "#preview-banner", "#return", "#calculate", "#progress .phases li", ".summary-stats dt", ".summary-stats dd", "label",
    "article.moment h3", "table.moment-ewr caption", "table.moment-ewr th", "table.moment-ewr td", "p.verdict", "article.moment a", "p.unavailable"]) {
    for (const el of document.querySelectorAll(sel)) {
      if (!el.offsetParent && sel !== "body") { continue; }
      const a = lum(getComputedStyle(el).color), b = lum(bg(el));
      const r = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (r < 4.5) { bad.push(sel + ": " + r.toFixed(2)); break; }
    }
  }
  return bad;
})()`

func checkContrast(t *testing.T, ctx context.Context, scheme string) {
	t.Helper()
	if bad := eval[[]string](t, ctx, contrastJS); len(bad) > 0 {
		t.Errorf("%s scheme: text below 4.5:1 contrast: %v", scheme, bad)
	}
}

func TestBrowserGameReport(t *testing.T) {
	g := newGatedEvaluator()
	e := newTestEnv(t, func(o *Options) { o.Calculator = gatedCalculator(g) })
	t.Cleanup(g.open)
	ctx := browser(t)
	a, _ := loadFixture(t)
	do(t, ctx, "open the game report", chromedp.Navigate(e.ts.URL+"/game/"+fixtureID))
	checkReport(t, ctx, a)
	// The critical moments are computed in the background; the page shows
	// their progress...
	waitFor(t, ctx, "a moment in progress", `document.querySelector('#moments article.moment[data-state="running"] progress') !== null && document.getElementById('moments').getAttribute('aria-busy') === 'true'`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#moments article.moment').length`); n != fixtureMoments {
		t.Fatalf("%d critical moments shown", n)
	}
	// ...then their expected winrates inline.
	g.open()
	waitFor(t, ctx, "the moments' expected winrates", `document.querySelectorAll('#moments article.moment[data-state="done"]').length === `+itoa(fixtureMoments)+` && !document.getElementById('moments').hasAttribute('aria-busy')`)
	for _, m := range wantMoments(t) {
		sel := `#moments article.moment[data-ply="` + itoa(m.Ply) + `"]`
		if got, want := eval[string](t, ctx, `document.querySelector('`+sel+` td.ewr-played').textContent`), fmt.Sprintf("%.1f%%", 100*m.Played.ExpectedWinrate); got != want {
			t.Errorf("ply %d: played move's expected winrate %q, want %q", m.Ply, got, want)
		}
		if !m.PlayedWasBest() {
			if got, want := eval[string](t, ctx, `document.querySelector('`+sel+` td.ewr-best').textContent`), fmt.Sprintf("%.1f%%", 100*m.Best.ExpectedWinrate); got != want {
				t.Errorf("ply %d: best move's expected winrate %q, want %q", m.Ply, got, want)
			}
		}
		if got := eval[string](t, ctx, `document.querySelector('`+sel+` a').getAttribute('href')`); got != "/explorer?game="+fixtureID+"&ply="+itoa(m.Ply-1) {
			t.Errorf("ply %d: explorer link %q", m.Ply, got)
		}
	}
	checkContrast(t, ctx, "light")
	do(t, ctx, "dark colour scheme", colourScheme("dark"))
	checkContrast(t, ctx, "dark")
	do(t, ctx, "light colour scheme", colourScheme("light"))
	sectionShot(t, ctx, "game-report-moments", "#crit-h")
	do(t, ctx, "show the blunder", chromedp.Click(chromedp.CSS(`nav.moves button.mv[data-ply="14"]`)))
	pageShot(t, ctx, "game-report")
}

func TestBrowserStaticReport(t *testing.T) {
	ctx := browser(t)
	a, _ := loadFixture(t)
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, []*analysis.Analysis{a}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "open the report file", chromedp.Navigate("file://"+path))
	checkReport(t, ctx, a)
	pageShot(t, ctx, "static-report")
}

func TestBrowserDashboardLive(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.Status = fakeStatus{ids: []string{"live0001"}} })
	ctx := browser(t)
	do(t, ctx, "open the dashboard", chromedp.Navigate(e.ts.URL+"/"))
	waitFor(t, ctx, "live stream", `document.getElementById('live').hasAttribute('data-updated')`)
	if err := e.st.UpdateMoves(context.Background(), "live0001", "e2e4 c7c5 g1f3"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the new move", `document.querySelector('.live-game .plies').textContent === '3'`)
	if got := eval[string](t, ctx, `document.querySelector('.live-game svg.board').getAttribute('data-fen')`); !strings.HasPrefix(got, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/") {
		t.Errorf("live board %q", got)
	}
	pageShot(t, ctx, "dashboard")
}

func TestBrowserExplorer(t *testing.T) {
	g := newGatedEvaluator()
	e := newTestEnv(t, func(o *Options) { o.Calculator = gatedCalculator(g) })
	t.Cleanup(g.open)
	ctx := browser(t)
	do(t, ctx, "open the explorer", chromedp.Navigate(e.ts.URL+"/explorer?game="+fixtureID+"&ply=2"))
	boardFEN := `document.querySelector('#board svg.board').getAttribute('data-fen')`
	analysisFEN := eval[string](t, ctx, boardFEN)
	if !strings.HasPrefix(analysisFEN, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w") {
		t.Fatalf("analysis position %q", analysisFEN)
	}
	// Client-side validation refuses a bad loss threshold.
	do(t, ctx, "type a bad loss", chromedp.SetValue(chromedp.CSS("#p-loss"), "0.5"), chromedp.Click(chromedp.CSS("#calculate")))
	if msg := eval[string](t, ctx, `document.getElementById('e-loss').textContent`); !strings.Contains(msg, "-1 to 0") {
		t.Errorf("loss error %q", msg)
	}
	if !eval[bool](t, ctx, `document.getElementById('progress').hidden`) {
		t.Error("a calculation started with invalid parameters")
	}
	do(t, ctx, "fix the parameters", chromedp.SetValue(chromedp.CSS("#p-loss"), "-0.5"), chromedp.SetValue(chromedp.CSS("#p-depth"), "20"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('p-depth').dispatchEvent(new Event('change', {bubbles: true}))`))
	do(t, ctx, "calculate", chromedp.Click(chromedp.CSS("#calculate")))
	// Phase A done: the trees open while Stockfish works (the gated
	// evaluator holds its evaluations).
	waitFor(t, ctx, "the Maia trees", `document.getElementById('explorer').getAttribute('data-trees') === 'live' && document.querySelector('#ranking tbody tr:first-child button.move-btn:not([aria-disabled])') !== null`)
	if phase := eval[string](t, ctx, `document.getElementById('progress').getAttribute('data-phase')`); phase != "stockfish" {
		t.Errorf("phase %q while Stockfish evaluates", phase)
	}
	rows := eval[int](t, ctx, `document.querySelectorAll('#ranking tbody tr').length`)
	if rows == 0 {
		t.Fatal("no ranked moves")
	}
	do(t, ctx, "open a tree before the end", chromedp.Click(chromedp.CSS(`#ranking tbody tr:first-child button.move-btn`)))
	waitFor(t, ctx, "the tree", `document.querySelectorAll('#tree [role=treeitem][aria-level="2"]').length > 0`)
	if eval[string](t, ctx, `document.querySelector('#tree [role=treeitem]').getAttribute('aria-expanded')`) != "true" {
		t.Error("root not expanded")
	}
	level2 := `#tree [role=treeitem][aria-level="2"]`
	if n := eval[int](t, ctx, `document.querySelectorAll('`+level2+` > .node > .wr.pending').length`); n == 0 {
		t.Fatal("no pending winrate in the live tree")
	}
	if got := eval[string](t, ctx, `document.querySelector('`+level2+` > .node > .wr.pending').textContent`); got != "wr …" {
		t.Errorf("pending winrate shows %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('`+level2+`').getAttribute('aria-label')`); !strings.Contains(got, "winrate pending") || !strings.Contains(got, "probability ") {
		t.Errorf("pending node label %q", got)
	}
	if p := eval[string](t, ctx, `document.querySelector('`+level2+` > .node > .prob').textContent`); !strings.HasPrefix(p, "p ") || !strings.HasSuffix(p, "%") {
		t.Errorf("node probability %q", p)
	}
	// Preview a node while the calculation runs.
	do(t, ctx, "click a node", chromedp.Click(chromedp.CSS(level2+` > .node .san`)))
	waitFor(t, ctx, "the preview", `document.getElementById('board-area').classList.contains('previewing') && document.querySelector('#board svg.board').getAttribute('data-fen') === document.getElementById('board-area').getAttribute('data-preview-fen')`)
	previewFEN := eval[string](t, ctx, boardFEN)
	if previewFEN == analysisFEN {
		t.Fatal("preview shows the analysis position")
	}
	sectionShot(t, ctx, "explorer-live", "#explorer")
	// Evaluations arrive one at a time: the open tree's winrates fill in
	// and the ranking re-sorts, the preview undisturbed.
	evaluated := `document.querySelectorAll('` + level2 + ` > .node > .wr:not(.pending)').length > 0`
	for i := 0; ; i++ {
		if i == 20 {
			t.Fatal("no winrate reached the open tree")
		}
		if !g.step(10 * time.Second) {
			t.Fatal("no evaluation waiting")
		}
		if poll(ctx, evaluated, time.Second) {
			break
		}
	}
	if got := eval[string](t, ctx, `document.querySelector('`+level2+` > .node > .wr:not(.pending)').textContent`); !strings.HasPrefix(got, "wr ") || !strings.HasSuffix(got, "%") {
		t.Errorf("evaluated node shows %q", got)
	}
	waitFor(t, ctx, "a ranked expected winrate", `document.querySelector('#ranking tbody tr:first-child td.ewr').textContent.endsWith('%')`)
	if eval[string](t, ctx, `document.getElementById('explorer').getAttribute('data-state') || ''`) == "done" {
		t.Fatal("the calculation ended before the test let it")
	}
	if got := eval[string](t, ctx, boardFEN); got != previewFEN || eval[int](t, ctx, `document.querySelectorAll('#tree li.previewed[aria-selected="true"]').length`) != 1 {
		t.Error("the preview changed while evaluations arrived")
	}
	// Escape during the calculation returns to the analysis position; the
	// calculation goes on.
	do(t, ctx, "press Escape during the calculation", chromedp.KeyEvent(kb.Escape))
	waitFor(t, ctx, "the analysis position back", `!document.getElementById('board-area').classList.contains('previewing')`)
	if got := eval[string](t, ctx, boardFEN); got != analysisFEN {
		t.Errorf("after Escape the board shows %q", got)
	}
	if eval[string](t, ctx, `document.getElementById('progress').getAttribute('data-phase')`) != "stockfish" {
		t.Error("Escape disturbed the calculation")
	}
	do(t, ctx, "preview the node again", chromedp.Click(chromedp.CSS(level2+` > .node .san`)))
	waitFor(t, ctx, "the preview", `document.getElementById('board-area').classList.contains('previewing') && document.querySelector('#board svg.board').getAttribute('data-fen') === document.getElementById('board-area').getAttribute('data-preview-fen')`)
	// The rest of the calculation: the final trees replace the live ones,
	// the preview and the open nodes stay.
	g.open()
	waitFor(t, ctx, "the result", `document.getElementById('explorer').getAttribute('data-state') === 'done' && document.getElementById('explorer').getAttribute('data-trees') === 'final'`)
	if eval[int](t, ctx, `document.querySelectorAll('#ranking tbody tr').length`) != rows {
		t.Error("the ranking lost moves")
	}
	if !eval[bool](t, ctx, `(() => { const v = [...document.querySelectorAll('#ranking td.ewr')].map(td => parseFloat(td.textContent)); return v.every((x, i) => i === 0 || v[i-1] >= x); })()`) {
		t.Error("ranking not sorted")
	}
	if s := eval[string](t, ctx, `document.getElementById('summary').textContent`); !strings.Contains(s, "Total branches analysed") || !strings.Contains(s, "Calculation time") {
		t.Errorf("summary %q", s)
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll('#tree .wr')].filter(x => x.textContent.includes('…')).length`); n != 0 {
		t.Errorf("%d winrates still pending after the end", n)
	}
	if got := eval[string](t, ctx, boardFEN); got != previewFEN {
		t.Errorf("the final trees changed the preview to %q", got)
	}
	if eval[int](t, ctx, `document.querySelectorAll('#tree li.previewed[aria-selected="true"]').length`) != 1 {
		t.Error("previewed node not highlighted")
	}
	if eval[bool](t, ctx, `document.getElementById('preview-banner').hidden`) {
		t.Error("no preview marker")
	}
	pageShot(t, ctx, "explorer")
	checkContrast(t, ctx, "light")
	do(t, ctx, "dark colour scheme", colourScheme("dark"))
	if bg := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(22, 22, 22)" {
		t.Errorf("dark scheme background %q", bg)
	}
	checkContrast(t, ctx, "dark")
	pageShot(t, ctx, "explorer-dark")
	do(t, ctx, "light colour scheme", colourScheme("light"))
	do(t, ctx, "press Escape", chromedp.KeyEvent(kb.Escape))
	waitFor(t, ctx, "the analysis position back", `!document.getElementById('board-area').classList.contains('previewing')`)
	if got := eval[string](t, ctx, boardFEN); got != analysisFEN {
		t.Errorf("after Escape the board shows %q", got)
	}
	if eval[int](t, ctx, `document.querySelectorAll('#tree li.previewed').length`) != 0 {
		t.Error("node still highlighted after Escape")
	}
	// Keyboard: from the focused node, ↑ to the root, Enter previews it;
	// "Return to analysis" ends it.
	do(t, ctx, "arrow up and Enter", chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, "keyboard preview", `document.querySelector('#tree [role=treeitem][aria-level="1"]').classList.contains('previewed')`)
	do(t, ctx, "Return to analysis", chromedp.Click(chromedp.CSS("#return")))
	waitFor(t, ctx, "the analysis position back", `!document.getElementById('board-area').classList.contains('previewing')`)
	if got := eval[string](t, ctx, boardFEN); got != analysisFEN {
		t.Errorf("after Return the board shows %q", got)
	}
	// The parameters are remembered.
	do(t, ctx, "reload", chromedp.Reload())
	if got := eval[string](t, ctx, `document.getElementById('p-depth').value + ' ' + document.getElementById('p-loss').value`); got != "20 -0.5" {
		t.Errorf("parameters after reload: %q", got)
	}
}

func TestBrowserKnobs(t *testing.T) {
	e := newTestEnv(t, nil)
	ctx := browser(t)
	do(t, ctx, "open the knobs editor", chromedp.Navigate(e.ts.URL+"/knobs"))
	before, _ := os.ReadFile(e.config)
	// Out of range: the page refuses to submit and says why.
	do(t, ctx, "type a bad value", chromedp.SetValue(chromedp.CSS("#set"), "browser"), chromedp.SetValue(chromedp.CSS("#k-opponent_ply_depth"), "99"),
		chromedp.Click(chromedp.CSS("#save")))
	if msg := eval[string](t, ctx, `document.getElementById('e-opponent_ply_depth').textContent`); !strings.Contains(msg, "between 0 and 12") {
		t.Errorf("field error %q", msg)
	}
	if after, _ := os.ReadFile(e.config); string(after) != string(before) {
		t.Fatal("an invalid form was saved")
	}
	// Reset restores the default.
	do(t, ctx, "reset", chromedp.Click(chromedp.CSS("#reset")))
	if v := eval[string](t, ctx, `document.getElementById('k-opponent_ply_depth').value`); v != eval[string](t, ctx, `document.getElementById('k-opponent_ply_depth').dataset.default`) {
		t.Errorf("after reset: %q", v)
	}
	do(t, ctx, "type a good value and save", chromedp.SetValue(chromedp.CSS("#k-opponent_ply_depth"), "9"), chromedp.Click(chromedp.CSS("#save")))
	do(t, ctx, "wait for the saved page", chromedp.WaitVisible(chromedp.CSS("#saved")))
	data, err := os.ReadFile(e.config)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "[knobs.browser]") || !strings.Contains(string(data), "opponent_ply_depth = 9") {
		t.Errorf("config after save:\n%s", data)
	}
	if v := eval[string](t, ctx, `document.getElementById('k-opponent_ply_depth').value`); v != "9" {
		t.Errorf("saved set shows %q", v)
	}
	pageShot(t, ctx, "knobs")
}

func TestBrowserRuns(t *testing.T) {
	e := newTestEnv(t, nil)
	ctx := browser(t)
	do(t, ctx, "open the runs", chromedp.Navigate(e.ts.URL+"/runs"))
	if n := eval[int](t, ctx, `document.querySelectorAll('svg.runs-chart polyline.series').length`); n != 4 {
		t.Errorf("%d chart lines", n)
	}
	pageShot(t, ctx, "runs")
}
