package cluster

import (
	"crypto/rand"
	"encoding/hex"
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

// gaveUpSubject is where JetStream announces a chunk of the workers'
// consumer that reached its MaxDeliver deliveries: it stays in the work
// stream and is never delivered again (JetStream's max-deliveries
// advisory, whose stream_seq names the chunk's message).
const gaveUpSubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + WorkStream + "." + WorkConsumer

// ResultsMaxAge is how long results (and job entries and waiting chunks)
// stay: a job lives as long as its submitter waits for it (a submitter
// that restarts submits a new job), and a job's results are read as they
// come, or again from the job's start when the submitter's consumer was on
// a lost node; a day covers a job queued behind a long compare run.
const ResultsMaxAge = 24 * time.Hour

// dedupWindow is JetStream's duplicate window for both streams: a chunk or
// result published twice with the same id within it is stored once.
const dedupWindow = 10 * time.Minute

// resultMsg is one chunk's result on the results stream: the outcomes, or
// the error that made the worker give the chunk up. Nothing in it is
// trusted: the submitter takes it only with the chunk's nonce, and checks
// every outcome against its position (verify.go).
type resultMsg struct {
	Job   string `json:"job"`
	Index int    `json:"index"`
	// Worker is the worker's free-text id (--name): shown, never trusted;
	// the identity that published the result is its subject's last token.
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

// jobIDLen and nonceLen are the lengths in hex digits of a job id (96
// random bits, one per submission) and of a chunk's nonce (128 random
// bits from crypto/rand, one per publication of a chunk: only the workers
// the chunk was delivered to know it, so a result carrying it comes from
// one of them).
const (
	jobIDLen = 24
	nonceLen = 32
)

// refusedJob stands for the job in the subject where a worker answers a
// refused chunk whose subject names no chunk
// (outpost.results.refused.SEQ.IDENTITY, SEQ its work stream sequence):
// an answer must not land on a real job's results.
const refusedJob = "refused"

// openIdentity is the identity token of a result published by a
// connection without an nkey identity (a server without credentials,
// where everyone may publish anything).
const openIdentity = "open"

// randomHex returns n hex digits from crypto/rand.
func randomHex(n int) (string, error) {
	b := make([]byte, n/2)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("cluster: random id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func workSubject(job string, index int) string {
	return workPrefix + job + "." + strconv.Itoa(index)
}

// resultSubject is where identity publishes the result of chunk index of
// job: outpost.results.JOB.INDEX.IDENTITY. The server lets a worker
// identity publish only subjects ending in its own public nkey
// (rolePermissions), so the last token says who published the result.
func resultSubject(job string, index int, identity string) string {
	return resultsPrefix + job + "." + strconv.Itoa(index) + "." + identity
}

// parseResultSubject splits outpost.results.JOB.INDEX.IDENTITY.
func parseResultSubject(subject string) (job string, index int, identity string, err error) {
	i := strings.LastIndexByte(subject, '.')
	if i < 0 || i == len(subject)-1 {
		return "", 0, "", fmt.Errorf("cluster: subject %q: want %sJOB.INDEX.IDENTITY", clip(subject), resultsPrefix)
	}
	job, index, err = parseSubject(resultsPrefix, subject[:i])
	return job, index, subject[i+1:], err
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
