//go:build cgo

package xlib

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/nish-driver/nish-driver/internal/xtest"
)

// A server that completes the handshake and dies before XOpenDisplay has
// finished its own requests makes the open fail, and the process goes on,
// with the other threads' connections, this package's and internal/xtest's,
// opened, used and closed meanwhile. Xlib hands such a loss to the
// display's exit handler, which during XOpenDisplay is still its default,
// exit(1): the whole process ended, from the opening thread, while the
// other threads were inside Xlib. Both packages open through
// internal/xconn's guarded open (xc_conn.c), so both get an error.
func TestAServerThatDiesDuringOpenIsAnErrorNotAnExit(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(display string) (io.Closer, error)
	}{
		{"native/xlib", func(display string) (io.Closer, error) { return Open(display) }},
		{"internal/xtest", func(display string) (io.Closer, error) { return xtest.Open(display) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, display := tcpDisplay(t)
			requested := dyingServer(t, ln, desk.Display)
			var c io.Closer
			err := whileOthersOpen(t, func() (err error) {
				c, err = tc.open(display)
				return err
			})
			if err == nil {
				c.Close()
				t.Fatal("an open through a server that died during the open succeeded")
			}
			if err := <-requested; err != nil {
				t.Fatalf("the stand-in server: %v", err)
			}
			// The main connection is untouched.
			if err := dpy.Sync(); err != nil {
				t.Errorf("the sandbox display after a failed open: %v", err)
			}
		})
	}
}

// whileOthersOpen runs open while other goroutines open, use and close
// connections to the sandbox display, this package's and internal/xtest's,
// over and over until open has returned, and returns open's error. Each of
// those connections must work.
func whileOthersOpen(t *testing.T, open func() error) error {
	t.Helper()
	opened := make(chan struct{})
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	others := []func() error{
		func() error { return openUseClose(desk.Display) },
		func() error { return openUseClose(desk.Display) },
		func() error { return openUseClose(desk.Display) },
		func() error {
			x, err := xtest.Open(desk.Display)
			if err != nil {
				return err
			}
			defer x.Close()
			_, err = x.FindByClass(DriverClass)
			return err
		},
	}
	for _, other := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if err := other(); err != nil {
					errs <- err
					return
				}
				select {
				case <-opened:
					return
				default:
				}
			}
		}()
	}
	err := open()
	close(opened)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a connection opened beside the failed one: %v", err)
	}
	return err
}

// openUseClose opens a connection to display, lists the top-level windows
// and closes it.
func openUseClose(display string) error {
	d, err := Open(display)
	if err != nil {
		return err
	}
	defer d.Close()
	_, err = d.TopLevels()
	return err
}

// dyingServer stands in for a display server that dies right after the
// connection's handshake: it passes the client's setup to the real server
// of display (Xvfb's Unix socket) and the setup reply back, then closes
// both sides as soon as the client's first request arrives. The returned
// channel gets nil once that request came, or why it did not.
func dyingServer(t *testing.T, ln net.Listener, display string) <-chan error {
	t.Cleanup(func() { ln.Close() })
	res := make(chan error, 1)
	go func() {
		res <- relaySetupThenDie(ln, "/tmp/.X11-unix/X"+strings.TrimPrefix(display, ":"))
	}()
	return res
}

// relaySetupThenDie serves one connection for dyingServer.
func relaySetupThenDie(ln net.Listener, socket string) error {
	client, err := ln.Accept()
	if err != nil {
		return err
	}
	defer client.Close()
	server, err := net.Dial("unix", socket)
	if err != nil {
		return err
	}
	defer server.Close()
	// The client's setup: a 12-byte head (byte order, version, the
	// authorization's name and data lengths), then name and data, each
	// padded to 4 bytes.
	head := make([]byte, 12)
	if _, err := io.ReadFull(client, head); err != nil {
		return err
	}
	var order binary.ByteOrder = binary.LittleEndian
	if head[0] == 'B' {
		order = binary.BigEndian
	}
	pad4 := func(n uint16) int { return (int(n) + 3) &^ 3 }
	auth := make([]byte, pad4(order.Uint16(head[6:]))+pad4(order.Uint16(head[8:])))
	if _, err := io.ReadFull(client, auth); err != nil {
		return err
	}
	if _, err := server.Write(append(head, auth...)); err != nil {
		return err
	}
	// The server's reply: an 8-byte head whose last two bytes count the
	// 4-byte words that follow.
	reply := make([]byte, 8)
	if _, err := io.ReadFull(server, reply); err != nil {
		return err
	}
	body := make([]byte, 4*int(order.Uint16(reply[6:])))
	if _, err := io.ReadFull(server, body); err != nil {
		return err
	}
	if _, err := client.Write(append(reply, body...)); err != nil {
		return err
	}
	one := make([]byte, 1)
	if _, err := client.Read(one); err != nil {
		return errors.New("the client sent no request after the handshake")
	}
	return nil
}
