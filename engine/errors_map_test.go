package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestAsErrorGivesEachFailureItsCode: the one mapping from any failure to a
// table code, for failures inside and outside a backend call's bound.
func TestAsErrorGivesEachFailureItsCode(t *testing.T) {
	live := context.Background()
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	coded := Errf(CodeWindowGone, "gone")
	plain := errors.New("socket closed")
	cases := []struct {
		name string
		err  error
		want Code
	}{
		{"a coded error", coded, CodeWindowGone},
		{"a wrapped coded error", fmt.Errorf("read: %w", coded), CodeWindowGone},
		{"an uncoded error", plain, CodeInternal},
		{"an uncoded error inside a live bound", inBound(live, plain), CodeInternal},
		{"an uncoded error after the bound ended", inBound(ended, plain), CodeAppNotResponding},
		{"a coded error after the bound ended", inBound(ended, coded), CodeWindowGone},
		{"a wrapped coded error after the bound ended", inBound(ended, fmt.Errorf("read: %w", coded)), CodeWindowGone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := AsError(c.err); got.Code != c.want {
				t.Fatalf("got %s, want %s", got.Code, c.want)
			}
		})
	}
	if AsError(nil) != nil || inBound(ended, nil) != nil {
		t.Fatal("no failure has no code")
	}
}
