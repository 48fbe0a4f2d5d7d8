package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

func TestHelloAnswersVersionsMethodsAndPeer(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := dial(t, td.path)
	var h HelloResult
	resultOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}`), &h)
	if h.Protocol != 1 || h.DriverVersion != engine.DriverVersion || h.ContractVersion != engine.ContractVersion {
		t.Errorf("hello %+v, want protocol 1 and the engine's versions", h)
	}
	if want := []string{"hello", "metadata", "doctor", "sessions.list", "kill"}; !slices.Equal(h.Methods, want) {
		t.Errorf("methods %v, want %v", h.Methods, want)
	}
	if want := fmt.Sprintf("unix:uid=%d,gid=%d,pid=%d", os.Getuid(), os.Getgid(), os.Getpid()); h.Peer != want {
		t.Errorf("peer %q, want %q", h.Peer, want)
	}
	// A second hello answers again with the same peer.
	var again HelloResult
	resultOf(t, c.call(`{"jsonrpc":"2.0","id":2,"method":"hello","params":{"protocol":1}}`), &again)
	if again.Peer != h.Peer {
		t.Errorf("second hello's peer %q, want %q", again.Peer, h.Peer)
	}
}

func TestRequestsBeforeHelloAreRefused(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	for _, method := range []string{"metadata", "doctor", "sessions.list", "kill", "takeover.resume", "no.such.method"} {
		t.Run(method, func(t *testing.T) {
			c := dial(t, td.path)
			e := errorOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"`+method+`"}`))
			if e.Code != CodeHandshake {
				t.Errorf("code %d, want %d", e.Code, CodeHandshake)
			}
		})
	}
	// kill before hello did nothing.
	if ids := td.driver.SessionIDs(); len(ids) != 0 {
		t.Errorf("sessions %v", ids)
	}
}

func TestHelloParams(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	cases := []struct {
		name   string
		params string // "" leaves params out
		code   int
	}{
		{"another protocol", `{"protocol":2}`, CodeHandshake},
		{"protocol zero", `{"protocol":0}`, CodeHandshake},
		{"a protocol beyond 64 bits", `{"protocol":100000000000000000000000}`, CodeHandshake},
		{"no params", "", CodeInvalidParams},
		{"null params", `null`, CodeInvalidParams},
		{"positional params", `[1]`, CodeInvalidParams},
		{"no protocol", `{}`, CodeInvalidParams},
		{"a null protocol", `{"protocol":null}`, CodeInvalidParams},
		{"protocol as a string", `{"protocol":"1"}`, CodeInvalidParams},
		{"protocol as a fraction", `{"protocol":1.0}`, CodeInvalidParams},
		{"an unknown parameter", `{"protocol":1,"via":"x"}`, CodeInvalidParams},
		{"a parameter name in another case", `{"Protocol":1}`, CodeInvalidParams},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, td.path)
			req := `{"jsonrpc":"2.0","id":1,"method":"hello"`
			if tc.params != "" {
				req += `,"params":` + tc.params
			}
			e := errorOf(t, c.call(req+"}"))
			if e.Code != tc.code {
				t.Fatalf("code %d (%s), want %d", e.Code, e.Message, tc.code)
			}
			if tc.code == CodeInvalidParams && (e.Data == nil || e.Data.Code != engine.CodeInvalidArguments) {
				t.Errorf("data %+v, want the invalid_arguments error object", e.Data)
			}
			// A failed hello leaves the connection without a handshake.
			if e := errorOf(t, c.call(`{"jsonrpc":"2.0","id":2,"method":"sessions.list"}`)); e.Code != CodeHandshake {
				t.Errorf("after a failed hello: code %d, want %d", e.Code, CodeHandshake)
			}
		})
	}
}

func TestUnknownMethodsCarryTheContractsErrorObject(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := helloClient(t, td.path)
	info := (&engine.Error{Code: engine.CodeUnknownMethod}).Body()
	if info.Code != engine.CodeUnknownMethod {
		t.Fatal("the engine's table has no unknown_method")
	}
	for _, method := range []string{"takeover.resume", "session.revoke", "approval.answer", "initialize", "tools/list", "Hello", "sessions.List"} {
		t.Run(method, func(t *testing.T) {
			e := errorOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":{}}`))
			if e.Code != CodeMethodNotFound {
				t.Fatalf("code %d, want %d", e.Code, CodeMethodNotFound)
			}
			if e.Data == nil || e.Data.Code != engine.CodeUnknownMethod || e.Data.Disposition.Retry != info.Disposition.Retry || e.Data.Suggestion != info.Suggestion {
				t.Errorf("data %+v, want the unknown_method object from the engine's table", e.Data)
			}
			if strings.Contains(e.Message, method) || strings.Contains(e.Data.Message, method) {
				t.Errorf("the error repeats the client's method name: %q / %q", e.Message, e.Data.Message)
			}
		})
	}
}

