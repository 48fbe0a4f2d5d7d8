package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
)

// Protocol is the hello protocol version this daemon speaks (and the stop
// socket, which speaks the same handshake).
const Protocol = 1

// The handshake's refusals, shared with the stop socket: what a client that
// skipped hello, or asked for another protocol, is told.
var (
	HelloFirst          = fmt.Sprintf("send hello {protocol: %d} first", Protocol)
	UnsupportedProtocol = fmt.Sprintf("unsupported protocol; this socket speaks protocol %d", Protocol)
)

// Methods are the daemon's own methods, in the order hello lists them.
var Methods = []string{"hello", "metadata", "doctor", "sessions.list", "kill"}

// HelloResult answers hello.
type HelloResult struct {
	Protocol        int      `json:"protocol"`
	DriverVersion   string   `json:"driver_version"`
	ContractVersion string   `json:"contract_version"`
	Methods         []string `json:"methods"`
	Peer            string   `json:"peer"`
}

// SessionsResult answers sessions.list.
type SessionsResult struct {
	Sessions []SessionEntry `json:"sessions"`
}

// SessionEntry is one live session of the daemon's driver.
type SessionEntry struct {
	ID string `json:"id"`
}

// KillResult answers kill: the sessions it ended (their takeovers with them).
type KillResult struct {
	Ended []string `json:"ended"`
}

// control is one hello-mode connection's state.
type control struct {
	s       *Server
	peer    Peer
	helloed bool
}

// handle answers one request. The error, when not nil, is the whole answer.
func (c *control) handle(ctx context.Context, req request) (any, *RPCError) {
	if req.method == "hello" {
		return c.hello(req)
	}
	if !c.helloed {
		return nil, &RPCError{Code: CodeHandshake, Message: HelloFirst}
	}
	switch req.method {
	case "metadata":
		if err := NoParams(req.params); err != nil {
			return nil, err
		}
		// The capabilities in it come from the backend's probes.
		rctx, cancel := context.WithTimeout(ctx, c.s.opts.RegistryTimeout)
		defer cancel()
		m, err := c.s.opts.Metadata(rctx)
		if err != nil {
			return nil, &RPCError{Code: CodeInternalError, Message: "the metadata could not be built"}
		}
		return m, nil
	case "doctor":
		if err := NoParams(req.params); err != nil {
			return nil, err
		}
		rctx, cancel := context.WithTimeout(ctx, c.s.opts.RegistryTimeout)
		defer cancel()
		return doctor.Build(c.s.opts.Backend.Registry(rctx)), nil
	case "sessions.list":
		if err := NoParams(req.params); err != nil {
			return nil, err
		}
		res := SessionsResult{Sessions: []SessionEntry{}}
		for _, id := range c.s.opts.Driver.SessionIDs() {
			res.Sessions = append(res.Sessions, SessionEntry{ID: id})
		}
		return res, nil
	case "kill":
		if err := NoParams(req.params); err != nil {
			return nil, err
		}
		return KillResult{Ended: c.s.opts.Driver.KillSwitch()}, nil
	}
	// takeover.resume belongs to the host's control pipe, where the person's
	// Continue is wired; the socket never resumes a takeover.
	return nil, &RPCError{
		Code:    CodeMethodNotFound,
		Message: "method not found",
		Data:    engine.Errf(engine.CodeUnknownMethod, "the daemon has no such method").Body(),
	}
}

// hello checks the protocol and fixes the connection as ready. A later
// hello answers again; the peer stays the one read at accept.
func (c *control) hello(req request) (any, *RPCError) {
	res, err := Hello(req.params, Methods, c.peer)
	if err != nil {
		return nil, err
	}
	c.helloed = true
	return res, nil
}

// Hello answers a hello whose params are params (absent: nil) on a socket
// that serves methods, from peer: the daemon socket's handshake and the
// stop socket's (internal/stopsock) alike, so both answer the same bad
// hello the same way.
func Hello(params json.RawMessage, methods []string, peer Peer) (HelloResult, *RPCError) {
	var p struct {
		Protocol json.RawMessage `json:"protocol"`
	}
	if err := strictParams(params, &p, "protocol"); err != nil {
		return HelloResult{}, err
	}
	if len(p.Protocol) == 0 {
		return HelloResult{}, invalidParams("hello needs protocol")
	}
	if !isInteger(p.Protocol) {
		return HelloResult{}, invalidParams("protocol must be an integer")
	}
	if string(p.Protocol) != strconv.Itoa(Protocol) {
		return HelloResult{}, &RPCError{Code: CodeHandshake, Message: UnsupportedProtocol}
	}
	return HelloResult{
		Protocol:        Protocol,
		DriverVersion:   engine.DriverVersion,
		ContractVersion: engine.ContractVersion,
		Methods:         append([]string(nil), methods...),
		Peer:            peer.String(),
	}, nil
}

// isInteger says whether a JSON value is an integer literal (any size:
// it is compared as text, never converted).
func isInteger(v json.RawMessage) bool {
	s := string(v)
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// NoParams accepts the params of a method that takes none: absent (nil)
// or {}. The stop socket's kill uses it too.
func NoParams(params json.RawMessage) *RPCError {
	var none struct{}
	return strictParams(params, &none)
}

// strictParams decodes named parameters: an object whose members are all
// among names, each of the right JSON type. Null, positional (array) or
// unknown parameters are refused.
func strictParams(params json.RawMessage, into any, names ...string) *RPCError {
	if params == nil {
		if len(names) > 0 {
			return invalidParams("params must be an object")
		}
		return nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(params, &members); err != nil || members == nil {
		return invalidParams("params must be an object")
	}
	for k := range members {
		known := false
		for _, n := range names {
			known = known || k == n
		}
		if !known {
			return invalidParams("unknown parameter")
		}
	}
	if err := json.Unmarshal(params, into); err != nil {
		return invalidParams("a parameter has the wrong type")
	}
	return nil
}

// invalidParams is -32602 with the contract's invalid_arguments object.
func invalidParams(message string) *RPCError {
	return &RPCError{Code: CodeInvalidParams, Message: "invalid params: " + message,
		Data: engine.Errf(engine.CodeInvalidArguments, "%s", message).Body()}
}
