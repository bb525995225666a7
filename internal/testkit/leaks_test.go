package testkit

import (
	"errors"
	"testing"

	"go.uber.org/goleak"
)

// A goroutine that ends after goleak's first look is not a leak: the
// goroutine is released by the first failed look (an event, not a pause),
// and NoLeaks looks again.
func TestNoLeaksWaitsForAGoroutineWindingDown(t *testing.T) {
	release, done := make(chan struct{}), make(chan struct{})
	before := goleak.IgnoreCurrent()
	go func() { <-release; close(done) }()
	looks := 0
	err := waitNoLeaks(leakWait, func() error {
		looks++
		err := goleak.Find(before)
		if err != nil && looks == 1 {
			close(release)
			<-done
		}
		return err
	})
	if err != nil || looks != 2 {
		t.Fatalf("after %d looks: %v; want none left at the second look", looks, err)
	}
}

// A goroutine that never ends is reported, with goleak's own message.
func TestNoLeaksReportsALeak(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	before := goleak.IgnoreCurrent()
	go func() { <-stop }()
	err := waitNoLeaks(0, func() error { return goleak.Find(before) })
	if err == nil {
		t.Fatal("a goroutine blocked for ever was not reported")
	}
	calls := 0
	sentinel := errors.New("still there")
	if err := waitNoLeaks(0, func() error { calls++; return sentinel }); !errors.Is(err, sentinel) || calls != 1 {
		t.Errorf("wait 0: %d looks, %v; want one look and its error", calls, err)
	}
}
