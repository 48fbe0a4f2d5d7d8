package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Code is an error code of the table in docs/error-codes.md. Its value is the
// wire string, so a code can never drift between Go and JSON.
type Code string

// Retry is an error's disposition: whether and when the same call may be sent again.
type Retry string

// Dispositions, as the contract names them on the wire.
const (
	RetrySafe         Retry = "safe"
	RetryUnsafe       Retry = "unsafe"
	RetryAfterRefresh Retry = "after_refresh"
	RetryNever        Retry = "never"
)

// The error codes. Every code the driver can emit is declared here and in
// codeTable below, and nowhere else; docs/error-codes.md lists the same rows
// and a test keeps the three in step.
const (
	CodeInvalidArguments       Code = "invalid_arguments"
	CodeNoSession              Code = "no_session"
	CodeConsentDenied          Code = "consent_denied"
	CodeConsentExpired         Code = "consent_expired"
	CodeAppNotApproved         Code = "app_not_approved"
	CodeCapabilityNotConsented Code = "capability_not_consented"
	CodeApprovalDenied         Code = "approval_denied"
	CodeRequiresTakeover       Code = "requires_takeover"
	CodeUserTookOver           Code = "user_took_over"
	CodeSessionRevoked         Code = "session_revoked"
	CodeWindowTargetNotFound   Code = "window_target_not_found"
	CodeAmbiguousTarget        Code = "ambiguous_target"
	CodeAmbiguousWindowTarget  Code = "ambiguous_window_target"
	CodeWindowGone             Code = "window_gone"
	CodeStaleElementToken      Code = "stale_element_token"
	CodeSecureField            Code = "secure_field"
	CodeSensitiveText          Code = "sensitive_text"
	CodeNotActionable          Code = "not_actionable"
	CodeElementDisabled        Code = "element_disabled"
	CodeOccluded               Code = "occluded"
	CodeFocusChanged           Code = "focus_changed"
	CodeAppNotResponding       Code = "app_not_responding"
	CodeRateLimited            Code = "rate_limited"
	CodeBusy                   Code = "busy"
	CodeClipboardUnavailable   Code = "clipboard_unavailable"
	CodeBackendUnavailable     Code = "backend_unavailable"
	CodeUnsupported            Code = "unsupported"
	CodeInternal               Code = "internal"
	CodeUnknownMethod          Code = "unknown_method"
)

// CodeInfo is one row of the table: how a host may retry, and the one fixed
// sentence the model is told. The suggestion is never built from app text, so
// an app cannot steer the model through an error.
type CodeInfo struct {
	Code       Code
	Retry      Retry
	Suggestion string
}

var codeTable = []CodeInfo{
	{CodeInvalidArguments, RetryNever, "Fix the arguments as the tool's input schema describes and call again."},
	{CodeNoSession, RetryAfterRefresh, "Call start_session with the apps you need first."},
	{CodeConsentDenied, RetryNever, "The person said no; ask them in conversation before requesting access again."},
	{CodeConsentExpired, RetryAfterRefresh, "The lease ended; call start_session again to ask the person for a new one."},
	{CodeAppNotApproved, RetryNever, "Add this app to start_session's apps and let the person approve it first."},
	{CodeCapabilityNotConsented, RetryNever, "Ask for this capability in start_session and wait for the person and the host to allow it."},
	{CodeApprovalDenied, RetryNever, "The host declined this call; ask the person how to proceed."},
	{CodeRequiresTakeover, RetryNever, "Use an accessibility path with an element_token, or call start_session with input takeover and let the person allow it."},
	{CodeUserTookOver, RetryNever, "The person took control. Wait for them to click Continue, then start again."},
	{CodeSessionRevoked, RetryNever, "The session was ended by the person or the host; do not act again unless they ask you to."},
	{CodeWindowTargetNotFound, RetryAfterRefresh, "Call list_windows and target a window that is open and approved."},
	{CodeAmbiguousTarget, RetryNever, "Pick one of the candidates and call again with its pid and window_id."},
	{CodeAmbiguousWindowTarget, RetryNever, "Name the window with window_id, pid or app; the candidates list the approved windows."},
	{CodeWindowGone, RetryAfterRefresh, "The window closed; call list_windows to find what is open now."},
	{CodeStaleElementToken, RetryAfterRefresh, "Call get_window_state again and use a token from the new read."},
	{CodeSecureField, RetryNever, "Secure fields are for the person to fill in; ask them to do it."},
	{CodeSensitiveText, RetryNever, "The text looks like a credential; ask the person to enter it themselves."},
	{CodeNotActionable, RetryNever, "This element has no accessibility action for that; try another element or ask for a visible takeover."},
	{CodeElementDisabled, RetryAfterRefresh, "The element is disabled or hidden; read the window again and act on what is enabled."},
	{CodeOccluded, RetryAfterRefresh, "Another window covers the point; bring the target to front, read again and retry."},
	{CodeFocusChanged, RetryUnsafe, "Focus moved during the act; read the window to see what happened before acting again."},
	{CodeAppNotResponding, RetryUnsafe, "The app did not answer in time; read the window to see its state before acting again."},
	{CodeRateLimited, RetrySafe, "Wait a moment, then send the same call again."},
	{CodeBusy, RetrySafe, "This session is already running an act, or as many waits as it may; wait for one to finish, then call again."},
	{CodeClipboardUnavailable, RetryNever, "The clipboard holds no text the driver can read; ask the person to copy text first."},
	{CodeBackendUnavailable, RetryNever, "The desktop cannot be reached; ask the person to run nish-driver doctor and follow its steps."},
	{CodeUnsupported, RetryNever, "This platform has no way to do that; use another tool."},
	{CodeInternal, RetryUnsafe, "Something failed inside the driver; read the window before acting again."},
	{CodeUnknownMethod, RetryNever, "Use one of the methods the hello reply lists."},
}

