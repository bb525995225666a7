package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
)

// TestPlayFlags: match's and ladder's shared flags parse into durations;
// a time per move that is not a positive number or a negative tolerance
// is refused, in either command.
func TestPlayFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		wantErr bool
	}{
		{nil, false},
		{[]string{"--tc", "0.25", "--tolerance", "0.5"}, false},
		{[]string{"--tc", "0"}, true},
		{[]string{"--tc", "-1"}, true},
		{[]string{"--tc", "NaN"}, true},
		{[]string{"--tc", "+Inf"}, true},
		{[]string{"--tolerance", "-0.1"}, true},
	} {
		fs := flag.NewFlagSet("match", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := addPlayFlags(fs, "seconds per move", "seed")
		require.NoError(t, fs.Parse(c.args))
		err := f.check()
		if c.wantErr {
			assert.ErrorContains(t, err, "--tc must be positive and --tolerance non-negative", "%v", c.args)
			continue
		}
		require.NoError(t, err, "%v", c.args)
		assert.Equal(t, seconds(*f.tc), f.moveTime())
		assert.Equal(t, seconds(*f.tolerance), f.overrun())
	}
	assert.Equal(t, 250*time.Millisecond, seconds(0.25))
	for _, args := range [][]string{{"ladder", "--engine", "easy", "--tc", "NaN"}, {"match", "--engine-a", "easy", "--engine-b", "easy", "--tc", "NaN"}} {
		code, _, errOut := runCLI(t, "", append([]string{"--log-level", "off"}, args...)...)
		assert.Equal(t, 1, code, "%v: %s", args, errOut)
		assert.Contains(t, errOut, "--tc must be positive", "%v", args)
	}
}

// TestPlayFlagsEngines: the engines of one factory get the seeds after
// --seed in the order they are built, whatever their spec; an unknown spec
// is named.
func TestPlayFlagsEngines(t *testing.T) {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	f := addPlayFlags(fs, "", "")
	require.NoError(t, fs.Parse([]string{"--seed", "40"}))
	factory := f.engines(zerolog.Nop())
	ctx := context.Background()
	moves := func(e engine.Engine) []string {
		t.Helper()
		defer e.Close()
		var out []string
		for range 10 {
			m, err := e.SelectMove(ctx, engine.Position{}, engine.Limits{MoveTime: time.Second})
			require.NoError(t, err)
			out = append(out, m.UCI)
		}
		return out
	}
	seeded := func(seed uint64) []string {
		e, err := bots.New(ctx, "easy", bots.WithSeed(seed))
		require.NoError(t, err)
		return moves(e)
	}
	for i, spec := range []string{"easy", "hard", "easy"} {
		e, err := factory(spec)(ctx)
		require.NoError(t, err, spec)
		if spec != "easy" {
			require.NoError(t, e.Close())
			continue
		}
		assert.Equal(t, seeded(uint64(41+i)), moves(e), "engine %d", i)
	}
	assert.NotEqual(t, seeded(41), seeded(43), "the seeds give the engines different moves")
	_, err := factory("grandmaster")(ctx)
	assert.ErrorContains(t, err, "grandmaster")
}

// TestRunSubcommand: a subcommand runs with the arguments after it; none
// is a usage error, -h and --help print the usage, an unknown one is named
// with the known ones.
func TestRunSubcommand(t *testing.T) {
	var got []string
	subs := map[string]func([]string) error{
		"list":    func(args []string) error { got = append([]string{"list"}, args...); return nil },
		"install": func(args []string) error { got = append([]string{"install"}, args...); return nil },
	}
	for _, c := range []struct {
		args    []string
		wantErr error
		want    []string
		stderr  string
	}{
		{[]string{"install", "sf15", "--force"}, nil, []string{"install", "sf15", "--force"}, ""},
		{[]string{"list"}, nil, []string{"list"}, ""},
		{nil, errUsage, nil, "usage: outpost engines\n"},
		{[]string{"-h"}, nil, nil, "usage: outpost engines\n"},
		{[]string{"--help"}, nil, nil, "usage: outpost engines\n"},
		{[]string{"bogus"}, errUsage, nil, "outpost engines: unknown subcommand \"bogus\" (want install or list)\n"},
	} {
		got = nil
		var out, errb bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &errb}
		err := runSubcommand(env, "engines", "usage: outpost engines", c.args, subs)
		assert.ErrorIs(t, err, c.wantErr, "%v", c.args)
		if c.wantErr == nil {
			assert.NoError(t, err, "%v", c.args)
		}
		assert.Equal(t, c.want, got, "%v", c.args)
		assert.Equal(t, c.stderr, errb.String(), "%v", c.args)
		assert.Empty(t, out.String())
	}
}
