package control

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/nish-driver/nish-driver/engine"
)

// handle answers one host line. Messages name only fixed words and bounds:
// the host's text is never repeated.
func (p *Pipe) handle(l inputLine) {
	if l.tooLong {
		p.fail("", nil, engine.Errf(engine.CodeInvalidArguments, "control line longer than %d bytes; it was skipped", MaxLine))
		return
	}
	line := bytes.TrimSpace(l.data)
	if len(line) == 0 {
		return // blank lines are allowed between messages
	}
	var req request
	if line[0] != '{' || json.Unmarshal(line, &req) != nil {
		p.fail("", nil, engine.Errf(engine.CodeInvalidArguments, "a control line must be one JSON object"))
		return
	}
	id, ok := echoID(req.ID)
	if !ok {
		p.fail("", nil, engine.Errf(engine.CodeInvalidArguments, "id must be a string of at most %d bytes or a number", maxIDLen))
		return
	}
	params := bytes.TrimSpace(req.Params)
	if len(params) == 0 || string(params) == "null" {
		params = []byte("{}")
	}
	switch req.Method {
	case MethodTakeoverResume:
		p.takeoverResume(id, params)
	case MethodSessionRevoke:
		p.sessionRevoke(id, params)
	case MethodApprovalAnswer:
		p.approvalAnswer(id, params)
	case MethodApprovalPolicy:
		p.approvalPolicy(id, params)
	default:
		p.fail("", id, engine.Errf(engine.CodeUnknownMethod,
			"unknown control method; the methods are %s, %s, %s and %s",
			MethodTakeoverResume, MethodSessionRevoke, MethodApprovalAnswer, MethodApprovalPolicy))
	}
}

// fail sends an error line. method is one of ours or "".
func (p *Pipe) fail(method string, id json.RawMessage, err *engine.Error) {
	p.out.send(errorLine{Event: EventError, Method: method, ID: id, Error: err.Body()})
}

// sessionParam decodes {session?}: absent means every session.
func (p *Pipe) sessionParam(method string, id json.RawMessage, params []byte) (string, bool) {
	var sp sessionParams
	if json.Unmarshal(params, &sp) != nil {
		p.fail(method, id, engine.Errf(engine.CodeInvalidArguments, "params must be an object with an optional string session"))
		return "", false
	}
	if sp.Session == nil {
		return "", true
	}
	if *sp.Session == "" || len(*sp.Session) > maxSessionLen {
		p.fail(method, id, engine.Errf(engine.CodeInvalidArguments, "session must be a session id of 1 to %d bytes", maxSessionLen))
		return "", false
	}
	return *sp.Session, true
}

func (p *Pipe) takeoverResume(id json.RawMessage, params []byte) {
	session, ok := p.sessionParam(MethodTakeoverResume, id, params)
	if !ok {
		return
	}
	resumed := nonNil(p.cmds.TakeoverResume(session))
	p.out.send(resumeAck{Event: EventAck, Method: MethodTakeoverResume, ID: id, Resumed: resumed})
}

func (p *Pipe) sessionRevoke(id json.RawMessage, params []byte) {
	session, ok := p.sessionParam(MethodSessionRevoke, id, params)
	if !ok {
		return
	}
	revoked := nonNil(p.cmds.SessionRevoke(session))
	p.out.send(revokeAck{Event: EventAck, Method: MethodSessionRevoke, ID: id, Revoked: revoked, AtMs: p.cmds.MonotonicMs()})
}

func (p *Pipe) approvalAnswer(id json.RawMessage, params []byte) {
	var ap answerParams
	if json.Unmarshal(params, &ap) != nil || ap.ID == nil || ap.Allow == nil {
		p.fail(MethodApprovalAnswer, id, engine.Errf(engine.CodeInvalidArguments, "params must be {id: string, allow: boolean}"))
		return
	}
	matched := p.answer(*ap.ID, *ap.Allow)
	p.out.send(answerAck{Event: EventAck, Method: MethodApprovalAnswer, ID: id, Matched: matched})
}

// approvalPolicy replaces the policy as a whole, or (on any bad entry)
// leaves it as it was.
func (p *Pipe) approvalPolicy(id json.RawMessage, params []byte) {
	var pp policyParams
	if json.Unmarshal(params, &pp) != nil {
		p.fail(MethodApprovalPolicy, id, engine.Errf(engine.CodeInvalidArguments, "params must be {approve_reads: boolean, pre_approved: [tool names]}"))
		return
	}
	if len(pp.PreApproved) > maxPreApproved {
		p.fail(MethodApprovalPolicy, id, engine.Errf(engine.CodeInvalidArguments, "pre_approved lists more than %d tools", maxPreApproved))
		return
	}
	pol := engine.ApprovalPolicy{ApproveReads: true, PreApproved: map[string]bool{}}
	if pp.ApproveReads != nil {
		pol.ApproveReads = *pp.ApproveReads
	}
	for i, name := range pp.PreApproved {
		spec, ok := engine.LookupTool(name)
		if !ok || spec.Kind != engine.KindAct {
			p.fail(MethodApprovalPolicy, id, engine.Errf(engine.CodeInvalidArguments,
				"pre_approved[%d] is not an act tool; only act tools can be pre-approved", i))
			return
		}
		pol.PreApproved[spec.Name] = true
	}
	p.mu.Lock()
	p.policy = pol
	p.mu.Unlock()
	names := make([]string, 0, len(pol.PreApproved))
	for n := range pol.PreApproved {
		names = append(names, n)
	}
	slices.Sort(names)
	p.out.send(policyAck{Event: EventAck, Method: MethodApprovalPolicy, ID: id, ApproveReads: pol.ApproveReads, PreApproved: names})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
