// Package stopsock is the stop socket: how `nish-driver stop` reaches every
// running driver of this user, whatever started it (a host over stdio, the
// daemon) and whatever the desktop (X11 or Wayland, or none at all).
//
// Each driver process listens on a socket of its own, named for its pid, in
// one private folder ($XDG_RUNTIME_DIR/nish-driver/stop, mode 0700; see
// Dir). `nish-driver stop` lists that folder, dials every socket at once,
// and asks each driver to pull its kill switch, which ends every takeover
// and session of that process exactly as the key does (the caller hands
// Listen the engine's KillSwitch: one owner for what the kill switch does).
//
// The rules are the daemon socket's (internal/daemon, docs/daemon.md): the
// folder is the user's own with mode 0700 and not a symlink, the socket is
// 0600, the kernel's peer credentials are checked on both ends (same uid
// only), and the wire is JSON-RPC 2.0, one JSON value a line, with hello
// first. A socket whose driver is gone (it refuses connections) is removed
// by the next stop or the next driver to start.
//
// dir.go names the folder and the sockets, protocol.go is the wire,
// listen.go is the driver's side and stop.go is the side of `nish-driver
// stop`.
package stopsock
