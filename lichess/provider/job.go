package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// handle runs one job: it checks the work, streams the slot's lines to the
// broker, and stops the search when the broker closes the upload (the
// requester went away).
func (p *Provider) handle(ctx context.Context, slot Engine, job *lichess.EngineJob) JobRecord {
	w := job.Work
	rec := JobRecord{Time: time.Now().UTC(), Engine: slot.Registration().Name, ID: job.ID, Session: w.SessionID,
		Moves: len(w.Moves), MultiPV: w.MultiPV, Limit: limitOf(w)}
	start := time.Now()
	log := p.o.Logger.With().Str("engine", rec.Engine).Str("job", job.ID).Logger()
	if _, err := CheckWork(w, slot.Registration()); err != nil {
		rec.Outcome = "refused: " + err.Error()
		log.Error().Err(err).Msg("provider: job refused")
		// An empty upload ends the job at the broker (no bestmove).
		if serr := p.o.Broker.Submit(ctx, job.ID, io.NopCloser(strings.NewReader(""))); serr != nil {
			log.Debug().Err(serr).Msg("provider: ending a refused job")
		}
		rec.Took = time.Since(start)
		return rec
	}
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	submitted := make(chan error, 1)
	go func() {
		err := p.o.Broker.Submit(jctx, job.ID, pr)
		// The broker answered or closed the upload: nobody reads the
		// lines any more, so the search stops and writes fail at once.
		pr.CloseWithError(errUploadClosed)
		cancel()
		submitted <- err
	}()
	err := slot.Analyse(jctx, w, func(line string) error {
		if _, err := io.WriteString(pw, line+"\n"); err != nil {
			return errUploadClosed
		}
		rec.Lines++
		return nil
	})
	pw.Close()
	serr := <-submitted
	rec.Took = time.Since(start)
	switch {
	case ctx.Err() != nil:
		rec.Outcome = "stopped: provider shutting down"
	case errors.Is(err, errUploadClosed) || (err != nil && jctx.Err() != nil):
		// The broker closes the upload when the requester goes away.
		rec.Outcome = "upload closed"
		log.Debug().AnErr("upload", serr).Msg("provider: the broker closed the upload (requester left)")
	case err != nil:
		rec.Outcome = "failed: " + err.Error()
		log.Warn().Err(err).Msg("provider: job failed")
	case serr != nil:
		rec.Outcome = "failed: " + serr.Error()
		log.Warn().Err(serr).Msg("provider: upload failed")
	default:
		rec.Outcome = "done"
	}
	log.Debug().Str("outcome", rec.Outcome).Int("lines", rec.Lines).Dur("took", rec.Took).Msg("provider: job")
	return rec
}

// errUploadClosed is what a line written after the broker closed the
// upload gets.
var errUploadClosed = errors.New("provider: the broker closed the upload")

// limitOf names a work's limit ("depth 20", "movetime 3000 ms").
func limitOf(w lichess.EngineWork) string {
	switch {
	case w.Depth > 0:
		return fmt.Sprintf("depth %d", w.Depth)
	case w.Nodes > 0:
		return fmt.Sprintf("nodes %d", w.Nodes)
	default:
		return fmt.Sprintf("movetime %d ms", w.MoveTime)
	}
}

// record keeps a job in the status and its log, and calls OnJob.
func (p *Provider) record(rec JobRecord) {
	p.mu.Lock()
	p.status.Jobs = append([]JobRecord{rec}, p.status.Jobs...)
	if len(p.status.Jobs) > maxJobRecords {
		p.status.Jobs = p.status.Jobs[:maxJobRecords]
	}
	p.mu.Unlock()
	p.writeLog()
	if p.o.OnJob != nil {
		p.o.OnJob(rec)
	}
}

// Status returns the registrations and recent jobs.
func (p *Provider) Status() Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Status{Engines: append([]lichess.ExternalEngine(nil), p.status.Engines...), Jobs: append([]JobRecord(nil), p.status.Jobs...)}
}

// writeLog rewrites the JobLog file (atomically; client secrets left out:
// the console shows registrations, not their credentials).
func (p *Provider) writeLog() {
	if p.o.JobLog == "" {
		return
	}
	st := p.Status()
	for i := range st.Engines {
		st.Engines[i].ClientSecret = ""
	}
	if err := writeJSONFile(p.o.JobLog, st); err != nil {
		p.o.Logger.Warn().Err(err).Str("file", p.o.JobLog).Msg("provider: writing the job log")
	}
}

func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".provider-jobs-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ReadStatus reads a JobLog file (the console's Engines page).
func ReadStatus(path string) (*Status, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("provider: no job log at %s (is outpost provider running with this configuration?)", path)
		}
		return nil, fmt.Errorf("provider: job log: %w", err)
	}
	var st Status
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("provider: job log %s: %w", path, err)
	}
	return &st, nil
}
