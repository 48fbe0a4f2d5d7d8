package atspi

import (
	"encoding/binary"
	"errors"
	"math"
)

// This file is the D-Bus wire format for the few shapes the package sends
// and receives. A general library (godbus) decodes every reply into trees of
// interface values and writes one message per system call; a whole-window
// read sends thousands of small calls and receives one reply of several
// megabytes, so the hot path encodes and decodes by hand instead.

// Message types of the D-Bus header.
const (
	msgCall   byte = 1
	msgReturn byte = 2
	msgError  byte = 3
	msgSignal byte = 4
)

// Header field codes.
const (
	fieldPath        byte = 1
	fieldInterface   byte = 2
	fieldMember      byte = 3
	fieldErrorName   byte = 4
	fieldReplySerial byte = 5
	fieldDestination byte = 6
	fieldSender      byte = 7
	fieldSignature   byte = 8
)

// flagNoReplyExpected marks a call whose reply nobody waits for.
const flagNoReplyExpected byte = 1

// encoder appends little-endian D-Bus values to a buffer. Alignment is
// computed from base, the buffer offset where the current message starts
// (messages are 8-aligned, so body alignment follows from it).
type encoder struct {
	buf  []byte
	base int
}

func (e *encoder) align(n int) {
	for (len(e.buf)-e.base)%n != 0 {
		e.buf = append(e.buf, 0)
	}
}

func (e *encoder) byte1(b byte) { e.buf = append(e.buf, b) }

func (e *encoder) uint32(v uint32) {
	e.align(4)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
}

func (e *encoder) int32(v int32) { e.uint32(uint32(v)) }

func (e *encoder) float64(v float64) {
	e.align(8)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
}

func (e *encoder) str(s string) {
	e.uint32(uint32(len(s)))
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, 0)
}

func (e *encoder) sig(s string) {
	e.buf = append(e.buf, byte(len(s)))
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, 0)
}

// variantDouble is an argument sent as a variant holding a double (the
// value of a Properties.Set call).
type variantDouble float64

// arg appends one argument and returns its signature code.
func (e *encoder) arg(a any) string {
	switch v := a.(type) {
	case uint32:
		e.uint32(v)
		return "u"
	case int32:
		e.int32(v)
		return "i"
	case string:
		e.str(v)
		return "s"
	case variantDouble:
		e.sig("d")
		e.float64(float64(v))
		return "v"
	case []string:
		e.uint32(0)
		lenAt := len(e.buf) - 4
		start := len(e.buf) // strings align to 4, as the length did
		for _, s := range v {
			e.str(s)
		}
		binary.LittleEndian.PutUint32(e.buf[lenAt:], uint32(len(e.buf)-start))
		return "as"
	}
	panic("atspi: unsupported argument type")
}

// appendCall encodes one method call message onto buf and returns the new
// buffer. dest may be empty on a peer-to-peer connection.
func appendCall(buf []byte, serial uint32, flags byte, dest, path, iface, member string, args []any) []byte {
	e := beginMessage(buf, msgCall, flags, serial)
	e.field(fieldPath, "o", path)
	if iface != "" {
		e.field(fieldInterface, "s", iface)
	}
	e.field(fieldMember, "s", member)
	if dest != "" {
		e.field(fieldDestination, "s", dest)
	}
	var bodySig []byte
	var body encoder
	if len(args) > 0 {
		// Encode the body separately (it starts 8-aligned) to learn its
		// signature before the header's signature field is written.
		body = encoder{buf: make([]byte, 0, 64)}
		for _, a := range args {
			bodySig = append(bodySig, body.arg(a)...)
		}
		e.field(fieldSignature, "g", string(bodySig))
	}
	e.endFields()
	bodyStart := len(e.buf)
	e.buf = append(e.buf, body.buf...)
	e.endBody(bodyStart)
	return e.buf
}

// beginMessage appends a message's fixed header to buf, with the body's
// length and the header fields' length left zero for endFields and endBody
// to patch; the returned encoder's base is the message's start.
func beginMessage(buf []byte, typ, flags byte, serial uint32) encoder {
	e := encoder{buf: buf, base: len(buf)}
	e.buf = append(e.buf, 'l', typ, flags, 1, 0, 0, 0, 0)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, serial)
	e.buf = append(e.buf, 0, 0, 0, 0)
	return e
}

// Offsets in a message's fixed header.
const (
	bodyLenAt     = 4
	fieldsLenAt   = 12
	fieldsStartAt = 16 // 8-aligned
)

// field appends one header field: its code and val as a variant of
// signature sig ("g" for a signature, else a string or object path).
func (e *encoder) field(code byte, sig, val string) {
	e.align(8)
	e.byte1(code)
	e.sig(sig)
	if sig == "g" {
		e.sig(val)
	} else {
		e.str(val)
	}
}

// endFields patches the header fields' length and pads to the body.
func (e *encoder) endFields() {
	binary.LittleEndian.PutUint32(e.buf[e.base+fieldsLenAt:], uint32(len(e.buf)-(e.base+fieldsStartAt)))
	e.align(8)
}

// endBody patches the body's length, the body having started at bodyStart.
func (e *encoder) endBody(bodyStart int) {
	binary.LittleEndian.PutUint32(e.buf[e.base+bodyLenAt:], uint32(len(e.buf)-bodyStart))
}

