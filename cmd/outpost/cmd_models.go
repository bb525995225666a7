package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/outpostchess/outpost/internal/installer"
	"github.com/outpostchess/outpost/models"
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

// runModelsFetch installs ONNX Runtime and the Maia-1 weights: the same
// steps as `outpost setup` without the engines.
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
	in, err := installer.New(installer.Options{
		Sources: installer.DefaultSources(os.Getenv), ModelsDir: *dir, MaiaSource: src,
		SkipEngines: true, SkipLibrary: *skipLib, SkipWeights: *skipW, Client: setupClient(), Log: env.Stderr,
	})
	if err != nil {
		return err
	}
	if err := in.Run(ctx); err != nil {
		return fmt.Errorf("outpost models fetch: %w", err)
	}
	if !*skipW {
		fmt.Fprintf(env.Stdout, "weights  %s\n", filepath.Join(*dir, models.Maia1Subdir))
	}
	return nil
}
