package lichess

import (
	"io"
	"net/http"
	"testing"
	"time"
)

func TestCreateChallengeKeepAlive(t *testing.T) {
	checkGoroutines(t)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, `{"id":"chal1234","status":"created","variant":{"key":"standard"},"timeControl":{"type":"clock","limit":60,"increment":0}}`+"\n")
		w.(http.Flusher).Flush()
		time.Sleep(30 * time.Millisecond)
		io.WriteString(w, "\n")
		w.(http.Flusher).Flush()
		io.WriteString(w, `{"done":"accepted"}`+"\n")
	})
	c, _ := newTestClient(t, f.URL)
	pc, err := c.CreateChallengeKeepAlive(ctxT(t), "alice", ChallengeParams{Clock: &ChallengeClock{Limit: 60}, Color: White})
	if err != nil {
		t.Fatal(err)
	}
	if pc.Challenge.ID != "chal1234" {
		t.Fatalf("challenge %+v", pc.Challenge)
	}
	done, err := pc.Wait(ctxT(t))
	if err != nil || done != "accepted" {
		t.Fatalf("wait: %q %v", done, err)
	}
	r := f.requests()[0]
	if r.form().Get("keepAliveStream") != "true" || r.form().Get("color") != "white" {
		t.Fatalf("form %v", r.form())
	}
	pc.Close()
}
