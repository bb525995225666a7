package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"path"
	"strings"

	"github.com/outpostchess/outpost/internal/web/htmlreport"
)

//go:embed assets
var assets embed.FS

// pageNames are the page templates; each is parsed with the layout.
var pageNames = []string{"dashboard", "game", "explorer", "runs", "cluster", "engines", "knobs", "message"}

var funcs = template.FuncMap{
	"pct": func(f float64) string { return fmt.Sprintf("%.1f%%", f*100) },
}

func parsePages() (map[string]*template.Template, error) {
	out := make(map[string]*template.Template, len(pageNames))
	for _, n := range pageNames {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "assets/templates/layout.html", "assets/templates/"+n+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", n, err)
		}
		out[n] = t
	}
	return out, nil
}

// page is what the layout needs besides the page's own data.
type page struct {
	Title   string
	Nav     string // the active navigation entry
	CSRF    string
	Scripts []string
	Data    any
}

// render executes a page template into a buffer first, so that a template
// error becomes a 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, status int, name string, p page) {
	p.CSRF = s.csrf
	var b bytes.Buffer
	if err := s.pages[name].Execute(&b, p); err != nil {
		s.opt.Logger.Error().Err(err).Str("page", name).Msg("web: render")
		http.Error(w, "outpost serve: internal error rendering the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// fail renders a message page with an HTTP status.
func (s *Server) fail(w http.ResponseWriter, status int, title, msg string) {
	s.render(w, status, "message", page{Title: title, Data: msg})
}

// static serves the embedded scripts and styles (and the report's).
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var body []byte
	switch name {
	case "report.css":
		body = []byte(htmlreport.Styles())
	case "report.js":
		body = []byte(htmlreport.Script())
	default:
		if strings.ContainsAny(name, "/\\") {
			http.NotFound(w, r)
			return
		}
		b, err := assets.ReadFile("assets/static/" + name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		body = b
	}
	switch path.Ext(name) {
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	default:
		w.Header().Set("Content-Type", "application/octet-stream")
	}
	_, _ = w.Write(body)
}