// errShortBody means a reply did not hold the values its signature promised.
var errShortBody = errors.New("atspi: malformed reply body")

// decoder reads D-Bus values from a message body. It records the first
// error and returns zero values after it, so callers check err once.
type decoder struct {
	b   []byte
	pos int
	big bool
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errShortBody
	}
	d.pos = len(d.b)
}

func (d *decoder) align(n int) {
	p := (d.pos + n - 1) &^ (n - 1)
	if p > len(d.b) {
		d.fail()
		return
	}
	d.pos = p
}

func (d *decoder) byte1() byte {
	if d.pos >= len(d.b) {
		d.fail()
		return 0
	}
	v := d.b[d.pos]
	d.pos++
	return v
}

// fixed takes the next n bytes, n-aligned, or nil past the end.
func (d *decoder) fixed(n int) []byte {
	d.align(n)
	if d.pos+n > len(d.b) {
		d.fail()
		return nil
	}
	b := d.b[d.pos : d.pos+n]
	d.pos += n
	return b
}

// order is the byte order the message was sent in: the one place the
// decoder's fixed-size reads choose it.
func (d *decoder) order() binary.ByteOrder {
	if d.big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

func (d *decoder) uint32() uint32 {
	if b := d.fixed(4); b != nil {
		return d.order().Uint32(b)
	}
	return 0
}

func (d *decoder) int32() int32 { return int32(d.uint32()) }

func (d *decoder) uint64() uint64 {
	if b := d.fixed(8); b != nil {
		return d.order().Uint64(b)
	}
	return 0
}

func (d *decoder) float64() float64 { return math.Float64frombits(d.uint64()) }

// counted takes n bytes and the NUL after them: a string's or a
// signature's, without copying them.
func (d *decoder) counted(n int) []byte {
	if n < 0 || d.pos+n+1 > len(d.b) {
		d.fail()
		return nil
	}
	s := d.b[d.pos : d.pos+n]
	d.pos += n + 1
	return s
}

// strBytes returns a string's bytes without copying them.
func (d *decoder) strBytes() []byte { return d.counted(int(d.uint32())) }

func (d *decoder) str() string { return string(d.strBytes()) }

func (d *decoder) sig() string { return string(d.counted(int(d.byte1()))) }

// array reads an array header and returns the offset where its elements
// end. elemAlign is the element type's alignment.
func (d *decoder) array(elemAlign int) int {
	n := int(d.uint32())
	d.align(elemAlign)
	end := d.pos + n
	if n < 0 || end > len(d.b) {
		d.fail()
		return d.pos
	}
	return end
}

// more reports whether an array ending at end has more elements.
func (d *decoder) more(end int) bool { return d.err == nil && d.pos < end }

// ref reads an object reference, a (so) struct.
func (d *decoder) ref() (bus, path string) {
	d.align(8)
	bus = d.str()
	path = d.str()
	return bus, path
}

// skip skips one complete value of the single complete type at the start
// of sig and returns the rest of sig.
func (d *decoder) skip(sig string) string {
	if sig == "" || d.err != nil {
		d.fail()
		return ""
	}
	c := sig[0]
	rest := sig[1:]
	switch c {
	case 'y':
		d.byte1()
	case 'b', 'i', 'u':
		d.uint32()
	case 'n', 'q':
		d.align(2)
		if d.pos+2 > len(d.b) {
			d.fail()
		} else {
			d.pos += 2
		}
	case 'x', 't', 'd':
		d.uint64()
	case 's', 'o':
		d.strBytes()
	case 'g':
		d.sig()
	case 'h':
		d.uint32()
	case 'v':
		inner := d.sig()
		if r := d.skip(inner); r != "" {
			d.fail()
		}
	case 'a':
		elem := rest
		end := d.array(alignOf(elem))
		rest = afterType(elem)
		if d.err == nil {
			d.pos = end
		}
	case '(':
		d.align(8)
		for rest != "" && rest[0] != ')' && d.err == nil {
			rest = d.skip(rest)
		}
		if rest == "" {
			d.fail()
			return ""
		}
		rest = rest[1:]
	case '{':
		d.align(8)
		rest = d.skip(rest)
		rest = d.skip(rest)
		if rest == "" || rest[0] != '}' {
			d.fail()
			return ""
		}
		rest = rest[1:]
	default:
		d.fail()
	}
	return rest
}

// alignOf is the alignment of the type at the start of sig.
func alignOf(sig string) int {
	if sig == "" {
		return 1
	}
	switch sig[0] {
	case 'y', 'g', 'v':
		return 1
	case 'n', 'q':
		return 2
	case 'x', 't', 'd', '(', '{':
		return 8
	}
	return 4
}

// afterType returns sig past its first complete type.
func afterType(sig string) string {
	if sig == "" {
		return ""
	}
	switch sig[0] {
	case 'a':
		return afterType(sig[1:])
	case '(', '{':
		depth := 0
		for i := 0; i < len(sig); i++ {
			switch sig[i] {
			case '(', '{':
				depth++
			case ')', '}':
				depth--
				if depth == 0 {
					return sig[i+1:]
				}
			}
		}
		return ""
	}
	return sig[1:]
}
