package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

const goodReg = `{"name":"My engine","maxThreads":4,"maxHash":512,"providerSecret":"0123456789abcdef0123"}`

// register creates an engine for alice and returns its id and client secret.
func (e *testEnv) register(body string) (id, secret string) {
	e.t.Helper()
	status, b := e.doJSON(tokAlice, "/api/external-engine", body)
	if status != 200 {
		e.t.Fatalf("register: %d %s", status, b)
	}
	var out struct{ ID, ClientSecret string }
	if err := json.Unmarshal(b, &out); err != nil {
		e.t.Fatal(err)
	}
	return out.ID, out.ClientSecret
}

// Registrations are validated as lila's form validates them, and belong to
// their user.
func TestExternalEngineRegistration(t *testing.T) {
	e := newEnv(t, Config{})
	for _, tc := range []struct{ body, want string }{
		{`{"name":"ab","maxThreads":1,"maxHash":1,"providerSecret":"0123456789abcdef"}`, "name"},
		{`{"name":"abc","maxThreads":0,"maxHash":1,"providerSecret":"0123456789abcdef"}`, "maxThreads"},
		{`{"name":"abc","maxThreads":1,"maxHash":2000000,"providerSecret":"0123456789abcdef"}`, "maxHash"},
		{`{"name":"abc","maxThreads":1,"maxHash":1,"providerSecret":"short"}`, "providerSecret"},
		{`{"name":"abc","maxThreads":1,"maxHash":1,"providerSecret":"0123456789abcdef","variants":["chess960"]}`, "variants"},
		{`{"name":`, "Invalid JSON"},
	} {
		status, b := e.doJSON(tokAlice, "/api/external-engine", tc.body)
		if status != 400 || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d %s, want 400 naming %s", tc.body, status, b, tc.want)
		}
	}
	id, _ := e.register(goodReg)
	if status, b := e.do(tokBob, "GET", "/api/external-engine/"+id, nil); status != 404 {
		t.Errorf("bob reads alice's engine: %d %s", status, b)
	}
	if status, b := e.do(tokBob, "DELETE", "/api/external-engine/"+id, nil); status != 404 {
		t.Errorf("bob deletes alice's engine: %d %s", status, b)
	}
	status, b := e.do(tokAlice, "GET", "/api/external-engine", nil)
	if status != 200 || !strings.Contains(string(b), id) || strings.Contains(string(b), "0123456789abcdef0123") {
		t.Errorf("list: %d %s (the provider secret must never be sent back)", status, b)
	}
	if status, _ := e.do(tokAlice, "DELETE", "/api/external-engine/"+id, nil); status != 200 {
		t.Errorf("delete: %d", status)
	}
	if status, _ := e.do(tokAlice, "GET", "/api/external-engine/"+id, nil); status != 404 {
		t.Errorf("deleted engine: %d", status)
	}
}

// analyseBody is an analysis request's body.
func analyseBody(secret, work string) string {
	return fmt.Sprintf(`{"clientSecret":%q,"work":{%s}}`, secret, work)
}

const workFields = `"sessionId":"s","threads":1,"hash":16,"multiPv":1,"variant":"chess","initialFen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"`

// Bad analysis requests are refused with lila-engine's reasons.
func TestExternalEngineBadWork(t *testing.T) {
	e := newEnv(t, Config{EngineStartWait: time.Millisecond})
	id, secret := e.register(goodReg)
	for _, tc := range []struct{ work, want string }{
		{workFields + `,"moves":["e2e5"],"depth":5`, "illegal uci"},
		{strings.Replace(workFields, `"multiPv":1`, `"multiPv":6`, 1) + `,"moves":[],"depth":5`, "multipv"},
		{strings.Replace(workFields, `"chess"`, `"atomic"`, 1) + `,"moves":[],"depth":5`, "unsupported variant"},
		{workFields + `,"moves":[]`, "exactly one"},
		{strings.Replace(workFields, "w KQkq", "w KQkq extra", 1) + `,"moves":[],"depth":5`, "illegal initial position"},
	} {
		status, b := e.doJSON("", "/api/external-engine/"+id+"/analyse", analyseBody(secret, tc.work))
		if status != 400 || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d %s, want 400 with %q", tc.work, status, b, tc.want)
		}
	}
	// A good request with nobody serving: 503.
	status, _ := e.doJSON("", "/api/external-engine/"+id+"/analyse", analyseBody(secret, workFields+`,"moves":[],"depth":5`))
	if status != 503 {
		t.Errorf("no provider: %d, want 503", status)
	}
}

