package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/lichess"
)

// runAccount shows the token owner's Lichess account, or with "upgrade
// --yes-i-understand" turns it into a BOT account.
func runAccount(ctx context.Context, env *Env, args []string) error {
	if len(args) > 0 && args[0] == "upgrade" {
		return runAccountUpgrade(ctx, env, args[1:])
	}
	fs := newFlags(env, "account", "[--config FILE] [--url URL]   |   outpost account upgrade --yes-i-understand [--config FILE] [--url URL]")
	cfgPath, url := accountCommonFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "outpost account: unexpected arguments %q (did you mean 'outpost account upgrade'?)\n", fs.Args())
		return errUsage
	}
	c, err := accountClient(env, *cfgPath, *url)
	if err != nil {
		return err
	}
	info, tokErr := c.CheckToken(ctx, lichess.ScopeBotPlay)
	if tokErr != nil && !errors.Is(tokErr, lichess.ErrMissingScope) {
		return tokErr
	}
	u, err := c.Account(ctx)
	if err != nil {
		return fmt.Errorf("reading the account: %w", err)
	}
	lichess.WriteProfile(env.Stdout, u, info)
	if tokErr != nil {
		fmt.Fprintf(env.Stdout, "warning:  %v\n", tokErr)
	}
	return nil
}

// runAccountUpgrade upgrades the account to BOT, refusing without the
// explicit acknowledgement flag.
func runAccountUpgrade(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "account upgrade", "--yes-i-understand [--config FILE] [--url URL]")
	cfgPath, url := accountCommonFlags(fs)
	yes := fs.Bool("yes-i-understand", false, "confirm the upgrade to a BOT account, which can never be undone")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "outpost account upgrade: unexpected arguments %q\n", fs.Args())
		return errUsage
	}
	if !*yes {
		fmt.Fprintln(env.Stderr, "outpost account upgrade: refusing without --yes-i-understand.\n"+
			"Upgrading turns the account into a BOT account for good: it cannot be undone, the account can then only\n"+
			"play through the BOT API, and Lichess only upgrades accounts that have never played a game.")
		return errUsage
	}
	c, err := accountClient(env, *cfgPath, *url)
	if err != nil {
		return err
	}
	if _, err := c.CheckToken(ctx, lichess.ScopeBotPlay); err != nil {
		return err
	}
	u, err := c.Account(ctx)
	if err != nil {
		return fmt.Errorf("reading the account: %w", err)
	}
	if u.IsBot() {
		fmt.Fprintf(env.Stdout, "%s is already a BOT account; nothing to do.\n", u.Username)
		return nil
	}
	if u.Count != nil && u.Count.All > 0 {
		return fmt.Errorf("%s has played %d games; Lichess only upgrades accounts that have never played (create a new account for the bot)",
			u.Username, u.Count.All)
	}
	if err := c.UpgradeToBot(ctx); err != nil {
		return fmt.Errorf("upgrading %s: %w", u.Username, err)
	}
	fmt.Fprintf(env.Stdout, "%s is now a BOT account.\n", u.Username)
	return nil
}

// accountCommonFlags declares the flags both forms share.
func accountCommonFlags(fs *flag.FlagSet) (cfgPath, url *string) {
	cfgPath = configFlag(fs, "configuration file (TOML) naming the server and token_file")
	url = fs.String("url", "", "Lichess base URL (default: the config's lichess.url, else https://lichess.org)")
	return cfgPath, url
}

// accountClient builds a client from the config file (if any), --url and the
// token (LICHESS_TOKEN or lichess.token_file).
func accountClient(env *Env, cfgPath, url string) (*lichess.Client, error) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	if url == "" {
		url = cfg.Lichess.URL
	}
	token, err := lichess.LoadToken(os.Getenv, cfg.Lichess.TokenFile)
	if err != nil {
		return nil, err
	}
	return lichess.New(daemon.ClientOptions(cfg, url, token, env.logger()))
}
