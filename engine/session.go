package engine

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine/audit"
)

// Session is one MCP connection's grant: the approved apps (as process
// identities, so a reused pid is not approved), the input mode, the lease,
// the consented capabilities, and the takeover state.
type Session struct {
	id string
	d  *Driver

	mu        sync.Mutex
	apps      map[int]approvedApp
	input     InputMode
	leaseEnd  time.Time
	caps      ConsentedCapabilities
	ended     bool
	endedCode Code // session_revoked when the kill switch or the host ended it
	tk        takeover
	epoch     uint64 // bumped by every resume: older tokens are stale

	snaps   *snapshotStore
	typing  typingBuffer // what the driver typed by keys into the focused field (typing.go)
	acting  sync.Mutex   // one act at a time (busy)
	waits   waitSlots    // wait_for calls in flight (busy past MaxWaitsPerSession)
	bucket  *tokenBucket
	capture *tokenBucket

	clipRelease func()

	// life ends when the session ends, grant when the current grant ends
	// (its lease ran out, or the session ended): every call of the session
	// runs under grant, start_session's dialog under life, so an end
	// reaches every call at once (callscope.go). stopLease stops the
	// timer that ends the grant at the lease's end.
	life      context.Context
	endLife   context.CancelCauseFunc
	granted   context.Context
	endGrant  context.CancelCauseFunc
	stopLease func() bool
}

type approvedApp struct {
	identity ProcessIdentity
	name     string
}

// SessionID forms "mcp:<client>:<pid>" with the client name reduced to
// [a-z0-9-] and at most 32 characters. A connection's id is this form with
// a suffix when another live connection holds it (Driver.connIDLocked).
func SessionID(client string, pid int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(client) {
		if b.Len() >= 32 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" {
		name = "unknown"
	}
	return "mcp:" + name + ":" + strconv.Itoa(pid)
}

func (d *Driver) newSession(id string) *Session {
	s := &Session{
		id:      id,
		d:       d,
		apps:    map[int]approvedApp{},
		input:   InputHeadless,
		snaps:   newSnapshotStore(&d.snapSeq),
		bucket:  newTokenBucket(d.clock, actBurst, actRate),
		capture: newTokenBucket(d.clock, captureBurst, captureRate),
	}
	s.life, s.endLife = context.WithCancelCause(context.Background())
	s.granted, s.endGrant = context.WithCancelCause(s.life)
	return s
}

// InputMode is how a session's acts reach the apps; its value is the wire
// string.
type InputMode string

// Input modes on the wire.
const (
	InputHeadless InputMode = "headless" // accessibility calls only
	InputTakeover InputMode = "takeover" // synthetic input too, visibly
)

// sessionFor returns the connection's live session or the error a tool
// needing one must return.
func (c *Conn) sessionFor() (*Session, *Error) {
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	if s == nil {
		return nil, Errf(CodeNoSession, "no session; call start_session first")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return nil, s.endedErrorLocked()
	}
	if s.leaseEnd.IsZero() {
		return nil, Errf(CodeNoSession, "no access was granted yet; call start_session")
	}
	return s, nil
}

// checkLease refuses with consent_expired once the lease ended.
func (s *Session) checkLease() *Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lapsedLocked(s.d.clock.Now()) {
		return leaseEnded(s.id)
	}
	return nil
}

// lapsedLocked says whether the lease has run out at now (s.mu held):
// from then the session reads and acts no more, and its state says it is
// not active.
func (s *Session) lapsedLocked(now time.Time) bool {
	return !s.leaseEnd.IsZero() && !now.Before(s.leaseEnd)
}

// approvedIdentity checks a pid against the approved apps, re-reading the
// process identity so a reused pid is not taken for the approved app.
func (s *Session) approvedIdentity(ctx context.Context, pid int) *Error {
	s.mu.Lock()
	app, ok := s.apps[pid]
	s.mu.Unlock()
	if !ok {
		return Errf(CodeAppNotApproved, "pid %d is not approved in this session", pid)
	}
	id, err := s.d.backend.Process(ctx, pid)
	if err != nil {
		if e := AsError(err); e.Code == CodeWindowGone {
			return Errf(CodeWindowGone, "pid %d exited", pid)
		}
		return AsError(err)
	}
	if id != app.identity {
		return Errf(CodeAppNotApproved, "pid %d now belongs to another process", pid)
	}
	return nil
}

