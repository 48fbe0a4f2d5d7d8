package hosttest

import (
	"bufio"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// lines is a raw JSON-RPC client of one connection, for what an SDK client
// would not send (a call before initialize, a second initialize).
type lines struct {
	w io.Writer
	r *bufio.Reader
}

func newLines(c conn) *lines { return &lines{w: c.w, r: bufio.NewReaderSize(c.r, 1<<20)} }

// reply is one JSON-RPC reply.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// send writes one line.
func (l *lines) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(l.w, line+"\n"); err != nil {
		t.Fatalf("send: %v", err)
	}
}

// call writes a request and returns the next reply that is not a
// notification, within 10 s.
func (l *lines) call(t *testing.T, line string) reply {
	t.Helper()
	l.send(t, line)
	type got struct {
		r   reply
		err error
	}
	ch := make(chan got, 1)
	go func() {
		for {
			b, err := l.r.ReadBytes('\n')
			if err != nil {
				ch <- got{err: err}
				return
			}
			var r reply
			if err := json.Unmarshal(b, &r); err != nil {
				ch <- got{err: err}
				return
			}
			if len(r.ID) == 0 {
				continue // a notification
			}
			ch <- got{r: r}
			return
		}
	}()
	select {
	case g := <-ch:
		if g.err != nil {
			t.Fatalf("no reply to %s: %v", line, g.err)
		}
		return g.r
	case <-time.After(10 * time.Second):
		t.Fatalf("no reply to %s within 10 s", line)
		return reply{}
	}
}
