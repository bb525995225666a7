package web

import (
	"net/http"

	"github.com/outpostchess/outpost/lichess/provider"
)

// enginesData is the Engines page: what `outpost provider` registered and
// served, or why it is not known.
type enginesData struct {
	Configured bool
	Status     *provider.Status
	Error      string
}

func (s *Server) enginesPage(w http.ResponseWriter, r *http.Request) {
	d := enginesData{}
	if s.opt.Engines != nil {
		d.Configured = true
		st, err := s.opt.Engines(r.Context())
		if err != nil {
			d.Error = err.Error()
		}
		d.Status = st
	}
	s.render(w, http.StatusOK, "engines", page{Title: "External engines", Nav: "engines", Data: d})
}