func TestMethodsWithoutParamsRefuseParams(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := helloClient(t, td.path)
	for _, method := range []string{"metadata", "doctor", "sessions.list", "kill"} {
		for _, params := range []string{`null`, `[]`, `{"x":1}`, `"s"`} {
			t.Run(method+" "+params, func(t *testing.T) {
				e := errorOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
				if e.Code != CodeInvalidParams || e.Data == nil || e.Data.Code != engine.CodeInvalidArguments {
					t.Errorf("error %+v, want -32602 with invalid_arguments", e)
				}
			})
		}
		for _, params := range []string{``, `,"params":{}`} {
			t.Run(method+" accepts"+params, func(t *testing.T) {
				r := c.call(`{"jsonrpc":"2.0","id":1,"method":"` + method + `"` + params + `}`)
				if _, ok := r["result"]; !ok {
					t.Errorf("reply %s, want a result", stringify(r))
				}
			})
		}
	}
}

func TestReplyIDsArePreservedExactly(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := helloClient(t, td.path)
	for _, id := range []string{
		`123456789012345678901234567890`,
		`-9223372036854775809`,
		`18446744073709551616`,
		`1.5e300`,
		`0`,
		`"abc"`,
		`""`,
		`"<&>\u00e9\n"`,
		`null`,
	} {
		t.Run(id, func(t *testing.T) {
			for _, req := range []string{
				`{"jsonrpc":"2.0","id":` + id + `,"method":"sessions.list"}`,   // a result
				`{"jsonrpc":"2.0","id":` + id + `,"method":"takeover.resume"}`, // an error
			} {
				r := c.call(req)
				if got := string(r["id"]); got != id {
					t.Errorf("reply id %s, want %s", got, id)
				}
			}
		})
	}
}

func TestNotificationsGetNoReply(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := dial(t, td.path)
	// Before hello, a notification's -32001 is not sent either.
	c.send(`{"jsonrpc":"2.0","method":"sessions.list"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}`)
	c.send(`{"jsonrpc":"2.0","method":"no.such.method"}`)
	c.send(`{"jsonrpc":"2.0","method":"doctor","params":null}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"sessions.list"}`)
	for _, want := range []string{"1", "2"} {
		if got := string(c.recv()["id"]); got != want {
			t.Fatalf("reply id %s, want %s (a notification was answered)", got, want)
		}
	}
}

func TestBatchesRunInOrder(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := dial(t, td.path)
	c.send(`[{"jsonrpc":"2.0","id":"m","method":"metadata"},` +
		`{"jsonrpc":"2.0","id":"h","method":"hello","params":{"protocol":1}},` +
		`{"jsonrpc":"2.0","method":"kill"},` +
		`7,` +
		`{"jsonrpc":"2.0","id":"s","method":"sessions.list"},` +
		`{"jsonrpc":"2.0","id":"u","method":"takeover.resume"}]`)
	line, err := c.recvLine()
	if err != nil {
		t.Fatal(err)
	}
	var replies []map[string]json.RawMessage
	if err := json.Unmarshal(line, &replies); err != nil {
		t.Fatalf("a batch's reply is not an array: %s", line)
	}
	type want struct {
		id   string
		code int // 0: a result
	}
	wants := []want{{`"m"`, CodeHandshake}, {`"h"`, 0}, {`null`, CodeInvalidRequest}, {`"s"`, 0}, {`"u"`, CodeMethodNotFound}}
	if len(replies) != len(wants) {
		t.Fatalf("%d replies, want %d: %s", len(replies), len(wants), line)
	}
	for i, w := range wants {
		if string(replies[i]["id"]) != w.id {
			t.Errorf("reply %d id %s, want %s", i, replies[i]["id"], w.id)
		}
		if w.code == 0 {
			if _, ok := replies[i]["result"]; !ok {
				t.Errorf("reply %d: %s, want a result", i, stringify(replies[i]))
			}
		} else if e := errorOf(t, replies[i]); e.Code != w.code {
			t.Errorf("reply %d code %d, want %d", i, e.Code, w.code)
		}
	}
	// A batch of notifications only gets no reply at all.
	c.send(`[{"jsonrpc":"2.0","method":"sessions.list"},{"jsonrpc":"2.0","method":"doctor"}]`)
	if got := string(c.call(`{"jsonrpc":"2.0","id":9,"method":"sessions.list"}`)["id"]); got != "9" {
		t.Errorf("reply id %s, want 9", got)
	}
	// An empty batch is one invalid-request reply, not an array.
	if e := errorOf(t, c.call(`[]`)); e.Code != CodeInvalidRequest {
		t.Errorf("empty batch: code %d", e.Code)
	}
}

func TestUnreadableFramesAreAnsweredAndTheConnectionGoesOn(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := helloClient(t, td.path)
	for _, frame := range []string{`{"jsonrpc":`, "\xff\xfe", `{"a":1} {"b":2}`} {
		r := c.call(frame)
		if e := errorOf(t, r); e.Code != CodeParseError || string(r["id"]) != "null" {
			t.Errorf("%q: %s, want -32700 with id null", frame, stringify(r))
		}
	}
	if _, ok := c.call(`{"jsonrpc":"2.0","id":1,"method":"sessions.list"}`)["result"]; !ok {
		t.Error("the connection did not go on after a parse error")
	}
}

