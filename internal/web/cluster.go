package web

import (
	"encoding/json"
	"net/http"

	"github.com/outpostchess/outpost/analysis/cluster"
)

// clusterData is the Cluster page: the status, or why there is none.
type clusterData struct {
	Configured bool
	Status     *cluster.ClusterStatus
	Error      string
}

func (s *Server) clusterStatus(r *http.Request) clusterData {
	if s.opt.Cluster == nil {
		return clusterData{}
	}
	st, err := s.opt.Cluster(r.Context())
	if err != nil {
		return clusterData{Configured: true, Error: err.Error()}
	}
	return clusterData{Configured: true, Status: st}
}

func (s *Server) clusterPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "cluster", page{Title: "Analysis cluster", Nav: "cluster", Data: s.clusterStatus(r)})
}

// clusterJSON serves the status as JSON (404 without a cluster, 502 when
// it cannot be read).
func (s *Server) clusterJSON(w http.ResponseWriter, r *http.Request) {
	d := s.clusterStatus(r)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case !d.Configured:
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "no cluster configured ([cluster] url)"})
	case d.Error != "":
		w.WriteHeader(http.StatusBadGateway)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": d.Error})
	default:
		_ = json.NewEncoder(w).Encode(d.Status)
	}
}
