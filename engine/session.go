package engine

import (
	"strconv"
	"strings"
)

// Session is one MCP connection's grant: approved apps, input mode, lease.
type Session struct {
	id   string
	conn *Conn
}

// SessionID forms "mcp:<client>:<pid>" with the client name reduced to
// [a-z0-9-] and at most 32 characters.
func SessionID(client string, pid int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(client) {
		if b.Len() >= 32 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" {
		name = "unknown"
	}
	return "mcp:" + name + ":" + strconv.Itoa(pid)
}

func (d *Driver) endSession(s *Session, reason string) {}