func (s *Session) isApproved(pid int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.apps[pid]
	return ok
}

func (s *Session) state() SessionResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.d.clock.Now()
	res := SessionResult{
		OK:           true,
		Session:      s.id,
		Active:       !s.ended && !s.lapsedLocked(now),
		Input:        s.input,
		Takeover:     s.tk.stateLocked(),
		Apps:         []AppState{},
		Capabilities: s.caps,
	}
	for _, a := range s.sortedAppsLocked() {
		res.Apps = append(res.Apps, AppState{Pid: a.identity.Pid, App: shownName(a.name)})
	}
	if !s.leaseEnd.IsZero() {
		rem := s.leaseEnd.Sub(now)
		if rem < 0 {
			rem = 0
		}
		res.Lease = &LeaseState{ExpiresAtMs: s.leaseEnd.UnixMilli(), RemainingS: int64(rem / time.Second)}
	}
	return res
}

func (s *Session) sortedAppsLocked() []approvedApp {
	out := make([]approvedApp, 0, len(s.apps))
	for _, a := range s.apps {
		out = append(out, a)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].identity.Pid < out[j-1].identity.Pid; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// endSession ends a session: the takeover ends (indicator removed), the
// clipboard is released, and the host and audit log are told.
func (d *Driver) endSession(s *Session, reason string) {
	// Ended first, then the takeover: from the moment the indicator goes,
	// no call sees a live session (calls are refused while it still shows,
	// the safe way round).
	s.mu.Lock()
	already := s.ended
	s.ended = true
	if !already && (reason == "revoked" || reason == "kill_switch") {
		s.endedCode = CodeSessionRevoked
	}
	release := s.clipRelease
	s.clipRelease = nil
	if !already {
		// Every call of the session ends now, answering what a new call
		// would get (callscope.go).
		s.endLife(s.endedErrorLocked())
		if s.stopLease != nil {
			s.stopLease()
		}
	}
	s.mu.Unlock()
	s.endTakeover(reason)
	if already {
		return
	}
	if release != nil {
		release()
	}
	d.audit(audit.Record{Event: "session.ended", Session: s.id, Reason: reason})
	d.emit(HostEvent{Event: "session.ended", Session: s.id, Reason: reason})
}

func (d *Driver) audit(r audit.Record) {
	if d.opts.Audit != nil {
		d.opts.Audit.Record(r)
	}
}

func (d *Driver) emit(ev HostEvent) {
	if h := d.host(); h != nil {
		ev.AtMs = d.MonotonicMs()
		h.Emit(ev)
	}
}

// liveSessions lists sessions that have not ended.
func (d *Driver) liveSessions() []*Session {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*Session
	for c := range d.conns {
		c.mu.Lock()
		s := c.session
		c.mu.Unlock()
		if s == nil {
			continue
		}
		s.mu.Lock()
		ended := s.ended
		s.mu.Unlock()
		if !ended {
			out = append(out, s)
		}
	}
	return out
}

// SessionRevoke ends the named session, or every session when id is empty
// (the host's session.revoke). It is part of HostCommands.
func (d *Driver) SessionRevoke(id string) []string {
	revoked := []string{}
	for _, s := range d.liveSessions() {
		if id == "" || s.id == id {
			d.endSession(s, "revoked")
			revoked = append(revoked, s.id)
		}
	}
	return revoked
}

// KillSwitch ends every takeover and session of this driver process and
// tells the host (the Ctrl+Alt+Shift+Escape grab and the daemon's kill).
func (d *Driver) KillSwitch() []string {
	ended := []string{}
	for _, s := range d.liveSessions() {
		d.endSession(s, "kill_switch")
		ended = append(ended, s.id)
	}
	d.audit(audit.Record{Event: "kill_switch"})
	d.emit(HostEvent{Event: "kill_switch"})
	return ended
}

// SessionIDs lists the live sessions (the daemon's sessions.list).
func (d *Driver) SessionIDs() []string {
	var ids []string
	for _, s := range d.liveSessions() {
		ids = append(ids, s.id)
	}
	return ids
}

// Shutdown ends every session, as when the process exits.
func (d *Driver) Shutdown() {
	for _, s := range d.liveSessions() {
		d.endSession(s, "shutdown")
	}
}
