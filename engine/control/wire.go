package control

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/nish-driver/nish-driver/engine"
)

// The host's methods.
const (
	MethodTakeoverResume = "takeover.resume"
	MethodSessionRevoke  = "session.revoke"
	MethodApprovalAnswer = "approval.answer"
	MethodApprovalPolicy = "approval.policy"
)

// The driver's own line kinds (the engine's events ride in engine.HostEvent).
const (
	EventAck             = "ack"
	EventError           = "error"
	EventApprovalRequest = "approval.request"
)

// Bounds on what the host may send inside a line.
const (
	maxIDLen       = 64  // a request or approval id
	maxSessionLen  = 128 // a session id
	maxPreApproved = 64  // tools in one policy
)

// request is one host → driver line.
type request struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	ID     json.RawMessage `json:"id"`
}

type sessionParams struct {
	Session *string `json:"session"`
}

type answerParams struct {
	ID    *string `json:"id"`
	Allow *bool   `json:"allow"`
}

type policyParams struct {
	ApproveReads *bool    `json:"approve_reads"`
	PreApproved  []string `json:"pre_approved"`
}

// Driver → host lines. Lists are never omitted, so a host always finds them.

type resumeAck struct {
	Event   string          `json:"event"`
	Method  string          `json:"method"`
	ID      json.RawMessage `json:"id,omitempty"`
	Resumed []string        `json:"resumed"`
}

type revokeAck struct {
	Event   string          `json:"event"`
	Method  string          `json:"method"`
	ID      json.RawMessage `json:"id,omitempty"`
	Revoked []string        `json:"revoked"`
	AtMs    int64           `json:"at_ms"`
}

type answerAck struct {
	Event  string          `json:"event"`
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id,omitempty"`
	// Matched: the answer reached a waiting approval (false when it came
	// after the timeout, or named no approval).
	Matched bool `json:"matched"`
}

type policyAck struct {
	Event        string          `json:"event"`
	Method       string          `json:"method"`
	ID           json.RawMessage `json:"id,omitempty"`
	ApproveReads bool            `json:"approve_reads"`
	PreApproved  []string        `json:"pre_approved"`
}

type errorLine struct {
	Event  string           `json:"event"`
	Method string           `json:"method,omitempty"` // only one of ours, never the host's text
	ID     json.RawMessage  `json:"id,omitempty"`
	Error  engine.ErrorBody `json:"error"`
}

type approvalRequest struct {
	Event       string              `json:"event"`
	ID          string              `json:"id"`
	Session     string              `json:"session"`
	Tool        string              `json:"tool"`
	Description string              `json:"description"`
	Observe     *engine.ObserveSpec `json:"observe,omitempty"`
}

// echoID checks a request id: absent or null is nil, a string of at most
// maxIDLen bytes or a short number is echoed as it is, anything else is an
// error. Bounding it is what makes it safe to send back.
func echoID(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil || len(s) > maxIDLen {
			return nil, false
		}
		b, _ := json.Marshal(s)
		return b, true
	default:
		if len(raw) > 24 {
			return nil, false
		}
		if _, err := strconv.ParseFloat(string(raw), 64); err != nil {
			return nil, false
		}
		return append(json.RawMessage(nil), raw...), true
	}
}
