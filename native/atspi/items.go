package atspi

import "errors"

// The cache reply of org.a11y.atspi.Cache.GetItems. Current at-spi2-atk
// and GTK 4 send a((so)(so)(so)iiassusau): object, application, parent,
// index in parent, child count, interfaces, name, role, description,
// states. Older bridges (and Qt) send a((so)(so)(so)a(so)assusau), with
// the children's references in place of index and count. Both are read.
const (
	itemsSig    = "a((so)(so)(so)iiassusau)"
	itemsOldSig = "a((so)(so)(so)a(so)assusau)"
)

var errItemsSig = errors.New("atspi: unknown cache reply signature")

// decodeItems reads a cache reply into elements.
func decodeItems(r *reply) ([]*elem, error) {
	old := false
	switch r.sig {
	case itemsSig:
	case itemsOldSig:
		old = true
	default:
		return nil, errItemsSig
	}
	d := r.decoder()
	end := d.array(8)
	out := make([]*elem, 0, (end-d.pos)/160+1)
	for d.more(end) {
		d.align(8)
		e := &elem{hasProps: true}
		e.bus, e.path = d.ref()
		e.ident = e.bus + e.path
		d.ref() // the application
		e.parentBus, e.parentPath = d.ref()
		if old {
			// Children references: keep only their number; their order
			// is read again if the cached children do not add up.
			var n int32
			ce := d.array(8)
			for d.more(ce) {
				d.ref()
				n++
			}
			e.index, e.childCount = -1, n
		} else {
			e.index = d.int32()
			e.childCount = d.int32()
		}
		e.ifaces = decodeIfaces(d)
		e.name = d.str()
		e.role = d.uint32()
		e.desc = d.str()
		e.states = decodeStates(d)
		if d.err != nil {
			return nil, d.err
		}
		out = append(out, e)
	}
	return out, d.err
}
