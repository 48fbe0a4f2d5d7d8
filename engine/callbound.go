package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// A backend call is bounded by the app's silence, not by its length
// (docs/decisions.md#the-call-bound-enginecallboundgo). app_not_responding
// says the app did not answer within the bound: a read of LibreOffice
// Calc's window is some 9,000 pipelined accessibility calls, which Calc
// answers one after another in 0.4 s on an idle machine and in over 2 s on
// a loaded one (two desktops and a compiler on two cores), every answer on
// time. Bounding the whole read by 2 s called that app unresponsive, and so
// did the read a model sends next to see the window's state.
//
// So a call's context ends when the app has given no answer for
// CallTimeout, and, however steadily it answers, after answeringMax
// times that (a hang guard for an app that answers too slowly to finish).
// A backend that makes many calls to an app within one backend call
// reports each answer with Answered; one that does not is bounded by
// CallTimeout as a whole, as before.

// answeringMax is how many CallTimeouts a call whose app keeps answering
// may last.
const answeringMax = 10

// errNoAnswer ends a call whose app gave no answer for CallTimeout.
var errNoAnswer = errors.New("the app gave no answer within the call bound")

// answerWatchKey finds a call's answerWatch in its context.
type answerWatchKey struct{}

// answerWatch ends a call when its app has been silent for quiet.
type answerWatch struct {
	quiet  time.Duration
	start  time.Time       // the call's start (monotonic)
	last   atomic.Int64    // the last answer, as time since start
	done   <-chan struct{} // the call's end
	cancel context.CancelCauseFunc
	timer  *time.Timer
}

// callBound returns the context one backend call runs under (see above)
// and the function that lets go of it.
func (d *Driver) callBound(ctx context.Context) (context.Context, context.CancelFunc) {
	quiet := d.opts.CallTimeout
	hctx, hcancel := context.WithTimeout(ctx, answeringMax*quiet)
	cctx, cancel := context.WithCancelCause(hctx)
	w := &answerWatch{quiet: quiet, start: time.Now(), done: cctx.Done(), cancel: cancel}
	w.timer = time.AfterFunc(quiet, w.check)
	return context.WithValue(cctx, answerWatchKey{}, w), func() {
		w.timer.Stop()
		cancel(nil)
		hcancel()
	}
}

// check runs when the app may have been silent for quiet: it ends the
// call if so, else looks again when it would be.
func (w *answerWatch) check() {
	select {
	case <-w.done:
		return
	default:
	}
	silent := time.Since(w.start) - time.Duration(w.last.Load())
	if silent >= w.quiet {
		w.cancel(errNoAnswer)
		return
	}
	w.timer.Reset(w.quiet - silent)
}

// Answered tells the call running under ctx that its app has just
// answered one of the backend's calls; outside a call it does nothing.
// It is cheap enough to call for every reply.
func Answered(ctx context.Context) {
	if w, ok := ctx.Value(answerWatchKey{}).(*answerWatch); ok {
		w.last.Store(int64(time.Since(w.start)))
	}
}
