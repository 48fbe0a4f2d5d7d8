package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
)

// Dial connects to the daemon at path. It first checks the socket's
// directory as the daemon does (a real directory of this user, mode 0700),
// so a host never hands its MCP traffic to a socket another user planted.
func Dial(path string) (*net.UnixConn, error) {
	if err := checkSocketPath(path); err != nil {
		return nil, err
	}
	if err := CheckPrivateDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("no daemon answers on %s (start it with nish-driver daemon): %w", path, errors.Unwrap(err))
	}
	return c, nil
}

// Bridge copies in to the daemon and the daemon to out, for `nish-driver
// mcp --connect`: a host that starts the driver over stdio reaches the
// shared daemon instead. When in ends, the bridge half-closes its side and
// keeps copying the daemon's replies until the daemon closes; when the
// daemon closes (or out fails, or ctx ends), the bridge returns at once.
// It looks at no byte it copies.
func Bridge(ctx context.Context, conn *net.UnixConn, in io.Reader, out io.Writer) error {
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	go func() {
		if _, err := io.Copy(conn, in); err == nil {
			conn.CloseWrite()
		} else {
			conn.Close()
		}
	}()
	_, err := io.Copy(out, conn)
	if ctx.Err() != nil {
		return nil
	}
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
