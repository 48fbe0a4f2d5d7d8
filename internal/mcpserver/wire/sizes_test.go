package wire

// What the tests count of a connection's tables, which the transport
// itself never needs to.

// size is the number of calls in flight: read and neither answered nor
// cancelled.
func (t *idTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending)
}

// size is the number of results held.
func (h *held) size() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.results)
}
