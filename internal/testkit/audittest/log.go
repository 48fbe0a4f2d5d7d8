// Package audittest is the audit log as tests see it: a sink that keeps
// every record in memory, and the questions the tests ask of it. It is
// apart from package testkit because it imports the engine's audit
// package, which the native layers' tests must not reach.
package audittest

import (
	"github.com/nish-driver/nish-driver/engine/audit"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Log is an audit.Sink that keeps what it is handed, in order.
type Log struct{ testkit.Recorder[audit.Record] }

// Of returns the records of one event ("session.started", "act", ...),
// oldest first.
func (l *Log) Of(event string) []audit.Record {
	var out []audit.Record
	for _, r := range l.All() {
		if r.Event == event {
			out = append(out, r)
		}
	}
	return out
}

// Sessions returns the session of each record of one event, oldest first.
func (l *Log) Sessions(event string) []string {
	var out []string
	for _, r := range l.Of(event) {
		out = append(out, r.Session)
	}
	return out
}
