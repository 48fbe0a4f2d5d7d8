package stopsock

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/nish-driver/nish-driver/internal/daemon"
)

// DefaultBound is how long stop waits for one driver, from dialing to its
// answer: a driver that takes longer is reported, and stop goes on.
const DefaultBound = 5 * time.Second

// Stopped is one driver that answered: its pid (from the kernel, not from
// the socket's name) and the sessions it ended.
type Stopped struct {
	Pid   int
	Ended []string
}

// Unanswered is one socket whose driver did not confirm the stop.
type Unanswered struct {
	Pid  int // from the socket's name
	Path string
	Err  error
}

// Report is what one stop did.
type Report struct {
	Stopped    []Stopped
	Unanswered []Unanswered
	// Cleaned counts the sockets of drivers that were gone, removed.
	Cleaned int
}

// Sessions counts the sessions the drivers ended.
func (r Report) Sessions() int {
	n := 0
	for _, s := range r.Stopped {
		n += len(s.Ended)
	}
	return n
}

// StopAll asks every driver with a socket in dir to pull its kill switch,
// all at once, each within bound, and removes the sockets of drivers that
// are gone. A missing dir means no driver runs. The error is for a dir that
// cannot be read or is not private to this user: then nothing was asked.
func StopAll(ctx context.Context, dir string, bound time.Duration) (Report, error) {
	if bound <= 0 {
		bound = DefaultBound
	}
	var rep Report
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return rep, nil
	}
	if err := daemon.CheckPrivateDir(dir); err != nil {
		return rep, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return rep, err
	}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for _, e := range entries {
		pid, ok := pidOf(e.Name())
		if !ok {
			if tpid, ok := tempPidOf(e.Name()); ok && processGone(tpid) && removeSocket(filepath.Join(dir, e.Name())) {
				rep.Cleaned++
			}
			continue
		}
		path := filepath.Join(dir, e.Name())
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, stale, err := stopOne(ctx, path, bound)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case stale:
				if removeSocket(path) {
					rep.Cleaned++
				}
			case errors.Is(err, fs.ErrNotExist):
				// Its driver stopped and removed it meanwhile.
			case err != nil:
				rep.Unanswered = append(rep.Unanswered, Unanswered{Pid: pid, Path: path, Err: err})
			default:
				rep.Stopped = append(rep.Stopped, s)
			}
		}()
	}
	wg.Wait()
	sort.Slice(rep.Stopped, func(i, j int) bool { return rep.Stopped[i].Pid < rep.Stopped[j].Pid })
	sort.Slice(rep.Unanswered, func(i, j int) bool { return rep.Unanswered[i].Pid < rep.Unanswered[j].Pid })
	return rep, nil
}

// stopOne asks the driver behind path to pull its kill switch. stale is
// true when the socket refuses connections: its driver is gone.
func stopOne(ctx context.Context, path string, bound time.Duration) (s Stopped, stale bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", path)
	if errors.Is(err, syscall.ECONNREFUSED) {
		return s, true, nil
	}
	if err != nil {
		return s, false, dialError(err, bound)
	}
	c := nc.(*net.UnixConn)
	defer c.Close()
	// A driver of this user made the socket: the kernel says who listens.
	peer, err := daemon.ReadPeer(c)
	if err != nil {
		return s, false, fmt.Errorf("cannot read who listens: %w", err)
	}
	if err := daemon.Admit(peer, os.Geteuid()); err != nil {
		return s, false, fmt.Errorf("refused: the socket belongs to another user (%w)", err)
	}
	deadline, _ := ctx.Deadline()
	c.SetDeadline(deadline)
	stopWatch := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stopWatch()
	hello := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":%d}}`, daemon.Protocol)
	if _, err := c.Write([]byte(hello + "\n" + `{"jsonrpc":"2.0","id":2,"method":"kill"}` + "\n")); err != nil {
		return s, false, dialError(err, bound)
	}
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return s, false, dialError(err, bound)
		}
		var rep struct {
			ID     json.RawMessage   `json:"id"`
			Result daemon.KillResult `json:"result"`
			Error  *daemon.RPCError  `json:"error"`
		}
		if err := json.Unmarshal(line, &rep); err != nil {
			return s, false, errors.New("the driver answered something that is not JSON-RPC")
		}
		if rep.Error != nil {
			return s, false, fmt.Errorf("the driver refused (%d %s)", rep.Error.Code, rep.Error.Message)
		}
		if string(rep.ID) == "2" {
			ended := rep.Result.Ended
			if ended == nil {
				ended = []string{}
			}
			return Stopped{Pid: int(peer.PID), Ended: ended}, false, nil
		}
	}
}

// dialError says what went wrong in words a person reads: a timeout is the
// bound, not an I/O error.
func dialError(err error, bound time.Duration) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("did not answer within %v", bound)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return fmt.Errorf("the connection failed: %w", err)
}

// removeSocket removes path when it is a socket; false when it was not
// removed (already gone, or not a socket, which is left alone).
func removeSocket(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSocket == 0 {
		return false
	}
	return os.Remove(path) == nil
}

// sweepGone removes, when a driver starts, the sockets in dir of drivers
// whose process is gone and whose socket refuses connections; nothing that
// answers is touched, whatever its name says.
func sweepGone(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if pid, ok := tempPidOf(e.Name()); ok && processGone(pid) {
			removeSocket(path)
			continue
		}
		pid, ok := pidOf(e.Name())
		if !ok || !processGone(pid) {
			continue
		}
		c, err := net.DialTimeout("unix", path, time.Second)
		if err == nil {
			c.Close()
			continue
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			removeSocket(path)
		}
	}
}
