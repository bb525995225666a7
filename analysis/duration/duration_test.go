package duration

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	good := map[string]time.Duration{
		"100ms": 100 * time.Millisecond, "20s": 20 * time.Second, "1m30s": 90 * time.Second, "24h": 24 * time.Hour,
		"30d": 30 * 24 * time.Hour, "1.5d": 36 * time.Hour, "2w": 14 * 24 * time.Hour, " 5s ": 5 * time.Second, "0s": 0, "0": 0,
	}
	for s, want := range good {
		got, err := Parse(s)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "d", "5", "5 s", "-5s", "-1d", "1e3d", "infd", "NaNd", "1d12h", "twenty", "1x", "+3d"} {
		if _, err := Parse(s); err == nil || !strings.Contains(err.Error(), "duration") {
			t.Errorf("Parse(%q) accepted or unclear: %v", s, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		100 * time.Millisecond: "100ms", 20 * time.Second: "20s", 10 * time.Minute: "10m", 90 * time.Minute: "1h30m",
		time.Hour: "1h", 24 * time.Hour: "1d", 30 * 24 * time.Hour: "30d", 14 * 24 * time.Hour: "2w", 0: "0s",
		36 * time.Hour: "36h", 61 * time.Second: "1m1s",
	} {
		if got := Format(d); got != want {
			t.Errorf("Format(%v) = %q, want %q", d, got, want)
		}
		if back, err := Parse(Format(d)); err != nil || back != d {
			t.Errorf("round trip %v: %v, %v", d, back, err)
		}
	}
}

func TestNegative(t *testing.T) {
	for _, s := range []string{"-5s", "-1d"} {
		if _, err := Parse(s); !errors.Is(err, ErrNegative) {
			t.Errorf("Parse(%q): %v, want ErrNegative", s, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"100ms", "1m30s", "30d", "1.5d", "2w", "-1d", "1e3d", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			return
		}
		if d < 0 {
			t.Fatalf("Parse(%q) = %v, negative", s, d)
		}
		if back, err := Parse(Format(d)); err != nil || back != d {
			t.Fatalf("Parse(%q) = %v, formatted %q, parsed back %v, %v", s, d, Format(d), back, err)
		}
	})
}
