package daemon

import "fmt"

// Peer is the process at the other end of a connection, as the kernel
// reported it once, when the connection was accepted. It attributes a
// local process, not a person: every process of the same user has the
// same authority on the socket, and a pid can be reused after it exits.
type Peer struct {
	UID uint32
	GID uint32
	PID int32
}

// String is the hello reply's peer: "unix:uid=U,gid=G,pid=P".
func (p Peer) String() string {
	return fmt.Sprintf("unix:uid=%d,gid=%d,pid=%d", p.UID, p.GID, p.PID)
}

// Admit says whether a peer may use the daemon: only processes running as
// the daemon's own effective user. Root is not special: a root daemon
// serves root's processes only, and a user's daemon never serves root.
// The stop socket (internal/stopsock) applies the same rule on both ends.
func Admit(p Peer, euid int) error {
	if euid < 0 || int64(p.UID) != int64(euid) {
		return fmt.Errorf("peer uid %d is not the daemon's uid %d", p.UID, euid)
	}
	return nil
}