// A provider whose upload has a malformed line gets 400 and the job ends;
// one whose upload ends before bestmove too; the long poll answers 204
// when no job came.
func TestExternalEngineBrokerUploads(t *testing.T) {
	e := newEnv(t, Config{EngineAcquireWait: 10 * time.Millisecond})
	if status, _ := e.doJSON("", "/api/external-engine/work", `{"providerSecret":"0123456789abcdef0123"}`); status != 204 {
		t.Fatalf("empty long poll: %d, want 204", status)
	}
	id, secret := e.register(goodReg)
	for _, tc := range []struct{ upload, want string }{
		{"info multipv 1 depth x score cp 1 pv e2e4\n", "invalid uci"},
		{"info multipv 9 depth 1 score cp 1 pv e2e4\n", "multipv"},
		{"info multipv 1 depth 1 score cp 1 nodes 1 time 1 pv e2e4\n", "expected bestmove"},
	} {
		requested := make(chan string, 1)
		go func() {
			req, _ := http.NewRequest("POST", e.url+"/api/external-engine/"+id+"/analyse",
				strings.NewReader(analyseBody(secret, workFields+`,"moves":[],"depth":5`)))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				requested <- err.Error()
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			requested <- string(b)
		}()
		job := acquire(t, e, "0123456789abcdef0123")
		req, _ := http.NewRequest("POST", e.url+"/api/external-engine/work/"+job, strings.NewReader(tc.upload))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(b), tc.want) {
			t.Errorf("upload %q: %d %s, want 400 with %q", tc.upload, resp.StatusCode, b, tc.want)
		}
		if got := <-requested; strings.Contains(got, "bestmove") {
			t.Errorf("requester got a bestmove from a refused upload: %s", got)
		}
	}
}

// acquire long-polls until a job comes (the requester's goroutine queues
// it), returning its id.
func acquire(t *testing.T, e *testEnv, secret string) string {
	t.Helper()
	for range 1000 { // each poll waits EngineAcquireWait; bounded
		status, b := e.doJSON("", "/api/external-engine/work", `{"providerSecret":"`+secret+`"}`)
		if status == 204 {
			continue
		}
		var job struct{ ID string }
		if status != 200 || json.Unmarshal(b, &job) != nil {
			t.Fatalf("acquire: %d %s", status, b)
		}
		return job.ID
	}
	t.Fatal("no job acquired")
	return ""
}

// FuzzEngineUpload: any upload line is taken, ignored or refused with a
// reason; never a panic, never an emit with a PV longer than 30 moves.
func FuzzEngineUpload(f *testing.F) {
	for _, s := range []string{
		"info multipv 1 depth 20 seldepth 30 time 1373 nodes 1494341 score cp 47 hashfull 594 nps 1088376 tbhits 0 pv d2d4 d7d5 c2c4",
		"info multipv 2 depth 3 score mate -2 upperbound nodes 5 pv e2e4 e7e5",
		"bestmove e2e4 ponder e7e5", "bestmove (none)", "info string hello", "readyok", "info depth 1 score mate 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		b := mustStart(t)
		st := &emitState{pos: b}
		for range 2 {
			em, _, _ := st.update(line)
			if em != nil {
				for _, pv := range em.PVs {
					if pv != nil && len(pv.Moves) > 30 {
						t.Fatalf("PV of %d moves", len(pv.Moves))
					}
				}
			}
		}
	})
}

func mustStart(t *testing.T) *board.Board {
	t.Helper()
	b, err := board.FromFENVariant(board.StartFEN, true)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A whole exchange through the recording client, so that every
// external-engine operation is answered 2xx and validated against the
// spec: get and update a registration, a request, its job and upload.
func TestExternalEngineExchangeValidated(t *testing.T) {
	e := newEnv(t, Config{EngineAcquireWait: 10 * time.Millisecond})
	id, secret := e.register(goodReg)
	if status, b := e.do(tokAlice, "GET", "/api/external-engine/"+id, nil); status != 200 || !strings.Contains(string(b), `"My engine"`) {
		t.Fatalf("get: %d %s", status, b)
	}
	req, _ := http.NewRequest("PUT", e.url+"/api/external-engine/"+id,
		strings.NewReader(strings.Replace(goodReg, "My engine", "My engine 2", 1)))
	req.Header.Set("Authorization", "Bearer "+tokAlice)
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"My engine 2"`) {
		t.Fatalf("put: %d %s", resp.StatusCode, b)
	}
	got := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest("POST", e.url+"/api/external-engine/"+id+"/analyse",
			strings.NewReader(analyseBody(secret, workFields+`,"moves":["e2e4"],"depth":1`)))
		req.Header.Set("Content-Type", "application/json")
		resp, err := e.client.Do(req)
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	job := acquire(t, e, "0123456789abcdef0123")
	up, _ := http.NewRequest("POST", e.url+"/api/external-engine/work/"+job,
		strings.NewReader("info multipv 1 depth 1 score cp 10 nodes 5 time 1 pv e7e5 g1f3\nbestmove e7e5\n"))
	up.Header.Set("Content-Type", "text/plain")
	resp, err = e.client.Do(up)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d", resp.StatusCode)
	}
	// Black to move: White's view of cp 10 is -10.
	if out := <-got; !strings.Contains(out, `"bestmove":"e7e5"`) || !strings.Contains(out, `"cp":-10`) {
		t.Errorf("requester got %s", out)
	}
}
