package main

import (
	"fmt"
	"strings"
	"testing"
)

// rawIDs are request ids a client may send that a Go number cannot hold
// exactly, or that a re-encoding would spell differently.
var rawIDs = []string{
	`1.5`,
	`123456789012345678901234567890`,
	`-9007199254740993`,
	`-0`,
	`1e2`,
	`1E+2`,
	`0.000001`,
	`"\u00e9t\u00e9"`,
	`"a\"b"`,
	`""`,
}

// checkIDsComeBackAsSent calls ping and a tool under each id and checks
// that each reply carries the id byte for byte.
func checkIDsComeBackAsSent(t *testing.T, c *rawClient) {
	c.initialize()
	for _, id := range rawIDs {
		c.send([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`))
		if r, _ := c.await(id); r.Error != nil {
			t.Errorf("ping under id %s: %s", id, r.line)
		}
		c.send([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}`))
		if r, _ := c.await(id); r.Error != nil {
			t.Errorf("list_windows under id %s: %s", id, r.line)
		}
	}
}

func TestIDsComeBackAsSentOverStdio(t *testing.T) {
	c, done := startRawMCP(t, "--backend", "mock")
	checkIDsComeBackAsSent(t, c)
	done()
}

func TestIDsComeBackAsSentOnTheDaemon(t *testing.T) {
	checkIDsComeBackAsSent(t, dialRawDaemon(t))
}

// A call the client cancels gets no reply at all (MCP), and nothing the
// server writes uses code 0 or blames an app. The call is a start_session
// whose consent dialog nobody answers.
func TestACancelledCallGetsNoReply(t *testing.T) {
	c, done := startRawMCP(t, "--backend", "mock", "--mock-consent", "ignore")
	c.initialize()
	for i, id := range []string{`1.5`, `"slow"`} {
		c.send([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"start_session","arguments":{"apps":["Form Demo"],"purpose":"cancel test"}}}`))
		c.send([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"the person changed their mind"}}`))
		after := fmt.Sprintf(`"after-%d"`, i)
		c.send([]byte(`{"jsonrpc":"2.0","id":` + after + `,"method":"ping"}`))
		_, before := c.await(after)
		checkNoCancelledReply(t, id, before)
	}
	rest := done()
	checkNoCancelledReply(t, `1.5`, rest)
	checkNoCancelledReply(t, `"slow"`, rest)
}

func checkNoCancelledReply(t *testing.T, id string, replies []reply) {
	t.Helper()
	for _, r := range replies {
		if string(r.ID) == id {
			t.Errorf("the cancelled call %s was answered: %.300s", id, r.line)
		}
		if r.Error != nil && r.Error.Code == 0 {
			t.Errorf("an error with code 0: %.300s", r.line)
		}
		if strings.Contains(string(r.line), "app_not_responding") {
			t.Errorf("a reply blames an app: %.300s", r.line)
		}
	}
}
