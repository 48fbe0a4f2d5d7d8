//go:build cgo

package xlib

import (
	"testing"

	"github.com/nish-driver/nish-driver/internal/xconn"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

// TestKeysymNamesLeakNothing names Unicode keysyms as often as the input
// watcher of a long takeover's typing would: the C heap does not grow by
// what a string per name would take (Xlib's XKeysymToString allocates one
// for each). The naming is internal/xconn's (its tests check the names);
// the C heap is measured with the tests' X client, which xconn may not
// import.
func TestKeysymNamesLeakNothing(t *testing.T) {
	const names = 100_000 // at least 32 bytes each were they allocated
	before, err := xtest.CHeapInUse()
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(names) {
		xconn.KeysymName(xconn.UnicodeKeysym + 0x100 + i%0x2000)
	}
	after, err := xtest.CHeapInUse()
	if err != nil {
		t.Fatal(err)
	}
	if after > before && after-before > names*32/4 {
		t.Fatalf("naming %d Unicode keysyms grew the C heap by %d bytes", names, after-before)
	}
}
