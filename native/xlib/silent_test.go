//go:build cgo

package xlib

import (
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// A server that accepts the connection and never answers makes Open give
// up with ErrNoAnswer after ConnectTimeout instead of hanging. The server
// here listens on TCP, as display 127.0.0.1:N does.
func TestOpenGivesUpOnASilentServer(t *testing.T) {
	var ln net.Listener
	display := ""
	for n := 900; n < 1000 && ln == nil; n++ {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", 6000+n))
		if err == nil {
			ln, display = l, fmt.Sprintf("127.0.0.1:%d", n)
		}
	}
	if ln == nil {
		t.Fatal("no free TCP port from 6900 to 6999 for the silent server")
	}
	accepted := testkit.SilentServer(t, ln)

	saved := ConnectTimeout
	ConnectTimeout = 300 * time.Millisecond
	defer func() { ConnectTimeout = saved }()
	d, err := Open(display)
	if err == nil {
		d.Close()
		t.Fatal("Open of a silent server succeeded")
	}
	if !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("Open of a silent server: %v, want ErrNoAnswer", err)
	}
	select {
	case <-accepted:
	case <-time.After(10 * time.Second):
		t.Error("the silent server never saw a connection: the test did not test the hang")
	}
	// The main connection is untouched.
	if err := dpy.Sync(); err != nil {
		t.Errorf("the sandbox display after an abandoned open: %v", err)
	}
}
