package main

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// The protocol's stdout pipe is grown to a megabyte, so a big read's
// reply passes in a few wake-ups of the host's reader; a descriptor that
// is no pipe is left as it is.
func TestGrowPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	growPipe(int(w.Fd()))
	size, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	if size < protocolPipeSize {
		t.Fatalf("the pipe holds %d bytes, want %d", size, protocolPipeSize)
	}
	f, err := os.CreateTemp(t.TempDir(), "not-a-pipe")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	growPipe(int(f.Fd())) // must not fail or panic on a file
}
