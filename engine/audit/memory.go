package audit

import "sync"

// Memory is a Sink that keeps records in memory, for tests. It keeps each
// record as given (TimeMs is not filled in). Safe for concurrent use; the
// zero value is ready.
type Memory struct {
	mu   sync.Mutex
	recs []Record
}

// Record keeps r.
func (m *Memory) Record(r Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, r)
}

// Records returns a copy of the records so far, oldest first.
func (m *Memory) Records() []Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Record(nil), m.recs...)
}

// Events returns the Event of every record so far, oldest first.
func (m *Memory) Events() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.recs))
	for i, r := range m.recs {
		out[i] = r.Event
	}
	return out
}

var (
	_ Sink = (*Log)(nil)
	_ Sink = (*Memory)(nil)
)
