package models

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned for requests made to a closed Predictor.
var ErrClosed = errors.New("models: predictor closed")

// port is one session input or output: its name, element type and the shape
// of one position's slice (the batch dimension is prepended).
type port struct {
	name  string
	int64 bool
	shape []int64
}

// size returns the element count per position.
func (p port) size() int {
	n := 1
	for _, d := range p.shape {
		n *= int(d)
	}
	return n
}

// job is a group of up to maxBatch positions submitted together. Inputs are
// filled by the caller: in[k] holds n*size floats (or ints for int64 ports).
// The batcher writes outputs into out[k] (n*size floats) and then sends the
// result on done (buffered, so an abandoned job never blocks the batcher).
type job struct {
	n    int
	inF  [][]float32
	inI  [][]int64
	out  [][]float32
	done chan error
}

// batcher coalesces concurrent jobs into batches of at most maxBatch
// positions, waiting at most maxWait for a batch to fill, and runs each batch
// on one of its session replicas (workers). A batch is only formed when a
// worker is idle, so jobs arriving while every worker is busy join the next
// batch.
type batcher struct {
	ins      []port
	outs     []port
	maxBatch int
	maxWait  time.Duration
	workers  []*worker

	jobs chan *job     // unbuffered: a received job is always answered
	idle chan *worker  // workers ready for a batch
	quit chan struct{} // closed by close
	wg   sync.WaitGroup
	stop sync.Once

	batches, positions atomic.Int64 // counters for Stats
}

// evaluator runs one batch on one replica of a model: inF and inI hold
// count positions of each input port (float or int64), out receives count
// positions of each output port. An ONNX Runtime session is one, the
// pure-Go Maia-1 forward pass another.
type evaluator interface {
	eval(ins, outs []port, inF [][]float32, inI [][]int64, out [][]float32, count int) error
	close() error
}

// worker is one model replica with its reusable batch buffers.
type worker struct {
	sess  evaluator
	batch chan []*job // batches handed over by the loop
	bufF  [][]float32
	bufI  [][]int64
	outB  [][]float32
}

func newBatcher(sessions []evaluator, ins, outs []port, maxBatch int, maxWait time.Duration) *batcher {
	b := &batcher{ins: ins, outs: outs, maxBatch: maxBatch, maxWait: maxWait,
		jobs: make(chan *job), idle: make(chan *worker, len(sessions)), quit: make(chan struct{})}
	for _, sess := range sessions {
		w := &worker{sess: sess, batch: make(chan []*job)}
		w.bufF = make([][]float32, len(ins))
		w.bufI = make([][]int64, len(ins))
		for k, p := range ins {
			if p.int64 {
				w.bufI[k] = make([]int64, maxBatch*p.size())
			} else {
				w.bufF[k] = make([]float32, maxBatch*p.size())
			}
		}
		w.outB = make([][]float32, len(outs))
		for k, p := range outs {
			w.outB[k] = make([]float32, maxBatch*p.size())
		}
		b.workers = append(b.workers, w)
		b.idle <- w
		b.wg.Add(1)
		go b.work(w)
	}
	b.wg.Add(1)
	go b.loop()
	return b
}

// newJob allocates a job for n positions (n <= maxBatch).
func (b *batcher) newJob(n int) *job {
	j := &job{n: n, inF: make([][]float32, len(b.ins)), inI: make([][]int64, len(b.ins)),
		out: make([][]float32, len(b.outs)), done: make(chan error, 1)}
	for k, p := range b.ins {
		if p.int64 {
			j.inI[k] = make([]int64, n*p.size())
		} else {
			j.inF[k] = make([]float32, n*p.size())
		}
	}
	for k, p := range b.outs {
		j.out[k] = make([]float32, n*p.size())
	}
	return j
}

// submit hands a job to the batching goroutine.
func (b *batcher) submit(ctx context.Context, j *job) error {
	select {
	case b.jobs <- j:
		return nil
	case <-b.quit:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wait waits for a submitted job's result.
func (b *batcher) wait(ctx context.Context, j *job) error {
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close stops the goroutines and releases the sessions.
func (b *batcher) close() error {
	var err error
	b.stop.Do(func() {
		close(b.quit)
		b.wg.Wait()
		for _, w := range b.workers {
			if e := w.sess.close(); e != nil && err == nil {
				err = e
			}
		}
	})
	return err
}

// work runs the batches handed to w until the loop stops.
func (b *batcher) work(w *worker) {
	defer b.wg.Done()
	for batch := range w.batch {
		count := 0
		for _, j := range batch {
			count += j.n
		}
		err := b.run(w, batch, count)
		b.batches.Add(1)
		b.positions.Add(int64(count))
		for _, j := range batch {
			j.done <- err
		}
		b.idle <- w
	}
}

func (b *batcher) loop() {
	defer b.wg.Done()
	defer func() {
		for _, w := range b.workers {
			close(w.batch)
		}
	}()
	var pending *job
	for {
		var w *worker
		select {
		case w = <-b.idle:
		case <-b.quit:
			if pending != nil {
				pending.done <- ErrClosed
			}
			return
		}
		var first *job
		if pending != nil {
			first, pending = pending, nil
		} else {
			select {
			case first = <-b.jobs:
			case <-b.quit:
				return
			}
		}
		batch := []*job{first}
		count := first.n
		// add puts j in the batch, or keeps it for the next batch when it
		// would overflow this one (false: the batch is full).
		add := func(j *job) bool {
			if count+j.n > b.maxBatch {
				pending = j
				return false
			}
			batch, count = append(batch, j), count+j.n
			return true
		}
		var timer *time.Timer
	collect:
		for count < b.maxBatch {
			// Take whatever is already waiting; then wait up to maxWait.
			select {
			case j := <-b.jobs:
				if !add(j) {
					break collect
				}
				continue
			default:
			}
			if b.maxWait <= 0 {
				break
			}
			if timer == nil {
				timer = time.NewTimer(b.maxWait)
			}
			select {
			case j := <-b.jobs:
				if !add(j) {
					break collect
				}
			case <-timer.C:
				break collect
			case <-b.quit:
				break collect
			}
		}
		if timer != nil {
			timer.Stop()
		}
		w.batch <- batch
	}
}

// run executes one batch of count positions: it gathers the jobs' inputs
// into the worker's buffers, evaluates them and scatters the outputs.
func (b *batcher) run(w *worker, batch []*job, count int) error {
	for k, p := range b.ins {
		sz, off := p.size(), 0
		for _, j := range batch {
			if p.int64 {
				off += copy(w.bufI[k][off:], j.inI[k][:j.n*sz])
			} else {
				off += copy(w.bufF[k][off:], j.inF[k][:j.n*sz])
			}
		}
	}
	if err := w.sess.eval(b.ins, b.outs, w.bufF, w.bufI, w.outB, count); err != nil {
		return err
	}
	for k, p := range b.outs {
		sz, off := p.size(), 0
		for _, j := range batch {
			off += copy(j.out[k], w.outB[k][off:off+j.n*sz])
		}
	}
	return nil
}
