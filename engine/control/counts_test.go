package control

// Dropped counts the lines the host never got: queue full, pipe closed or
// a failed write. The tests read it; the driver never asks.
func (p *Pipe) Dropped() uint64 { return p.out.q.Dropped() }
