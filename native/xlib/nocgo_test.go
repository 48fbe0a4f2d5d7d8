//go:build !cgo

package xlib

import (
	"errors"
	"testing"
)

func TestWithoutCgoOpenSaysTheBackendWasNotBuilt(t *testing.T) {
	d, err := Open("")
	if d != nil || !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("Open = %v, %v; want nil, ErrNotBuilt", d, err)
	}
}

func TestWithoutCgoWatchInputSaysTheBackendWasNotBuilt(t *testing.T) {
	w, err := WatchInput("", func(RawEvent) {})
	if w != nil || !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("WatchInput = %v, %v; want nil, ErrNotBuilt", w, err)
	}
}
