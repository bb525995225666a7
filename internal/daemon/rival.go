package daemon

import (
	"errors"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// Another process on the bot's token shows as the server closing the event
// stream again and again: lila keeps one event stream per account and
// closes the previous one when another opens (modules/api/src/main/
// EventStream.scala, "kill previous one if any"), so two daemons — or a
// daemon and another bot client — on one account take the stream from
// each other, each reconnection closing the other's, and both miss
// challenges and game starts in the gaps. A deploy or a proxy closes it
// once in a while; rivalCloses closes within rivalWindow are the other
// process. The warning is repeated at most every rivalRepeat.
const (
	rivalCloses = 3
	rivalWindow = 2 * time.Minute
	rivalRepeat = 10 * time.Minute
)

// rivalWatch counts the server's closes of the event stream (the event
// loop's goroutine only).
type rivalWatch struct {
	closes []time.Time // within rivalWindow of the last
	warned time.Time
}

// closed notes a reconnection caused by cause at now, and reports how many
// closes by the server fell within rivalWindow when that is a rival's
// pattern not yet warned of within rivalRepeat.
func (w *rivalWatch) closed(now time.Time, cause error) (n int, warn bool) {
	if !errors.Is(cause, lichess.ErrStreamClosed) {
		return 0, false
	}
	kept := w.closes[:0]
	for _, t := range w.closes {
		if now.Sub(t) < rivalWindow {
			kept = append(kept, t)
		}
	}
	w.closes = append(kept, now)
	if len(w.closes) < rivalCloses || (!w.warned.IsZero() && now.Sub(w.warned) < rivalRepeat) {
		return len(w.closes), false
	}
	w.warned = now
	return len(w.closes), true
}

// onReconnected logs the event stream's reconnection, and warns when the
// closes look like another process on the account.
func (d *Daemon) onReconnected(e *lichess.Reconnected) {
	d.log.Info().Int("attempt", e.Attempt).AnErr("cause", e.Cause).Msg("event stream reconnected")
	n, warn := d.rival.closed(d.now(), e.Cause)
	if !warn {
		return
	}
	d.log.Warn().Int("closes", n).Str("within", rivalWindow.String()).
		Msg("the server keeps closing the event stream: another process is probably using this bot's token (Lichess keeps one event stream per account and closes the previous one); run one daemon per account")
	if h := d.hooks.RivalStream; h != nil {
		h(n)
	}
}
