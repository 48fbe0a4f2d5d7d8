package audit

// What the tests read of a log, which the driver never asks.

// Path is the file the log writes to.
func (l *Log) Path() string {
	if l == nil {
		return ""
	}
	return l.path
}

// Dropped counts the records lost: queue full, log closed, or a failed
// encode or write.
func (l *Log) Dropped() uint64 {
	if l == nil {
		return 0
	}
	return l.q.Dropped() + l.failed.Load()
}
