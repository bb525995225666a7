package config

import (
	"strings"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	cases := []struct {
		in         string
		base, inc  time.Duration
		speed, out string
	}{
		{"3+2", 3 * time.Minute, 2 * time.Second, "blitz", "3+2"},
		{"1+0", time.Minute, 0, "bullet", "1+0"},
		{"0.5+0", 30 * time.Second, 0, "bullet", "0.5+0"},
		{"0.25+0", 15 * time.Second, 0, "ultraBullet", "0.25+0"},
		{"2+1", 2 * time.Minute, time.Second, "bullet", "2+1"}, {"3+0", 3 * time.Minute, 0, "blitz", "3+0"},
		{"10+0", 10 * time.Minute, 0, "rapid", "10+0"},
		{"15+10", 15 * time.Minute, 10 * time.Second, "rapid", "15+10"},
		{"30+0", 30 * time.Minute, 0, "classical", "30+0"},
		{"0+1", 0, time.Second, "bullet", "0+1"},
		{" 5 + 3 ", 5 * time.Minute, 3 * time.Second, "blitz", "5+3"},
	}
	for _, c := range cases {
		tc, err := ParseTimeControl(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if tc.Base != c.base || tc.Increment != c.inc || tc.Speed() != c.speed || tc.String() != c.out {
			t.Errorf("%q: got %+v speed %s string %s", c.in, tc, tc.Speed(), tc)
		}
	}
	for _, s := range []string{"", "3", "3|2", "a+2", "3+b", "-1+0", "0+0", "181+0", "3+181", "0.01+0", "3+1.5", "1e1+0", "NaN+0"} {
		if _, err := ParseTimeControl(s); err == nil || !strings.Contains(err.Error(), "MINUTES+SECONDS") {
			t.Errorf("%q accepted or unclear: %v", s, err)
		}
	}
}

func TestFieldErrorFormat(t *testing.T) {
	e := FieldError{Key: "challenge.min_base", Value: "-5", Problem: "out of range", Allowed: "0..10800 seconds", Line: 12}
	if got := e.Error(); got != "line 12: challenge.min_base: out of range (got -5); allowed: 0..10800 seconds" {
		t.Errorf("Error() = %q", got)
	}
	if got := e.Message(); got != "challenge.min_base: out of range (got -5); allowed: 0..10800 seconds" {
		t.Errorf("Message() = %q", got)
	}
	if got := (FieldError{Problem: "x"}).Error(); got != "x" {
		t.Errorf("bare: %q", got)
	}
	if ValidationErrors(nil).err() != nil {
		t.Error("empty ValidationErrors is a non-nil error")
	}
	long := formatValue(strings.Repeat("x", 500))
	if n := len([]rune(long)); n > maxValueLen {
		t.Errorf("value not shortened: %d runes", n)
	}
}
