package sandbox

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// subscriberBuffer bounds the lines queued for one stream; a client that
// falls this far behind is disconnected.
const subscriberBuffer = 1024

// malformedLine is the line the malformed fault injects: truncated JSON.
const malformedLine = `{"type":"gameState","moves":"e2e4 e7e`

// streamMsg is one queued ndjson line, or the end of the stream.
type streamMsg struct {
	line []byte
	end  bool
}

// subscriber is the queue of one open ndjson stream.
type subscriber struct {
	ch     chan streamMsg
	kicked chan struct{}
	once   sync.Once
	color  int // the player's color for game streams
}

// newSubscriber returns an empty subscriber.
func newSubscriber() *subscriber {
	return &subscriber{ch: make(chan streamMsg, subscriberBuffer), kicked: make(chan struct{})}
}

// send queues a value as one JSON line; a full queue disconnects the client.
func (sub *subscriber) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	select {
	case sub.ch <- streamMsg{line: b}:
	default:
		sub.kick()
	}
}

// end queues the end of the stream: the lines before it are still sent.
func (sub *subscriber) end() {
	select {
	case sub.ch <- streamMsg{end: true}:
	default:
		sub.kick()
	}
}

// kick closes the stream at once.
func (sub *subscriber) kick() { sub.once.Do(func() { close(sub.kicked) }) }

// serveStream writes sub's lines to w as ndjson with keep-alive blank lines,
// applying the stream faults, until the stream ends, the client goes, the
// subscriber is kicked or the server closes.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, sub *subscriber) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	flush := func() {
		if flusher != nil {
			flusher.Flush()
		}
	}
	flush()
	ctx := r.Context()
	path := r.URL.Path
	seen := map[FaultID]bool{}
	sent := 0
	keepAlive := time.NewTicker(s.cfg.KeepAlive)
	defer keepAlive.Stop()
	// gate applies the stream faults; it returns false when the stream
	// must end now (dropped, or stalled until the client gave up).
	gate := func() bool {
		act, malformed := s.faults.beforeLine(path, sent, seen)
		if malformed {
			if _, err := w.Write([]byte(malformedLine + "\n")); err != nil {
				return false
			}
			flush()
		}
		switch act {
		case lineDrop:
			s.log.Debug().Str("path", path).Int("lines", sent).Msg("fault: drop stream")
			return false
		case lineStall:
			s.log.Debug().Str("path", path).Int("lines", sent).Msg("fault: stall stream")
			select {
			case <-ctx.Done():
			case <-sub.kicked:
			case <-s.done:
			}
			return false
		}
		return true
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.kicked:
			return
		case <-s.done:
			return
		case <-keepAlive.C:
			if !gate() {
				return
			}
			if _, err := w.Write([]byte("\n")); err != nil {
				return
			}
			flush()
		case m := <-sub.ch:
			if m.end {
				return
			}
			if !gate() {
				return
			}
			if _, err := w.Write(append(m.line, '\n')); err != nil {
				return
			}
			sent++
			flush()
		}
	}
}
