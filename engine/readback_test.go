package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// keepsMore stands between the engine and the mock desktop for a field
// whose app keeps extra after whatever it is given (an autocompleting
// field, an app that adds a signature). Reads are cut at the caller's bound
// as a real backend cuts them.
type keepsMore struct {
	*mock.Desktop
	extra string
}

func (k keepsMore) ReadValue(ctx context.Context, ref engine.ElementRef, maxBytes int) (engine.Readback, error) {
	rb, err := k.Desktop.ReadValue(ctx, ref, 0)
	if err != nil || rb.Secure {
		return rb, err
	}
	rb.Value, rb.Truncated = utf8cut.Cut(rb.Value+k.extra, maxBytes)
	return rb, nil
}

// TestSetValueReadsBackTheWholeValue: set_value's readback reads as much
// as the longest value the tool takes can hold, so a value of any length
// it takes reads back match when the field holds it, and mismatch when the
// field holds more, even more than the read takes.
func TestSetValueReadsBackTheWholeValue(t *testing.T) {
	longest := testkit.InputMaxLength(t, "set_value", "value")
	cases := []struct {
		name, value, extra, readback string
	}{
		{"a short value held", "ada@example.org", "", engine.ReadbackMatch},
		{"the longest value, two bytes a character", strings.Repeat("é", longest), "", engine.ReadbackMatch},
		{"the longest value, four bytes a character", strings.Repeat("𝄞", longest), "", engine.ReadbackMatch},
		{"a short value and one character more", "ada@example.org", "x", engine.ReadbackMismatch},
		{"the longest value and more than the read takes", strings.Repeat("𝄞", longest), "x", engine.ReadbackMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, withBackend(func(d *mock.Desktop) engine.Backend { return keepsMore{d, c.extra} }))
			h.start(nil)
			read := h.readForm(nil)
			res := h.ok("set_value", map[string]any{"element_token": testkit.Token(t, read, "entry", h.demo.Form.Email.Name()), "value": c.value})
			if res["readback"] != c.readback {
				t.Fatalf("readback %v, want %s", res["readback"], c.readback)
			}
		})
	}
}
