package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"strings"
	"time"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/internal/sandbox"
)

// accountFlags collects repeated --account NAME:TOKEN[:bot] flags.
type accountFlags []sandbox.Account

// String implements flag.Value without revealing tokens.
func (a *accountFlags) String() string {
	names := make([]string, len(*a))
	for i, acc := range *a {
		names[i] = acc.Name
	}
	return strings.Join(names, ",")
}

// Set implements flag.Value.
func (a *accountFlags) Set(v string) error {
	acc, err := parseAccountFlag(v)
	if err != nil {
		return err
	}
	for _, old := range *a {
		switch {
		case strings.EqualFold(old.Name, acc.Name):
			// Lichess user ids are names in lower case: Alice and alice are one account.
			return fmt.Errorf("account %q: the name is already given (as %q; names are case-insensitive)", acc.Name, old.Name)
		case old.Token == acc.Token:
			return fmt.Errorf("account %q: its token is already %q's (each account needs its own)", acc.Name, old.Name)
		}
	}
	*a = append(*a, acc)
	return nil
}

// scopesField introduces an --account flag's token scopes.
const scopesField = ":scopes="

// parseAccountFlag parses NAME:TOKEN[:bot|:human][:scopes=SCOPE,…] (the
// token is never echoed). Without scopes= the token has the defaults of
// the account's kind; "scopes=" alone gives a token with no scope.
func parseAccountFlag(v string) (sandbox.Account, error) {
	head, scopeList, withScopes := strings.Cut(v, scopesField)
	parts := strings.Split(head, ":")
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" || parts[1] == "" {
		name := parts[0]
		return sandbox.Account{}, fmt.Errorf("account %q: want NAME:TOKEN, NAME:TOKEN:bot or NAME:TOKEN[:bot|:human]:scopes=SCOPE,…", name)
	}
	if !config.ValidUsername(parts[0]) {
		// as lila's historical usernames (User.historicalUsernameRegex):
		// a name the sandbox cannot route (/api/user/a b) is refused here
		return sandbox.Account{}, fmt.Errorf("account %q: not a Lichess username (2 to 30 letters, digits, _ or -, beginning and ending with a letter or digit)", parts[0])
	}
	if strings.IndexFunc(parts[1], func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return sandbox.Account{}, fmt.Errorf("account %q: the token holds a space or a control character (no client can send it in a header)", parts[0])
	}
	acc := sandbox.Account{Name: parts[0], Token: parts[1]}
	if len(parts) == 3 {
		switch strings.ToLower(parts[2]) {
		case "bot":
			acc.Bot = true
		case "human", "":
		default:
			return sandbox.Account{}, fmt.Errorf("account %q: kind %q: want bot or human", parts[0], parts[2])
		}
	}
	if withScopes {
		sc, err := sandbox.ParseScopes(scopeList)
		if err != nil {
			return sandbox.Account{}, fmt.Errorf("account %q: %w", parts[0], err)
		}
		acc.Scopes = sc
	}
	return acc, nil
}

// faultFlags collects repeated --fault SPEC flags.
type faultFlags []sandbox.Fault

// String implements flag.Value.
func (f *faultFlags) String() string {
	s := make([]string, len(*f))
	for i, x := range *f {
		s[i] = x.String()
	}
	return strings.Join(s, " ")
}

// Set implements flag.Value.
func (f *faultFlags) Set(v string) error {
	x, err := sandbox.ParseFault(v)
	if err != nil {
		return err
	}
	*f = append(*f, x)
	return nil
}

