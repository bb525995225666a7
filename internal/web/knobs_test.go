package web

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/knobs"
	"github.com/outpostchess/outpost/config"
)

// defaultForm is the knobs form as the page submits it with the defaults.
func defaultForm(set string) url.Values {
	f := url.Values{}
	f.Set("set", set)
	for _, k := range knobs.Knobs() {
		switch k.Type {
		case knobs.TypeBool:
			if k.Default == true {
				f.Set(k.Key, "true")
			}
		default:
			f.Set(k.Key, formatValue(k.Default))
		}
	}
	return f
}

func TestKnobsPage(t *testing.T) {
	e := newTestEnv(t, nil)
	body := e.page(t, "/knobs")
	// Groups in the specification's order, then the others.
	last := -1
	for _, g := range groupOrder {
		i := strings.Index(body, "<legend>"+g+"</legend>")
		if i < 0 {
			t.Fatalf("no group %q", g)
		}
		if i < last {
			t.Errorf("group %q out of order", g)
		}
		last = i
	}
	for _, k := range knobs.Knobs() {
		if !strings.Contains(body, `id="k-`+k.Key+`"`) {
			t.Errorf("no field for %s", k.Key)
		}
	}
	k, _ := knobs.Lookup("opponent_ply_depth")
	mustContain(t, body, `min="0" max="12"`, "Default "+formatValue(k.Default)+"; 0 to 12.", `name="csrf"`, "Reset to defaults")
}

func TestKnobsSave(t *testing.T) {
	e := newTestEnv(t, nil)
	f := defaultForm("sharp")
	f.Set("opponent_ply_depth", "7")
	f.Set("ply_depth_risk_type", knobs.RiskLogistic)
	resp, body := e.postForm(t, "/knobs", f, nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/knobs?set=sharp&saved=1" {
		t.Fatalf("save: %d %s", resp.StatusCode, body)
	}
	data, err := os.ReadFile(e.config)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "# my config\n[store]\npath = \"x.db\"\n") || !strings.Contains(text, "[knobs.sharp]") ||
		!strings.Contains(text, "opponent_ply_depth = 7") || !strings.Contains(text, `ply_depth_risk_type = "logistic"`) {
		t.Fatalf("config after save:\n%s", text)
	}
	// Only the changed knobs are written, and the file still loads.
	if n := strings.Count(text, " = "); n != 3 {
		t.Errorf("%d assignments written:\n%s", n, text)
	}
	cfg, err := config.Load(e.config)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := cfg.KnobConfig("sharp")
	if err != nil || kc.OpponentPlyDepth != 7 {
		t.Fatalf("knob set read back: %+v %v", kc.OpponentPlyDepth, err)
	}
	// The page shows the saved set.
	_, body = e.get(t, "/knobs?set=sharp&saved=1")
	mustContain(t, body, `Saved knob set “sharp”`, `href="/knobs?set=sharp"`, `id="k-opponent_ply_depth" name="opponent_ply_depth" value="7"`, `<option selected>logistic</option>`)
}

func TestKnobsSaveRejects(t *testing.T) {
	e := newTestEnv(t, nil)
	before, _ := os.ReadFile(e.config)
	tests := []struct {
		name string
		mod  func(url.Values)
		hdr  map[string]string
		code int
		want string
	}{
		{"out of range", func(f url.Values) { f.Set("opponent_ply_depth", "99") }, nil, http.StatusUnprocessableEntity, "opponent_ply_depth"},
		{"not a number", func(f url.Values) { f.Set("opponent_ply_depth", "lots") }, nil, http.StatusUnprocessableEntity, `&#34;lots&#34; is not a whole number`},
		{"bad enum", func(f url.Values) { f.Set("ply_depth_risk_type", "cubic") }, nil, http.StatusUnprocessableEntity, "ply_depth_risk_type"},
		{"bad name", func(f url.Values) { f.Set("set", "no spaces") }, nil, http.StatusUnprocessableEntity, "Set name"},
		{"no csrf", func(f url.Values) { f.Set(csrfField, "") }, nil, http.StatusForbidden, "CSRF"},
		{"wrong csrf", func(f url.Values) { f.Set(csrfField, "abc") }, nil, http.StatusForbidden, "CSRF"},
		{"other origin", nil, map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden, "another origin"},
		{"null origin", nil, map[string]string{"Origin": "null"}, http.StatusForbidden, "another origin"},
		{"cross site", nil, map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden, "another origin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := defaultForm("x")
			if tc.mod != nil {
				tc.mod(f)
			}
			resp, body := e.postForm(t, "/knobs", f, tc.hdr)
			if resp.StatusCode != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("%d, want %d containing %q:\n%.600s", resp.StatusCode, tc.code, tc.want, body)
			}
		})
	}
	after, _ := os.ReadFile(e.config)
	if string(after) != string(before) {
		t.Errorf("a refused save changed the config:\n%s", after)
	}
	ro := newTestEnv(t, func(o *Options) { o.ConfigPath = "" })
	resp, body := ro.postForm(t, "/knobs", defaultForm("x"), nil)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "--config") {
		t.Errorf("no config: %d", resp.StatusCode)
	}
	_, body = ro.get(t, "/knobs")
	mustContain(t, body, `id="save" disabled`)
}

// TestKnobsSaveLargeBody: a knobs form past MaxRequestBody is answered 413
// naming the limit, as docs/operations.md says, whether the CSRF token is
// in the form or in its header (it was 400), and the config is untouched.
func TestKnobsSaveLargeBody(t *testing.T) {
	e := newTestEnv(t, nil)
	before, err := os.ReadFile(e.config)
	if err != nil {
		t.Fatal(err)
	}
	for _, hdr := range []map[string]string{nil, {csrfHeader: e.srv.csrf}} {
		f := defaultForm("big")
		f.Set("filler", strings.Repeat("x", MaxRequestBody))
		resp, body := e.postForm(t, "/knobs", f, hdr)
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "limit of 64 KiB") {
			t.Errorf("header %v: %d %q", hdr, resp.StatusCode, body[:min(len(body), 300)])
		}
	}
	after, _ := os.ReadFile(e.config)
	if string(after) != string(before) {
		t.Errorf("the config changed:\n%s", after)
	}
}
