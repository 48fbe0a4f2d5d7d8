package engine

import (
	"context"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine/audit"
)

// The clipboard (docs/contract.md#clipboard). clipboard_read has capability
// consent "separate": its own dialog line plus the host's approval for every
// call, so with no control pipe there is no host and it is refused.
// clipboard_write is an act with session consent. Credential-looking text is
// refused both ways, and the audit log records only lengths.

const maxClipboardWrite = 100000

func clipboardRead(ctx context.Context, c *Conn, a *Args) Result {
	s, err := c.sessionFor()
	if err != nil {
		return Failure(err)
	}
	if err := s.checkLease(); err != nil {
		return Failure(err)
	}
	s.mu.Lock()
	allowed := s.caps.ClipboardRead
	s.mu.Unlock()
	if !allowed {
		return Failure(Errf(CodeCapabilityNotConsented, "clipboard reading was not allowed in this session"))
	}
	h := c.d.host()
	if h == nil {
		return Failure(Errf(CodeCapabilityNotConsented, "clipboard reading needs a host to approve each read"))
	}
	if err := h.Approve(ctx, ApprovalRequest{Session: s.id, Tool: "clipboard_read", Description: "read the clipboard"}); err != nil {
		return Failure(AsError(err))
	}
	cctx, cancel := c.d.callBound(ctx)
	defer cancel()
	text, rerr := c.d.backend.ClipboardRead(cctx)
	if rerr != nil {
		return Failure(AsError(inBound(cctx, rerr)))
	}
	n := utf8.RuneCountInString(text)
	c.d.audit(audit.Record{Event: "clipboard", Session: s.id, Op: "read", Length: &n})
	if looksSensitive(text) {
		return Failure(Errf(CodeSensitiveText, "the clipboard holds text that looks like a credential"))
	}
	return Result{Structured: ClipboardReadResult{OK: true, Text: text, Length: n}, Text: text}
}

func clipboardWrite(ctx context.Context, c *Conn, a *Args) Result {
	s, err := c.actSession()
	if err != nil {
		return Failure(err)
	}
	text, ok, aerr := a.String("text", maxClipboardWrite)
	if aerr != nil {
		return Failure(aerr)
	}
	if !ok {
		return Failure(Errf(CodeInvalidArguments, "text is required"))
	}
	s.mu.Lock()
	allowed := s.caps.ClipboardWrite
	s.mu.Unlock()
	if !allowed {
		return Failure(Errf(CodeCapabilityNotConsented, "clipboard writing was not asked for in start_session"))
	}
	if looksSensitive(text) {
		return Failure(Errf(CodeSensitiveText, "the text looks like a credential"))
	}
	if !s.acting.TryLock() {
		return Failure(Errf(CodeBusy, "another act of this session is running"))
	}
	defer s.acting.Unlock()
	if !s.bucket.take() {
		return Failure(Errf(CodeRateLimited, "too many acts in a short time"))
	}
	if h := c.d.host(); h != nil && !h.Policy().PreApproved["clipboard_write"] {
		if err := h.Approve(ctx, ApprovalRequest{Session: s.id, Tool: "clipboard_write", Description: "write the clipboard"}); err != nil {
			return Failure(AsError(err))
		}
	}
	cctx, cancel := c.d.callBound(ctx)
	defer cancel()
	release, werr := c.d.backend.ClipboardWrite(cctx, text)
	if werr != nil {
		return Failure(AsError(inBound(cctx, werr)))
	}
	s.mu.Lock()
	old := s.clipRelease
	s.clipRelease = release
	s.mu.Unlock()
	if old != nil {
		old()
	}
	n := utf8.RuneCountInString(text)
	c.d.audit(audit.Record{Event: "clipboard", Session: s.id, Op: "write", Length: &n})
	effect := EffectChanged
	if got, err := c.d.backend.ClipboardRead(cctx); err == nil && got == text {
		effect = EffectConfirmed
	}
	res := ActResult{OK: true, Effect: effect, Verified: effect == EffectConfirmed, Path: PathClipboard}
	return Result{Structured: &res, Text: actText(&res)}
}
