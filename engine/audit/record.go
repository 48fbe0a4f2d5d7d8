// Package audit writes the driver's audit log: one JSON object a line, at
// $XDG_STATE_HOME/nish-driver/audit.jsonl. A record has only fixed,
// driver-chosen fields; there is no field that could hold a key name, a
// character, a position, clipboard text, a value or any app text.
package audit

// Record is one audit line. Event names it (session.started, session.ended,
// consent.granted, consent.denied, act, takeover.started, takeover.ended,
// takeover.paused, takeover.resumed, kill_switch, clipboard).
type Record struct {
	TimeMs   int64  `json:"time_ms"` // Unix milliseconds, set by the log when zero
	Event    string `json:"event"`
	Session  string `json:"session,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Exe      string `json:"exe,omitempty"` // the app's executable name from /proc (basename only)
	WindowID uint64 `json:"window_id,omitempty"`
	Outcome  string `json:"outcome,omitempty"` // "ok" or an error code
	Path     string `json:"path,omitempty"`
	Effect   string `json:"effect,omitempty"`
	Reason   string `json:"reason,omitempty"` // a driver-chosen word: paused_reason, end reason
	By       string `json:"by,omitempty"`     // indicator or host
	Op       string `json:"op,omitempty"`     // clipboard: read or write
	Length   *int   `json:"length,omitempty"` // clipboard: characters
	Apps     int    `json:"apps,omitempty"`   // consent: how many apps were granted
}

// Sink receives audit records. A nil *Log is a valid Sink that writes nothing.
type Sink interface {
	Record(r Record)
}

var _ Sink = (*Log)(nil)
