//go:build !linux

package daemon

import (
	"errors"
	"net"
)

// ReadPeer: without SO_PEERCRED the peer cannot be identified, so every
// connection is refused.
func ReadPeer(c *net.UnixConn) (Peer, error) {
	return Peer{}, errors.New("peer credentials are available on Linux only")
}
