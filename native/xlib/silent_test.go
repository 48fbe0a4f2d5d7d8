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
	ln, display := tcpDisplay(t)
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

// tcpDisplay listens on the TCP port of a free display 127.0.0.1:N (port
// 6000+N, N from 900 to 999) for a stand-in server, and returns the
// listener and the display's name.
func tcpDisplay(t *testing.T) (net.Listener, string) {
	t.Helper()
	for n := 900; n < 1000; n++ {
		if ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", 6000+n)); err == nil {
			return ln, fmt.Sprintf("127.0.0.1:%d", n)
		}
	}
	t.Fatal("no free TCP port from 6900 to 6999 for a stand-in display server")
	return nil, ""
}