var codeIndex = func() map[Code]CodeInfo {
	m := make(map[Code]CodeInfo, len(codeTable))
	for _, c := range codeTable {
		if _, dup := m[c.Code]; dup {
			panic("engine: duplicate error code " + string(c.Code))
		}
		m[c.Code] = c
	}
	return m
}()

// Escalation recommends another input mode when the current one cannot act.
type Escalation struct {
	Recommend string `json:"recommend"`
	Reason    string `json:"reason"`
}

// Candidate is one approved window offered when a target is ambiguous. App is
// untrusted app text: escaped and cut before it gets here.
type Candidate struct {
	WindowID uint64 `json:"window_id"`
	Pid      int    `json:"pid"`
	App      string `json:"app"`
}

// Error is an engine error carrying a table code. The backend returns these
// too, so one function (Envelope) turns any failure into the contract's shape.
type Error struct {
	Code    Code
	Message string

	Candidates          []Candidate
	CandidatesTruncated bool
	Escalation          *Escalation
	Effect              Effect // refused or stopped where the contract asks for it
	TypedCharacters     *int
	PausedReason        PauseReason

	cause error
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap exposes the underlying cause for errors.Is / errors.As; the cause is
// never shown to the model.
func (e *Error) Unwrap() error { return e.cause }

// Errf makes an error with a code. The message must be one line and must not
// quote application text; it may name bounded identifiers (pid, window id,
// token, a count).
func Errf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: oneLine(fmt.Sprintf(format, args...))}
}

// Wrap attaches a cause (for logs and tests) to a coded error.
func Wrap(code Code, cause error, format string, args ...any) *Error {
	e := Errf(code, format, args...)
	e.cause = cause
	return e
}

// AsError is the one place an error gets its table code:
//   - a failure marked late by inBound (a backend call whose bound had
//     ended, and which gave no code of its own) is app_not_responding;
//   - a coded error, anywhere in err's chain, keeps its code;
//   - anything else is internal.
//
// A bound also ends when the caller cancels the call. A call its host
// cancelled gets no reply, and one whose session ended answers as the end
// says (callscope.go), so app_not_responding reaches a model only when the
// app really did not answer within the bound.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var late *lateError
	if errors.As(err, &late) {
		return Wrap(CodeAppNotResponding, late.cause, "the app did not answer in time")
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Wrap(CodeInternal, err, "unexpected failure in the driver")
}

// inBound marks err, the failure of a backend call made under bound (its
// timeout context), as late when the bound had ended by then and err is
// not coded anywhere in its chain (a coded error wrapped with %w keeps its
// code); AsError then makes it app_not_responding.
func inBound(bound context.Context, err error) error {
	var coded *Error
	if err == nil || bound.Err() == nil || errors.As(err, &coded) {
		return err
	}
	return &lateError{cause: err}
}

// lateError is a backend failure that came after the call's bound ended.
type lateError struct{ cause error }

func (e *lateError) Error() string { return "late: " + e.cause.Error() }
func (e *lateError) Unwrap() error { return e.cause }

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// Disposition is the wire form of a retry rule.
type Disposition struct {
	Retry Retry `json:"retry"`
}

// ErrorBody is the contract's error object (docs/contract.md#error-envelope).
type ErrorBody struct {
	Code                Code        `json:"code"`
	Message             string      `json:"message"`
	Disposition         Disposition `json:"disposition"`
	Suggestion          string      `json:"suggestion"`
	Candidates          []Candidate `json:"candidates,omitempty"`
	CandidatesTruncated bool        `json:"candidates_truncated,omitempty"`
	Escalation          *Escalation `json:"escalation,omitempty"`
	Effect              Effect      `json:"effect,omitempty"`
	TypedCharacters     *int        `json:"typed_characters,omitempty"`
	PausedReason        PauseReason `json:"paused_reason,omitempty"`
}

// Envelope is the structuredContent of a failed call.
type Envelope struct {
	OK    bool      `json:"ok"`
	Error ErrorBody `json:"error"`
}

// Body renders the error object. A code missing from the table is a bug and
// is reported as internal rather than emitted.
func (e *Error) Body() ErrorBody {
	info, ok := codeIndex[e.Code]
	if !ok {
		return Errf(CodeInternal, "undeclared error code").Body()
	}
	return ErrorBody{
		Code:                e.Code,
		Message:             e.Message,
		Disposition:         Disposition{Retry: info.Retry},
		Suggestion:          info.Suggestion,
		Candidates:          e.Candidates,
		CandidatesTruncated: e.CandidatesTruncated,
		Escalation:          e.Escalation,
		Effect:              e.Effect,
		TypedCharacters:     e.TypedCharacters,
		PausedReason:        e.PausedReason,
	}
}

// Envelope renders the structuredContent of a failed call.
func (e *Error) Envelope() Envelope { return Envelope{OK: false, Error: e.Body()} }

// Text renders the MCP text of a failed call:
// "<code>: <message> [retry: <disposition>] <suggestion>".
func (e *Error) Text() string {
	b := e.Body()
	return fmt.Sprintf("%s: %s [retry: %s] %s", b.Code, b.Message, b.Disposition.Retry, b.Suggestion)
}
