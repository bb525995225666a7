package main

import (
	"context"
	"fmt"
	"os"

	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/lichess"
)

// runRun implements `outpost run`: the daemon against Lichess, or with
// --sandbox against an embedded sandbox.
func runRun(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "run", "[--config FILE] [--sandbox [--games N] [--tc BASE+INC | --days N] [--sparring ENGINE] [--variant standard|chess960|fromPosition] [--fen FEN] [--time-scale X] [--arena N [--arena-duration D]]]")
	cfgPath := configFlag(fs, "configuration file (TOML); default: built-in defaults")
	sb := fs.Bool("sandbox", false, "run against an embedded Lichess sandbox with a sparring partner (offline demo)")
	games := fs.Int("games", 0, "with --sandbox: exit 0 once this many games are over and summarised (0 = run until killed)")
	tc := fs.String("tc", "1+0", "with --sandbox: the sparring partner's time control, MINUTES+SECONDS")
	days := fs.Int("days", 0, "with --sandbox: play correspondence games of N days per move (1, 2, 3, 5, 7, 10 or 14) instead of --tc; the bot thinks [game] correspondence_move_time a move")
	sparring := fs.String("sparring", "easy", "with --sandbox: the sparring partner's engine")
	variant := fs.String("variant", "standard", "with --sandbox: the sparring partner's variant: standard, chess960 (a random start position, or --fen) or fromPosition (with --fen)")
	fen := fs.String("fen", "", "with --sandbox: the start position of the sparring partner's challenges")
	arena := fs.Int("arena", 0, "with --sandbox: play an arena tournament against N sparring bots (games at --tc with --sparring) until it ends, instead of the sparring partner's challenges")
	arenaFor := fs.Duration("arena-duration", 0, "with --arena: the arena's length (default 5m)")
	timeScale := fs.Float64("time-scale", 1, "with --sandbox: run real-time games on clocks scaled by this factor, 0.01 to 1: initial time, increment and first-move deadline (0.1 plays --tc 3+2 on 18 s + 0.2 s clocks; the speed stays the time control's)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 0, "games"); err != nil {
		return err
	}
	if *days != 0 && flagSet(fs, "tc") {
		fmt.Fprintf(env.Stderr, "outpost run: --days %d and --tc %s: give one (a correspondence game has no clock)\n", *days, *tc)
		fs.Usage()
		return errUsage
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	var secrets []string
	var token lichess.Token
	if !*sb {
		var err error
		if token, err = lichess.LoadToken(os.Getenv, cfg.Lichess.TokenFile); err != nil {
			return err
		}
		secrets = append(secrets, string(token))
	}
	closeLog, err := withLogFile(env, cfg, secrets...)
	if err != nil {
		return err
	}
	defer closeLog()
	if *sb {
		o := app.Demo{Games: *games, TC: *tc, Days: *days, Sparring: *sparring, Variant: *variant, FEN: *fen, TimeScale: *timeScale,
			Arena: *arena, ArenaDuration: *arenaFor}
		if err := o.Check(); err != nil {
			fmt.Fprintf(env.Stderr, "outpost run: %v\n", err)
			fs.Usage()
			return errUsage
		}
		return app.RunSandboxDemo(ctx, cfg, o, env.Stdout, env.logger())
	}
	return app.RunLive(ctx, app.Live{Config: cfg, ConfigPath: *cfgPath, Token: token, Logger: env.logger(), Warn: env.Stderr})
}
