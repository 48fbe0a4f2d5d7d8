package atspi

import (
	"context"
	"iter"
	"sync"
)

// callKind says what one pipelined call asks, so that its reply reaches
// the code that reads that answer.
type callKind uint8

const (
	// An element's structure and identity.
	kindChildren   callKind = iota // Accessible.GetChildren
	kindRole                       // Accessible.GetRole
	kindState                      // Accessible.GetState
	kindIfaces                     // Accessible.GetInterfaces
	kindAttrs                      // Accessible.GetAttributes (the secure-field check)
	kindName                       // the Name property
	kindDesc                       // the Description property
	kindChildCount                 // the ChildCount property
	// An element's details.
	kindExtents    // Component.GetExtents
	kindActions    // Action.GetActions (localized names)
	kindActionName // Action.GetName of action number sub
	kindValue      // Value's CurrentValue
	kindValueMin   // Value's MinimumValue
	kindValueMax   // Value's MaximumValue
	kindValueStep  // Value's MinimumIncrement
	kindTextLength // Text's CharacterCount
	kindText       // Text.GetText
	kindCaret      // Text's CaretOffset
	// A table's visible block (tables.go).
	kindTableRows    // Table's NRows
	kindTableColumns // Table's NColumns
	kindCell         // Table.GetAccessibleAt, or the cell at a corner
	// Apps and the bus.
	kindPid      // the bus daemon's GetConnectionUnixProcessID
	kindToolkit  // Application's ToolkitName
	kindVersion  // Application's Version
	kindMatch    // the bus daemon's AddMatch
	kindRegister // Registry.RegisterEvent
)

// isProperty reports whether a kind reads one optional property: its
// failure (a getter that failed) leaves the property unknown rather than
// failing the read.
func (k callKind) isProperty() bool {
	return k == kindName || k == kindDesc || k == kindChildCount
}

// call is what one pipelined call is about: the position of its target in
// the caller's own list, what it asks, and for kindActionName the action's
// index.
type call struct {
	target int
	kind   callKind
	sub    int
}

// answer is a reply with the call it answers.
type answer struct {
	call
	reply
}

// pipe sends many calls at once, to one or several connections, and
// collects their replies in arrival order, each with the call it answers.
// More calls may be added while replies come in (follow-up calls); flush
// sends what was added since the last flush.
type pipe struct {
	ctx     context.Context
	sink    *sink
	sent    int
	waiting int
	batches map[*wireConn]*batch
	order   []*wireConn
	// calls holds what each call asks; a reply's wire tag is its index.
	calls []call
}

func newPipe(ctx context.Context) *pipe {
	return &pipe{ctx: ctx, sink: newSink(), batches: map[*wireConn]*batch{}}
}

// add queues one call; c comes back with its reply. Interface and member
// are literals or constants at every call site, so that the check of the
// sources against the list of allowed calls sees them (appcalls_test.go);
// the batch checks the call itself before encoding it.
func (p *pipe) add(conn *wireConn, c call, dest, path, iface, member string, args ...any) {
	b := p.batches[conn]
	if b == nil {
		b = &batch{c: conn, buf: make([]byte, 0, 4096)}
		p.batches[conn] = b
		p.order = append(p.order, conn)
	}
	p.calls = append(p.calls, c)
	b.add(p.sink, len(p.calls)-1, dest, path, iface, member, args...)
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

// next returns the next answer, or the context's error when it ends first.
// ok is false when no call is outstanding.
func (p *pipe) next() (a answer, ok bool, err error) {
	if p.waiting == 0 {
		return answer{}, false, nil
	}
	r, err := p.sink.wait(p.ctx)
	if err != nil {
		return answer{}, false, err
	}
	p.waiting--
	return answer{call: p.calls[r.tag], reply: r}, true, nil
}

// answers yields the answers as they come, until no call is outstanding.
// When the context ends first it yields the context's error, once, and
// stops.
func (p *pipe) answers() iter.Seq2[answer, error] {
	return func(yield func(answer, error) bool) {
		for {
			a, ok, err := p.next()
			if err != nil {
				yield(answer{}, err)
				return
			}
			if !ok || !yield(a, nil) {
				return
			}
		}
	}
}

// ready returns an answer if one is already there, without waiting.
func (p *pipe) ready() (answer, bool) {
	if p.waiting == 0 {
		return answer{}, false
	}
	r, ok := p.sink.take()
	if !ok {
		return answer{}, false
	}
	answered(p.ctx)
	p.waiting--
	return answer{call: p.calls[r.tag], reply: r}, true
}

// close forgets the calls still outstanding; their late replies are
// dropped by the connections.
func (p *pipe) close() {
	for _, b := range p.batches {
		b.forget()
	}
}
