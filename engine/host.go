package engine

import "context"

// HostChannel is the control pipe as the engine sees it
// (docs/contract.md#control-pipe). The implementation (package
// engine/control) owns the wire protocol; the engine only emits events and
// asks for approvals. A nil HostChannel means the driver runs without a host:
// consent alone rules.
type HostChannel interface {
	// Emit sends one driver → host event. It never blocks for long: a host
	// that does not read loses events rather than stalling the driver.
	Emit(ev HostEvent)
	// Approve asks the host to allow one call and waits for its answer. A
	// denial or no answer within the approval timeout (60 s) is
	// approval_denied; the context's end is approval_denied too.
	Approve(ctx context.Context, req ApprovalRequest) error
	// Policy is the host's current approval policy.
	Policy() ApprovalPolicy
}

// HostEvent is one driver → host event line. Event names the kind
// (takeover.paused, takeover.resumed, takeover.ended, session.started,
// session.ended, kill_switch); the other fields ride along when set.
type HostEvent struct {
	Event   string `json:"event"`
	Session string `json:"session,omitempty"`
	Reason  string `json:"reason,omitempty"`
	By      string `json:"by,omitempty"`
	AtMs    int64  `json:"at_ms"`
}

// ApprovalRequest is the card the host shows for one call. Description is
// the driver's own words about the call (tool and target ids), never app
// text.
type ApprovalRequest struct {
	Session     string
	Tool        string
	Description string
	Observe     *ObserveSpec
}

// ObserveSpec is an act's observe argument.
type ObserveSpec struct {
	Tree       bool `json:"tree"`
	Screenshot bool `json:"screenshot"`
}

// ApprovalPolicy is what the host pre-approved.
type ApprovalPolicy struct {
	// ApproveReads: reads need the host's approval one by one (the default).
	ApproveReads bool
	// PreApproved tools need no approval (acts only; an act that observes
	// still asks while ApproveReads is on).
	PreApproved map[string]bool
}

// HostCommands is what the control pipe may ask of the engine. Nothing else
// the host or the model sends can resume a paused takeover.
type HostCommands interface {
	// TakeoverResume resumes the named paused session (all paused sessions
	// of this driver when session is empty) and returns those resumed.
	TakeoverResume(session string) []string
	// SessionRevoke ends the named session (all when empty) and returns
	// those revoked.
	SessionRevoke(session string) []string
	// MonotonicMs is the driver's monotonic clock, for at_ms.
	MonotonicMs() int64
}