// runSandbox runs the Lichess-compatible sandbox server until ctx ends.
// Long: twenty flag definitions (accounts, faults, the daily bot-game cap,
// arenas); the server is internal/sandbox's.
func runSandbox(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "sandbox", "[--addr HOST:PORT] --account NAME:TOKEN[:bot][:scopes=SCOPE,…]... [--fault SPEC]...")
	addr := fs.String("addr", "127.0.0.1:8080", "listen address (loopback unless --public)")
	public := fs.Bool("public", false, "allow a non-loopback --addr: anyone who reaches it can use the sandbox's accounts")
	var accounts accountFlags
	var faults faultFlags
	fs.Var(&accounts, "account", "an account NAME:TOKEN, or NAME:TOKEN:bot for a BOT account, with :scopes=SCOPE,… for its token's scopes (lila's keys, e.g. human:scopes=bot:play before an upgrade; default: bot:play or board:play, challenge:read/write, tournament:write, engine:read/write) (repeatable)")
	fs.Var(&faults, "fault", "inject a fault (repeatable); see the fault spec below")
	keepAlive := fs.Duration("keepalive", sandbox.DefaultKeepAlive, "interval of keep-alive blank lines on streams")
	ttl := fs.Duration("challenge-ttl", sandbox.DefaultChallengeTTL, "expiry of real-time challenges without keepAliveStream")
	noStart := fs.Duration("nostart", 0, "time for each side's first move before a lobby, pool, arena or Swiss game ends as noStart, at every speed (0 = lila's times, 15 s ultraBullet … 35 s classical, less in arenas, ×5/4 in Chess960); challenge games have no first-move deadline, as on Lichess")
	timeScale := fs.Float64("time-scale", 1, "run real-time games on clocks scaled by this factor (0 < x <= 1): initial time, increment and first-move deadline; the speed stays the challenge's")
	gone := fs.Duration("gone-after", sandbox.DefaultGoneAfter, "time without a game stream before the opponent is told a player is gone")
	claim := fs.Duration("claim-after", sandbox.DefaultClaimWinAfter, "countdown after opponentGone before victory can be claimed")
	botGames := fs.Int("bot-games-per-day", sandbox.DefaultBotGamesPerDay, "each BOT account's cap on games against bots in a day, as lila's BotLimit (0 = no cap)")
	reqLimits := fs.Float64("request-limits", 1, "lila's request limits (event stream openings, /api/account, challenge creation) with their credits multiplied by this (1 = Lichess's, 0 = none)")
	seed := fs.Int64("seed", 1, "seed of game ids and random faults")
	analyse := fs.Bool("analyse", false, "analyse finished games as Lichess's fishnet would (Stockfish from [analysis] engine defaults): serve their positions on /api/cloud-eval and attach the analysis to their export")
	analysisNodes := fs.Int64("analysis-nodes", 1_000_000, "with --analyse: nodes per position (Lichess's budget for a requested analysis is 1000000)")
	analysisDelay := fs.Duration("analysis-delay", 0, "with --analyse: how long after a game's end its analysis appears")
	cloudDepth := fs.Int("cloud-depth", 18, "with --analyse: depth of the cloud evaluations of the game's positions")
	prev := fs.Usage
	fs.Usage = func() {
		prev()
		fmt.Fprintf(env.Stderr, "\n%s\n", sandbox.FaultSpecHelp)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "outpost sandbox: unexpected arguments %q\n", fs.Args())
		return errUsage
	}
	if len(accounts) == 0 {
		fmt.Fprintln(env.Stderr, "outpost sandbox: at least one --account NAME:TOKEN[:bot] is needed")
		return errUsage
	}
	if host, _, err := net.SplitHostPort(*addr); err != nil {
		return fmt.Errorf("--addr %q: want HOST:PORT: %w", *addr, err)
	} else if !config.IsLoopback(host) && !*public {
		return fmt.Errorf("--addr %s is not a loopback address: the sandbox's accounts and tokens would be open to the network; give --public to mean it", *addr)
	}
	for _, d := range []time.Duration{*keepAlive, *ttl, *gone, *claim} {
		if d <= 0 {
			return errors.New("durations must be positive")
		}
	}
	if *analysisNodes < 1000 || *cloudDepth < 1 || *cloudDepth > 60 || *analysisDelay < 0 {
		return fmt.Errorf("--analysis-nodes %d (at least 1000), --cloud-depth %d (1..60), --analysis-delay %s (not negative): out of range",
			*analysisNodes, *cloudDepth, *analysisDelay)
	}
	if *noStart < 0 {
		return fmt.Errorf("--nostart %v: must be 0 (per-speed deadlines) or positive", *noStart)
	}
	if !(*timeScale > 0 && *timeScale <= 1) {
		return fmt.Errorf("--time-scale %v: must be in (0, 1]", *timeScale)
	}
	if !(*reqLimits >= 0) || math.IsInf(*reqLimits, 0) {
		return fmt.Errorf("--request-limits %v: must be 0 (no limit) or a positive factor (1 = Lichess's limits)", *reqLimits)
	}
	perDay, err := botGamesPerDay(*botGames)
	if err != nil {
		return err
	}
	sbCfg := sandbox.Config{
		BotGamesPerDay: perDay, RequestLimits: *reqLimits,
		Accounts: accounts, KeepAlive: *keepAlive, ChallengeTTL: *ttl, NoStartTimeout: *noStart, TimeScale: *timeScale,
		GoneAfter: *gone, ClaimWinAfter: *claim, Logger: env.logger(), Seed: *seed,
	}
	if *analyse {
		fish := app.SandboxFishnet(config.Default(), *analysisNodes, *cloudDepth)
		defer fish.Close()
		sbCfg.Analyser, sbCfg.AnalysisDelay = fish, *analysisDelay
	}
	srv := sandbox.New(sbCfg)
	for _, f := range faults {
		if _, err := srv.Faults().Add(f); err != nil {
			return err
		}
	}
	url, err := srv.Listen(ctx, *addr)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, url)
	<-ctx.Done()
	srv.Close()
	return nil
}

// botGamesPerDay maps --bot-games-per-day to sandbox.Config.BotGamesPerDay
// (the flag's 0, no cap, is the config's negative value).
func botGamesPerDay(n int) (int, error) {
	switch {
	case n < 0:
		return 0, fmt.Errorf("--bot-games-per-day %d: must be 0 (no cap) or positive", n)
	case n == 0:
		return -1, nil
	}
	return n, nil
}
