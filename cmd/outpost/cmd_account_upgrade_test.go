package main

import (
	"strings"
	"testing"

	"github.com/outpostchess/outpost/internal/sandbox"
)

// TestAccountUpgradeOffline plays Lichess's path to a BOT account against
// the sandbox (issue 39): a non-BOT account holding a bot:play token, as
// `--account carol:TOKEN:human:scopes=bot:play,…` makes it, is upgraded by
// `outpost account upgrade` and is then a BOT; an account whose token lacks
// bot:play is refused before any upgrade is sent, naming the scope.
func TestAccountUpgradeOffline(t *testing.T) {
	var accounts []sandbox.Account
	for _, flag := range []string{
		"carol:SECRET-CAROL:human:scopes=bot:play,challenge:read,challenge:write",
		"dave:SECRET-DAVE:human",
	} {
		acc, err := parseAccountFlag(flag)
		if err != nil {
			t.Fatal(err)
		}
		accounts = append(accounts, acc)
	}
	_, url := startSandbox(t, accounts...)
	isBot := func() bool {
		t.Helper()
		code, out, errOut := runCLI(t, "", "account", "--url", url)
		if code != 0 {
			t.Fatalf("account: exit %d\n%s%s", code, out, errOut)
		}
		return strings.Contains(out, "BOT (BOT API)")
	}
	t.Setenv("OUTPOST_CONFIG", "")

	t.Setenv("LICHESS_TOKEN", "SECRET-CAROL")
	code, out, errOut := runCLI(t, "", "account", "--url", url)
	if code != 0 || !strings.Contains(out, "bot:play") {
		t.Fatalf("account before the upgrade: exit %d\n%s%s", code, out, errOut)
	}
	if isBot() {
		t.Fatal("carol is a BOT before the upgrade")
	}
	code, out, errOut = runCLI(t, "", "account", "upgrade", "--yes-i-understand", "--url", url)
	if code != 0 || !strings.Contains(out, "carol is now a BOT account") {
		t.Fatalf("upgrade: exit %d\n%s%s", code, out, errOut)
	}
	if !isBot() {
		t.Fatal("carol is no BOT after the upgrade")
	}
	code, out, _ = runCLI(t, "", "account", "upgrade", "--yes-i-understand", "--url", url)
	if code != 0 || !strings.Contains(out, "already a BOT") {
		t.Fatalf("second upgrade: exit %d\n%s", code, out)
	}

	t.Setenv("LICHESS_TOKEN", "SECRET-DAVE")
	code, out, errOut = runCLI(t, "", "account", "upgrade", "--yes-i-understand", "--url", url)
	if code == 0 || !strings.Contains(errOut, "lacks a required scope") || !strings.Contains(errOut, `"bot:play"`) {
		t.Fatalf("upgrade without bot:play: exit %d\n%s%s", code, out, errOut)
	}
	if isBot() {
		t.Fatal("dave was upgraded without bot:play")
	}
	if strings.Contains(out+errOut, "SECRET") {
		t.Fatal("a token was printed")
	}
}
