package engine

import "context"

// When a session ends, its calls end (docs/contract.md#sessions): end_session,
// the kill switch, the host's session.revoke, the daemon's kill, a closed
// connection and a lease that runs out each cancel every call of the
// session at once, whatever it is doing: a wait, a read, an act, its
// settle, a drill-down, a takeover's typing. A cancelled call answers what
// a new call would be told (no_session, session_revoked or
// consent_expired), never ok and never app content, even when the backend
// had already answered.
//
// Each session holds two contexts: life, which ends with the session, and
// granted, a child of life, which also ends when the lease runs out (a new
// grant after that gets a new one). Conn.Call runs every read and act of a
// session under its grant; start_session runs its dialog under life.

// endedErrorLocked is the error a call of an ended session gets: the one
// answer sessionFor and every cancelled call give. s.mu held.
func (s *Session) endedErrorLocked() *Error {
	if s.endedCode == CodeSessionRevoked {
		return Errf(CodeSessionRevoked, "session %s was revoked", s.id)
	}
	return Errf(CodeNoSession, "the session ended; call start_session first")
}

// leaseEnded is the error of every call once the lease has run out.
func leaseEnded(id string) *Error {
	return Errf(CodeConsentExpired, "the lease of session %s ended", id)
}

// leaseRanOut ends the grant whose lease has run out (the clock's timer
// set at the grant): its calls end and a takeover ends with it. A grant
// renewed meanwhile is left alone.
func (s *Session) leaseRanOut() {
	s.mu.Lock()
	if s.ended || s.leaseEnd.IsZero() || s.d.clock.Now().Before(s.leaseEnd) {
		s.mu.Unlock()
		return
	}
	s.endGrant(leaseEnded(s.id))
	s.mu.Unlock()
	s.endTakeover("lease_expired")
}

// grantScope is the context the session's calls run under now.
func (s *Session) grantScope() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.granted
}

// lifeScope is the context that ends with the session.
func (s *Session) lifeScope() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.life
}

// bindCall returns a context that ends when ctx or scope does, and the
// function that lets go of it.
func bindCall(ctx, scope context.Context) (context.Context, func()) {
	cctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(scope, func() { cancel(context.Cause(scope)) })
	return cctx, func() {
		stop()
		cancel(nil)
	}
}

// endedDuring is the error a call answers with when scope ended while it
// ran: the cause the session's end gave, as a fresh error.
func endedDuring(scope context.Context) *Error {
	if scope.Err() == nil {
		return nil
	}
	if e, ok := context.Cause(scope).(*Error); ok {
		return Errf(e.Code, "%s", e.Message)
	}
	return Errf(CodeNoSession, "the session ended; call start_session first")
}

// liveSession is the connection's session while it has not ended (with or
// without a grant), or nil.
func (c *Conn) liveSession() *Session {
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return nil
	}
	return s
}
