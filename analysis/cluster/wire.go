package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
)

// Stream, consumer and bucket names, and subject prefixes.
const (
	WorkStream    = "OUTPOST_WORK"
	ResultsStream = "OUTPOST_RESULTS"
	WorkConsumer  = "workers"
	WorkersBucket = "outpost_workers"
	JobsBucket    = "outpost_jobs"
	workPrefix    = "outpost.work."
	resultsPrefix = "outpost.results."
)

// ResultsMaxAge is how long results stay in the results stream: long
// enough for a submitter to come back after a crash and find its job's
// results, short enough that the stream does not grow without bound.
const ResultsMaxAge = 7 * 24 * time.Hour

// dedupWindow is JetStream's duplicate window for both streams: a chunk or
// result published twice with the same id within it is stored once.
const dedupWindow = 10 * time.Minute

// chunkMsg is one chunk on the work stream.
type chunkMsg struct {
	Job   string `json:"job"`
	Index int    `json:"index"`
	// Nonce identifies this publication of the chunk: its message ids
	// (chunk and result) carry it, so a chunk published again later (its
	// result was purged or failed) is not dropped as a duplicate.
	Nonce string              `json:"nonce"`
	Spec  analysis.EngineSpec `json:"spec"`
	Chunk analysis.Chunk      `json:"chunk"`
}

// resultMsg is one chunk's result on the results stream: the outcomes, or
// the error that made the worker give the chunk up.
type resultMsg struct {
	Job      string             `json:"job"`
	Index    int                `json:"index"`
	Worker   string             `json:"worker"`
	Nonce    string             `json:"nonce"`
	Engine   string             `json:"engine,omitempty"` // the engine's self-reported name
	Outcomes []analysis.Outcome `json:"outcomes,omitempty"`
	Err      string             `json:"error,omitempty"`
}

// jobInfo is a job's entry in the jobs bucket.
type jobInfo struct {
	ID        string    `json:"id"`
	Chunks    int       `json:"chunks"`
	Positions int       `json:"positions"`
	Engine    string    `json:"engine"`
	Created   time.Time `json:"created"`
}

// JobID is the id of a job: a hash of the engine settings and the chunks,
// so the same work submitted again (a restarted submitter) has the same id
// and finds its results.
func JobID(spec analysis.EngineSpec, chunks []analysis.Chunk) (string, error) {
	b, err := json.Marshal(struct {
		Spec   analysis.EngineSpec
		Chunks []analysis.Chunk
	}{spec, chunks})
	if err != nil {
		return "", fmt.Errorf("cluster: job id: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12]), nil
}

func workSubject(job string, index int) string {
	return workPrefix + job + "." + strconv.Itoa(index)
}

func resultSubject(job string, index int) string {
	return resultsPrefix + job + "." + strconv.Itoa(index)
}

// msgID is the deduplication id of a chunk or result message of one
// publication (nonce) of a chunk.
func msgID(kind, job string, index int, nonce string) string {
	return kind + "-" + job + "-" + strconv.Itoa(index) + "-" + nonce
}

// parseSubject splits prefix+JOB.INDEX.
func parseSubject(prefix, subject string) (job string, index int, err error) {
	rest, ok := strings.CutPrefix(subject, prefix)
	if !ok {
		return "", 0, fmt.Errorf("cluster: subject %q: want prefix %q", subject, prefix)
	}
	job, idx, ok := strings.Cut(rest, ".")
	if !ok || job == "" {
		return "", 0, fmt.Errorf("cluster: subject %q: want %sJOB.INDEX", subject, prefix)
	}
	index, err = strconv.Atoi(idx)
	if err != nil || index < 0 {
		return "", 0, fmt.Errorf("cluster: subject %q: bad chunk index %q", subject, idx)
	}
	return job, index, nil
}