func TestMetadataAndDoctor(t *testing.T) {
	td := startDaemon(t, daemonOpts{metadata: func(context.Context) (any, error) {
		return metadataStub{Name: "from-the-metadata-func"}, nil
	}})
	c := helloClient(t, td.path)
	var m metadataStub
	resultOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"metadata"}`), &m)
	if m.Name != "from-the-metadata-func" {
		t.Errorf("metadata %+v, want what Options.Metadata built", m)
	}
	var report struct {
		Schema        string `json:"schema"`
		SchemaVersion int    `json:"schema_version"`
		SessionType   string `json:"session_type"`
		Ready         bool   `json:"ready"`
	}
	resultOf(t, c.call(`{"jsonrpc":"2.0","id":2,"method":"doctor"}`), &report)
	if report.Schema != "nish-driver/doctor" || report.SchemaVersion != engine.DoctorSchemaVersion || report.SessionType != "mock" || !report.Ready {
		t.Errorf("doctor %+v, want the mock backend's ready report", report)
	}
}

func TestOversizedFrameClosesOnlyItsConnection(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	other := helloClient(t, td.path)
	c := helloClient(t, td.path)

	// Just under the limit is still a request.
	req := `{"jsonrpc":"2.0","id":1,"method":"sessions.list"}`
	under := req + strings.Repeat(" ", MaxFrame-1-len(req))
	if _, ok := c.call(under)["result"]; !ok {
		t.Fatal("a frame of 1 MiB - 1 bytes was not answered")
	}
	// The daemon may close before the last bytes are written: a failed
	// write is expected here, the closed connection is what counts.
	c.conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
	c.conn.Write([]byte(req + strings.Repeat(" ", MaxFrame-len(req)) + "\n"))
	if n := c.expectClosed(); n != 0 {
		t.Errorf("%d replies to an oversized frame", n)
	}
	if r := td.waitDrop(); r != "oversized frame" {
		t.Errorf("drop reason %q", r)
	}
	if _, ok := other.call(`{"jsonrpc":"2.0","id":2,"method":"sessions.list"}`)["result"]; !ok {
		t.Error("another connection stopped working")
	}
	if _, ok := helloClient(t, td.path).call(`{"jsonrpc":"2.0","id":3,"method":"sessions.list"}`)["result"]; !ok {
		t.Error("a new connection does not work")
	}
}

// bigMetadata makes every metadata reply large, so a client that does not
// read fills the socket's buffer quickly.
func bigMetadata(context.Context) (any, error) {
	return metadataStub{Name: "big", Padding: strings.Repeat("p", 64<<10)}, nil
}

func TestAClientThatNeverReadsIsDroppedAndOthersGoOn(t *testing.T) {
	td := startDaemon(t, daemonOpts{metadata: bigMetadata})
	other := helloClient(t, td.path)
	slow := helloClient(t, td.path)
	const sent = 400
	var b bytes.Buffer
	for i := range sent {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"metadata"}`+"\n", i)
	}
	if _, err := slow.conn.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	if r := td.waitDrop(); r != "queue full" {
		t.Fatalf("drop reason %q, want queue full", r)
	}
	var m metadataStub
	resultOf(t, other.call(`{"jsonrpc":"2.0","id":1,"method":"metadata"}`), &m)
	if m.Name != "big" {
		t.Error("the other client did not get its reply")
	}
	if n := slow.expectClosed(); n >= sent {
		t.Errorf("the slow client got all %d replies; it should have been dropped", n)
	}
}

func TestAWriteThatTimesOutDropsTheClient(t *testing.T) {
	td := startDaemon(t, daemonOpts{metadata: bigMetadata, writeTimeout: 50 * time.Millisecond})
	slow := helloClient(t, td.path)
	const sent = 40 // well under the queue limit: only the timeout can drop it
	for i := range sent {
		slow.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"metadata"}`, i))
	}
	if r := td.waitDrop(); r != "write timeout" {
		t.Fatalf("drop reason %q, want write timeout", r)
	}
	if n := slow.expectClosed(); n >= sent {
		t.Errorf("the client got all %d replies after its write timed out", n)
	}
}

func TestAHalfClosedClientStillGetsItsReplies(t *testing.T) {
	td := startDaemon(t, daemonOpts{metadata: bigMetadata})
	c := dial(t, td.path)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":1}}`)
	for i := 1; i <= 5; i++ {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"metadata"}`, i))
	}
	if err := c.conn.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	for want := 0; want <= 5; want++ {
		if got := string(c.recv()["id"]); got != fmt.Sprint(want) {
			t.Fatalf("reply id %s, want %d", got, want)
		}
	}
	if n := c.expectClosed(); n != 0 {
		t.Errorf("%d extra lines", n)
	}
}
