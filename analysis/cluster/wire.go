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
	// Refused is the subject of a chunk the worker refused (it was
	// malformed or forged, or named an engine the worker does not have).
	Refused string `json:"refused,omitempty"`
}

// jobInfo is a job's entry in the jobs bucket.
type jobInfo struct {
	ID        string    `json:"id"`
	Chunks    int       `json:"chunks"`
	Positions int       `json:"positions"`
	Engine    string    `json:"engine"`
	Created   time.Time `json:"created"`
}

// jobIDLen and nonceLen are the lengths in hex digits of a job id and of
// a publication nonce.
const (
	jobIDLen = 24
	nonceLen = 16
)

// refusedPrefix is where a worker answers a refused chunk whose subject
// names no chunk (outpost.results.refused.SEQ, SEQ its work stream
// sequence): an answer must not land on a real job's results.
const refusedPrefix = resultsPrefix + "refused."

// JobID is the id of a job: a hash of the engine settings and the chunks,
// so the same work submitted again (a restarted submitter) has the same id
// and finds its results.
func JobID(eng EngineSettings, chunks []analysis.Chunk) (string, error) {
	b, err := json.Marshal(struct {
		Engine EngineSettings
		Chunks []analysis.Chunk
	}{eng, chunks})
	if err != nil {
		return "", fmt.Errorf("cluster: job id: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:jobIDLen/2]), nil
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

// parseSubject splits prefix+JOB.INDEX; INDEX is written as workSubject
// and resultSubject write it (no sign, no leading zero).
func parseSubject(prefix, subject string) (job string, index int, err error) {
	rest, ok := strings.CutPrefix(subject, prefix)
	if !ok {
		return "", 0, fmt.Errorf("cluster: subject %q: want prefix %q", clip(subject), prefix)
	}
	job, idx, ok := strings.Cut(rest, ".")
	if !ok || job == "" {
		return "", 0, fmt.Errorf("cluster: subject %q: want %sJOB.INDEX", clip(subject), prefix)
	}
	index, err = strconv.Atoi(idx)
	if err != nil || index < 0 || strconv.Itoa(index) != idx {
		return "", 0, fmt.Errorf("cluster: subject %q: bad chunk index %q", clip(subject), clip(idx))
	}
	return job, index, nil
}
