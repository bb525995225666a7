package lichess

import (
	"context"
	"strings"
	"sync"
)

// maxUrgentRun bounds how many urgent requests in a row may overtake a
// waiting ordinary one: after that many, the oldest ordinary request goes
// next, so none waits forever.
const maxUrgentRun = 4

// turnQueue is the client's turn to send: one request at a time, granted
// to waiting requests in order, except that urgent ones (a game's moves and
// other actions) go before ordinary ones (chat, challenges, exports,
// account calls), at most maxUrgentRun times in a row while an ordinary
// request waits. The zero value is an idle turn.
type turnQueue struct {
	mu      sync.Mutex
	busy    bool
	urgent  []*turnWaiter
	regular []*turnWaiter
	run     int // urgent grants in a row while a regular request waited
}

// turnWaiter is one request waiting for the turn.
type turnWaiter struct {
	ready   chan struct{} // closed when the turn is granted
	granted bool          // guarded by turnQueue.mu
}

// acquire waits for the turn. On success the caller holds it and must call
// release; on error (ctx ended) it does not hold it.
func (q *turnQueue) acquire(ctx context.Context, urgent bool) error {
	q.mu.Lock()
	if !q.busy {
		q.busy = true
		q.mu.Unlock()
		return nil
	}
	w := &turnWaiter{ready: make(chan struct{})}
	if urgent {
		q.urgent = append(q.urgent, w)
	} else {
		q.regular = append(q.regular, w)
	}
	q.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	q.mu.Lock()
	if w.granted {
		// Granted as the context ended: pass the turn on.
		q.releaseLocked()
	} else {
		q.urgent = remove(q.urgent, w)
		q.regular = remove(q.regular, w)
	}
	q.mu.Unlock()
	return ctx.Err()
}

// release gives the turn to the next waiting request, or frees it.
func (q *turnQueue) release() {
	q.mu.Lock()
	q.releaseLocked()
	q.mu.Unlock()
}

// releaseLocked hands the turn on (mu held).
func (q *turnQueue) releaseLocked() {
	var next *turnWaiter
	switch {
	case len(q.urgent) > 0 && (len(q.regular) == 0 || q.run < maxUrgentRun):
		next, q.urgent = q.urgent[0], q.urgent[1:]
		if len(q.regular) > 0 {
			q.run++
		} else {
			q.run = 0
		}
	case len(q.regular) > 0:
		next, q.regular = q.regular[0], q.regular[1:]
		q.run = 0
	default:
		q.busy = false
		return
	}
	next.granted = true
	close(next.ready)
}

// waiting returns how many urgent and regular requests wait for the turn.
func (q *turnQueue) waiting() (urgent, regular int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.urgent), len(q.regular)
}

// remove returns ws without w.
func remove(ws []*turnWaiter, w *turnWaiter) []*turnWaiter {
	for i, x := range ws {
		if x == w {
			return append(ws[:i:i], ws[i+1:]...)
		}
	}
	return ws
}

// urgentPath reports whether a request path is a game action that must
// not wait behind ordinary requests: everything under a game of the Bot or
// Board API (move, abort, resign, draw, takeback, claims, and opening the
// game stream, without which no move can be made) except its chat.
func urgentPath(path string) bool {
	var rest string
	switch {
	case strings.HasPrefix(path, "/api/bot/game/"):
		rest = path[len("/api/bot/game/"):]
	case strings.HasPrefix(path, "/api/board/game/"):
		rest = path[len("/api/board/game/"):]
	default:
		return false
	}
	if strings.HasPrefix(rest, "stream/") {
		return true
	}
	id, action, ok := strings.Cut(rest, "/")
	return ok && id != "" && action != "" && action != "chat"
}
