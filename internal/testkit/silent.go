package testkit

import (
	"net"
	"sync"
	"testing"
)

// SilentServer accepts every connection on ln and never reads or answers
// one: a display server that hangs after the connect. Each accept is
// signalled on the returned channel (dropped when nobody waits), so a test
// can tell its client did connect. The listener and the connections close
// when the test ends.
func SilentServer(t testing.TB, ln net.Listener) <-chan struct{} {
	var mu sync.Mutex
	var held []net.Conn
	accepted := make(chan struct{}, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	return accepted
}
