package wire

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
)

// held keeps tool results that the server encoded itself until the SDK's
// reply carrying them is written. The SDK encodes a result in layers, each
// one scanning and copying the one below, which for a large read costs
// more than the read's own encoding; a result handed over through Hold
// travels through the SDK as a short placeholder instead, and Write puts
// the bytes in its place on the reply line.
type held struct {
	mu      sync.Mutex
	next    int64
	results map[int64][]byte
	// marker is how every placeholder of this connection shows in the
	// SDK's encoding of a result: no content, and a string as
	// structuredContent starting with this connection's random tag. No
	// engine result has that shape (their structuredContent is always an
	// object), so the placeholder cannot be mistaken.
	marker []byte
	tag    string
}

func newHeld() *held {
	var b [8]byte
	_, _ = rand.Read(b[:])
	tag := "nish-held:" + hex.EncodeToString(b[:]) + ":"
	return &held{
		results: map[int64][]byte{},
		marker:  []byte(`"content":[],"structuredContent":"` + tag),
		tag:     tag,
	}
}

// Placeholder is what a tool handler returns as structuredContent (with no
// content blocks) so that the reply carries a result held by Hold.
type Placeholder struct{ text string }

// MarshalJSON implements json.Marshaler: the placeholder's own string.
func (p Placeholder) MarshalJSON() ([]byte, error) { return []byte(p.text), nil }

// Hold keeps result, one whole tool result already encoded as JSON (the
// value of the reply's "result"), and returns the placeholder that stands
// for it. The reply whose result is the placeholder goes out with result
// in its place; a reply that never goes out (a cancelled call) drops it.
func (c *Conn) Hold(result []byte) Placeholder {
	h := c.held
	h.mu.Lock()
	h.next++
	n := h.next
	h.results[n] = result
	h.mu.Unlock()
	return Placeholder{text: strconv.Quote(h.tag + strconv.FormatInt(n, 10))}
}

// take returns the held result a reply's result stands for and forgets it;
// the reply's own result when it is no placeholder of this connection.
// The fields the SDK wrote around the placeholder (a newer protocol adds
// _meta before and resultType after to every result) stay around the held
// result's own, in the order the SDK would have written them for the real
// result.
func (h *held) take(result json.RawMessage) json.RawMessage {
	i := bytes.Index(result, h.marker)
	if i < 1 || (result[i-1] != '{' && result[i-1] != ',') {
		return result
	}
	rest := result[i+len(h.marker):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return result
	}
	digits, tail := rest[:end], rest[end+1:]
	if len(tail) == 0 || tail[len(tail)-1] != '}' || (len(tail) > 1 && tail[0] != ',') {
		return result
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		return result
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	body, ok := h.results[n]
	if !ok {
		return result
	}
	delete(h.results, n)
	if i == 1 && len(tail) == 1 {
		return body
	}
	// result[:i] is "{" and the fields before; body without its braces;
	// then the fields after and the closing brace.
	out := make([]byte, 0, i+len(body)+len(tail))
	out = append(out, result[:i]...)
	out = append(out, body[1:len(body)-1]...)
	return append(out, tail...)
}
