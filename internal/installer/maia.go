package installer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/outpostchess/outpost/models"
)

// MaiaWeights installs the nine Maia-1 weight files into the models
// directory's maia1/: kept when already there, copied from
// Options.MaiaSource when that folder has them, else downloaded from the
// maia-chess release. Each is checked against its pinned SHA-256
// (models.Maia1WeightsSHA256).
func (in *Installer) MaiaWeights(ctx context.Context) error {
	dir := filepath.Join(in.opts.ModelsDir, models.Maia1Subdir)
	var kept, copied, downloaded int
	for _, lvl := range models.Maia1Levels {
		want, ok := models.Maia1WeightsSHA256(lvl)
		if !ok {
			return fmt.Errorf("Maia-1 weights: level %d has no pinned SHA-256", lvl)
		}
		name := fmt.Sprintf("maia-%d.pb.gz", lvl)
		dst := filepath.Join(dir, name)
		if sum, err := FileSHA256(dst); err == nil && sum == want {
			kept++
			continue
		}
		if in.opts.MaiaSource != "" {
			if f, err := os.Open(filepath.Join(in.opts.MaiaSource, name)); err == nil {
				err = writeChecked(f, dst, want, 0o644)
				f.Close()
				if err == nil {
					copied++
					continue
				}
				in.logf("Maia-1 weights: %s in %s: %v; downloading it", name, in.opts.MaiaSource, err)
			}
		}
		if err := in.fetch.Fetch(ctx, Download{URL: in.opts.Sources.MaiaURL(lvl), Dst: dst, SHA256: want}); err != nil {
			return fmt.Errorf("Maia-1 weights: %w (or copy the maia-*.pb.gz files into a folder and pass --maia-source)", err)
		}
		downloaded++
	}
	in.logf("Maia-1 weights in %s: %d already there (SHA-256 checked), %d copied from %q, %d downloaded",
		dir, kept, copied, in.opts.MaiaSource, downloaded)
	return nil
}
