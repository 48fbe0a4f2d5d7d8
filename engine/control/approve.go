package control

import (
	"context"
	"maps"
	"strconv"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// Approve sends an approval.request and waits for the host's
// approval.answer with the same id. A denial, no answer within
// Options.ApprovalTimeout, ctx's end, or the pipe closing (either way) is an
// *engine.Error with code approval_denied.
func (p *Pipe) Approve(ctx context.Context, req engine.ApprovalRequest) error {
	if ctx.Err() != nil {
		return denied("the call ended before the host was asked")
	}
	id, answer, ok := p.register()
	if !ok {
		return denied("the control pipe is closed")
	}
	defer p.unregister(id)
	line := approvalRequest{Event: EventApprovalRequest, ID: id, Session: req.Session, Tool: req.Tool,
		Description: req.Description, Observe: req.Observe}
	if !p.out.send(line) {
		return denied("the host is not reading the control pipe")
	}
	timer := time.NewTimer(p.opts.ApprovalTimeout)
	defer timer.Stop()
	select {
	case allow := <-answer:
		if allow {
			return nil
		}
		return denied("the host declined the call")
	case <-timer.C:
		return denied("the host did not answer within %v", p.opts.ApprovalTimeout)
	case <-ctx.Done():
		return denied("the call ended before the host answered")
	case <-p.inputDone:
		return denied("the control pipe closed before the host answered")
	}
}

func denied(format string, args ...any) *engine.Error {
	return engine.Errf(engine.CodeApprovalDenied, format, args...)
}

// register makes a new approval id with a channel for its answer. It fails
// once the input has ended: no answer could come.
func (p *Pipe) register() (string, chan bool, bool) {
	select {
	case <-p.inputDone:
		return "", nil, false
	default:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	id := "a" + strconv.FormatUint(p.nextID, 10)
	ch := make(chan bool, 1)
	p.pending[id] = ch
	return id, ch, true
}

func (p *Pipe) unregister(id string) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

// answer delivers the host's answer to a waiting approval and reports
// whether one was waiting. Each approval takes one answer.
func (p *Pipe) answer(id string, allow bool) bool {
	p.mu.Lock()
	ch, ok := p.pending[id]
	delete(p.pending, id)
	p.mu.Unlock()
	if ok {
		ch <- allow // buffered, and only the first answer gets here
	}
	return ok
}

// Policy returns the host's current approval policy (a copy). Until the host
// sends approval.policy, reads need approval and no tool is pre-approved.
func (p *Pipe) Policy() engine.ApprovalPolicy {
	p.mu.Lock()
	defer p.mu.Unlock()
	return engine.ApprovalPolicy{ApproveReads: p.policy.ApproveReads, PreApproved: maps.Clone(p.policy.PreApproved)}
}
