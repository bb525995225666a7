package comparerun

import (
	"context"
	"encoding/json"
	"fmt"
)

// LastReport returns the newest finished run of key (a username, or a
// FileSource's Key) from the store, with the trend of up to trendRuns runs,
// without running anything: how the results of scheduled runs are read.
// It returns an error wrapping ErrNoRun when key has no finished
// run.
func LastReport(ctx context.Context, st RunStore, key string, trendRuns int) (*RunReport, error) {
	if trendRuns <= 0 {
		trendRuns = DefaultTrendRuns
	}
	runs, err := st.Runs(ctx, key, 4*trendRuns+10)
	if err != nil {
		return nil, err
	}
	for i, run := range runs {
		if run.State != RunFinished {
			continue
		}
		var rep RunReport
		if err := json.Unmarshal([]byte(run.Report), &rep); err != nil {
			return nil, fmt.Errorf("comparerun: stored report of run %d: %w", run.ID, err)
		}
		rep.Trend = trendRows(runs[i:])
		if len(rep.Trend) > trendRuns {
			rep.Trend = rep.Trend[:trendRuns]
		}
		return &rep, nil
	}
	return nil, fmt.Errorf("comparerun: %w for %s", ErrNoRun, key)
}
