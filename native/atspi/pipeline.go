package atspi

import (
	"context"
	"sync"
)

// pipe sends many calls at once, to one or several connections, and
// collects their replies in arrival order. More calls may be added while
// replies come in (follow-up calls); flush sends what was added since the
// last flush.
type pipe struct {
	ctx     context.Context
	sink    *sink
	sent    int
	waiting int
	batches map[*wireConn]*batch
	order   []*wireConn
}

func newPipe(ctx context.Context) *pipe {
	return &pipe{ctx: ctx, sink: newSink(), batches: map[*wireConn]*batch{}}
}

// add queues one call; tag comes back with its reply.
func (p *pipe) add(conn *wireConn, tag int, dest, path, iface, member string, args ...any) {
	b := p.batches[conn]
	if b == nil {
		b = &batch{c: conn, buf: make([]byte, 0, 4096)}
		p.batches[conn] = b
		p.order = append(p.order, conn)
	}
	b.add(p.sink, tag, dest, path, iface, member, args...)
	p.sent++
	p.waiting++
}

// flush writes every queued call, each connection's in one write, the
// connections concurrently (a peer that stopped reading only delays its own
// calls). A failed write closes its connection, which fails that
// connection's calls through the sink.
func (p *pipe) flush() {
	var busy []*batch
	for _, c := range p.order {
		if b := p.batches[c]; len(b.buf) > 0 {
			busy = append(busy, b)
		}
	}
	if len(busy) == 1 {
		_ = busy[0].flush(p.ctx)
		return
	}
	var wg sync.WaitGroup
	for _, b := range busy {
		wg.Add(1)
		go func(b *batch) {
			defer wg.Done()
			_ = b.flush(p.ctx)
		}(b)
	}
	wg.Wait()
}

// next returns the next reply, or the context's error when it ends first.
// ok is false when no call is outstanding.
func (p *pipe) next() (r reply, ok bool, err error) {
	if p.waiting == 0 {
		return reply{}, false, nil
	}
	r, err = p.sink.wait(p.ctx)
	if err != nil {
		return reply{}, false, err
	}
	p.waiting--
	return r, true, nil
}

// ready returns a reply if one is already there, without waiting.
func (p *pipe) ready() (reply, bool) {
	if p.waiting == 0 {
		return reply{}, false
	}
	r, ok := p.sink.take()
	if ok {
		p.waiting--
	}
	return r, ok
}

// close forgets the calls still outstanding; their late replies are
// dropped by the connections.
func (p *pipe) close() {
	for _, b := range p.batches {
		b.forget()
	}
}
