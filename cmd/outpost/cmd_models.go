package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/outpostchess/outpost/models"
	"github.com/outpostchess/outpost/models/fetch"
)

// envMaiaSource names a folder holding maia-*.pb.gz to copy instead of
// downloading.
const envMaiaSource = "OUTPOST_MAIA_SOURCE"

// defaultMaiaSource is the reference copy used when running from a checkout
// next to the shared folder.
const defaultMaiaSource = "../shared/models/maia1"

const modelsUsage = `usage: outpost models fetch [--dir DIR] [--source DIR] [--skip-library] [--skip-weights]
       outpost models path`

// runModels implements `outpost models`.
func runModels(ctx context.Context, env *Env, args []string) error {
	return runSubcommand(env, "models", modelsUsage, args, map[string]func([]string) error{
		"fetch": func(args []string) error { return runModelsFetch(ctx, env, args) },
		"path": func([]string) error {
			cfg, err := models.LoadConfig()
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "dir      %s\nlibrary  %s\nmaia1    %s\n", cfg.Dir, cfg.Library, cfg.Maia1Dir)
			return nil
		},
	})
}

// runModelsFetch installs ONNX Runtime and the Maia-1 weights.
func runModelsFetch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "models fetch", "[--dir DIR] [--source DIR]")
	def, err := models.DefaultDir(os.Getenv)
	if err != nil {
		def = ""
	}
	dir := fs.String("dir", def, "models directory ($"+models.EnvDir+", default ~/.cache/outpost/models)")
	source := fs.String("source", "", "folder with maia-*.pb.gz to copy ($"+envMaiaSource+", default "+defaultMaiaSource+" when present; else download)")
	skipLib := fs.Bool("skip-library", false, "do not install the ONNX Runtime library")
	skipW := fs.Bool("skip-weights", false, "do not install the Maia-1 weights")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("no models directory: pass --dir or set %s", models.EnvDir)
	}
	src := *source
	if src == "" {
		src = os.Getenv(envMaiaSource)
	}
	if src == "" {
		if st, err := os.Stat(defaultMaiaSource); err == nil && st.IsDir() {
			src = defaultMaiaSource
		}
	}
	if !*skipLib {
		fmt.Fprintf(env.Stderr, "installing ONNX Runtime from npm package %s …\n", fetch.NPMPackage)
		path, err := fetch.InstallLibrary(ctx, *dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "library  %s\n", path)
	}
	if !*skipW {
		wdir := filepath.Join(*dir, models.Maia1Subdir)
		levels := models.Maia1Levels[:]
		client := &http.Client{Timeout: 5 * time.Minute}
		if err := fetch.InstallWeights(ctx, wdir, levels, fetch.WeightsOptions{Source: src, Client: client}); err != nil {
			return err
		}
		how := "downloaded from the maia-chess v1.0 release"
		if src != "" {
			how = "copied from " + src
		}
		fmt.Fprintf(env.Stdout, "weights  %s (%d Maia-1 levels, %s)\n", wdir, len(levels), how)
	}
	return nil
}
