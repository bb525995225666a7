package analysis

import "testing"

func TestServerOf(t *testing.T) {
	for _, c := range []struct{ site, want string }{
		{"https://lichess.org/ZlCTzfMG", ""},
		{"https://LICHESS.ORG./ZlCTzfMG", ""},
		{"https://en.lichess.org/abc", ""},
		{"", ""},
		{"?", ""},
		{"Casual game", ""},
		{"ftp://127.0.0.1/x", ""},
		{"http://127.0.0.1:9663/abcd1234", "127.0.0.1:9663"},
		{"http://localhost/abcd1234", "localhost"},
		{"https://notlichess.org/x", "notlichess.org"},
		{"https://lichess.org.evil.test/x", "lichess.org.evil.test"},
	} {
		if got := ServerOf(c.site); got != c.want {
			t.Errorf("ServerOf(%q) = %q, want %q", c.site, got, c.want)
		}
	}
}

func TestComparisonAgainstNames(t *testing.T) {
	c := &Comparison{}
	if c.AgainstName() != "Lichess" || c.AgainstLabel() != "Lichess" {
		t.Errorf("zero comparison names %q / %q, want Lichess", c.AgainstName(), c.AgainstLabel())
	}
	c.Against = "127.0.0.1:9663"
	if got := c.AgainstName(); got != "the Lichess stand-in at 127.0.0.1:9663" {
		t.Errorf("AgainstName = %q", got)
	}
	if got := c.AgainstLabel(); got != "stand-in" {
		t.Errorf("AgainstLabel = %q", got)
	}
}
