package engine

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// Window targets (docs/contract.md#window-targets). Every window tool takes
// window_id, pid or app (a name or title fragment). Each field given is a
// filter, and a window is named only when it passes all of them (named).
// Only approved apps' visible windows are considered: one match is used,
// several are ambiguous_target (with a pid, its topmost is used), none is
// window_target_not_found, and no target at all is
// ambiguous_window_target. Both ambiguous codes carry at most 8 candidates
// of approved apps.

const maxCandidates = 8

// windows lists visible windows within the call bound, topmost first,
// and apart from them the apps that did not answer the listing
// (Window.NotAnswering).
func (d *Driver) windows(ctx context.Context) (wins, silent []Window, err *Error) {
	return d.listWindows(ctx, d.backend.Windows)
}

// windowsFor lists the windows a target is looked for in: without app
// names when the target needs none (a window id or a pid).
func (d *Driver) windowsFor(ctx context.Context, t targetArgs) (wins, silent []Window, err *Error) {
	if t.hasApp || !(t.hasWindowID || t.hasPid) {
		return d.windows(ctx)
	}
	return d.listWindows(ctx, d.backend.WindowsWithoutNames)
}

// listWindows runs one of the backend's window lists within the call
// bound and orders it topmost first. The apps that did not answer it are
// returned apart, in silent: they are no windows.
func (d *Driver) listWindows(ctx context.Context, list func(context.Context) ([]Window, error)) (wins, silent []Window, _ *Error) {
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	all, err := list(cctx)
	if err != nil {
		return nil, nil, AsError(inBound(cctx, err))
	}
	for _, w := range all {
		if w.NotAnswering {
			silent = append(silent, w)
		} else {
			wins = append(wins, w)
		}
	}
	slices.SortStableFunc(wins, byStacking)
	return wins, silent, nil
}

// notAnswering is the error of a target that names no window but an app
// that did not answer the listing: the app is there, so "no window" would
// be a false claim (docs/contract.md#window-targets).
func notAnswering(what string) *Error {
	return Errf(CodeAppNotResponding, "%s is running but did not answer in time", what)
}

// silentPid reports whether pid is one of the apps that did not answer.
func silentPid(silent []Window, pid int64) bool {
	return slices.ContainsFunc(silent, func(w Window) bool { return int64(w.Pid) == pid })
}

// silentApp reports whether an app that did not answer has that name.
func silentApp(silent []Window, name string) bool {
	return slices.ContainsFunc(silent, func(w Window) bool { return w.App != "" && strings.EqualFold(w.App, name) })
}

// byStacking orders windows topmost first.
func byStacking(a, b Window) int { return cmp.Compare(a.Stacking, b.Stacking) }

// targetArgs are the window target arguments of a call.
type targetArgs struct {
	windowID, pid int64
	app           string
	hasWindowID   bool
	hasPid        bool
	hasApp        bool
}

func parseTarget(a *Args) (targetArgs, *Error) {
	var t targetArgs
	var err *Error
	if t.windowID, t.hasWindowID, err = a.Int("window_id", 1, 1<<53); err != nil {
		return t, err
	}
	if t.pid, t.hasPid, err = a.Int("pid", 1, 1<<31); err != nil {
		return t, err
	}
	if t.app, t.hasApp, err = a.String("app", 200); err != nil {
		return t, err
	}
	if t.hasApp && strings.TrimSpace(t.app) == "" {
		return t, Errf(CodeInvalidArguments, "app must not be empty")
	}
	return t, nil
}

func (t targetArgs) any() bool { return t.hasWindowID || t.hasPid || t.hasApp }

// resolveWindow finds the approved window a call targets and re-checks the
// app's process identity.
func (s *Session) resolveWindow(ctx context.Context, t targetArgs) (Window, *Error) {
	wins, silent, err := s.d.windowsFor(ctx, t)
	if err != nil {
		return Window{}, err
	}
	return s.resolveIn(ctx, t, wins, silent)
}

// tokenWindow resolves the window of a token's snapshot: a token names its
// window, and a target given with it (window_id, pid, app) must name it
// too (tokens.go's agrees). The snapshot must be this live session's
// (tokenSnapshot).
func (s *Session) tokenWindow(ctx context.Context, tok Token, t targetArgs) (Window, *snapshot, *Error) {
	sn, err := s.tokenSnapshot(tok)
	if err != nil {
		return Window{}, nil, err
	}
	own := targetArgs{windowID: int64(sn.window), hasWindowID: true}
	listing := own
	listing.hasApp = t.hasApp // an app target is matched by the windows' names
	wins, silent, err := s.d.windowsFor(ctx, listing)
	if err != nil {
		return Window{}, nil, err
	}
	for _, w := range wins {
		if w.ID == sn.window {
			if err := s.agrees(t, tok, w, wins); err != nil {
				return Window{}, nil, err
			}
		}
	}
	w, err := s.resolveIn(ctx, own, wins, silent)
	return w, sn, err
}

// resolveIn resolves a target among listed windows; silent are the apps
// that did not answer the listing.
func (s *Session) resolveIn(ctx context.Context, t targetArgs, wins, silent []Window) (Window, *Error) {
	approved := s.approvedOf(wins)
	if !t.any() {
		e := Errf(CodeAmbiguousWindowTarget, "no window target given; %d approved windows", len(approved))
		e.Candidates, e.CandidatesTruncated = candidates(approved)
		return Window{}, e
	}
	matches := t.named(approved, matchApp)
	var w Window
	switch {
	case len(matches) == 0 && s.silentTarget(t, silent):
		return Window{}, notAnswering("the app targeted")
	case len(matches) == 0:
		return Window{}, t.namesNone(wins)
	case len(matches) == 1 || t.hasPid:
		w = matches[0] // a pid means its topmost window; wins are topmost first
	default:
		e := Errf(CodeAmbiguousTarget, "%d approved windows match app", len(matches))
		e.Candidates, e.CandidatesTruncated = candidates(matches)
		return Window{}, e
	}
	if err := s.approvedIdentity(ctx, w.Pid); err != nil {
		return Window{}, err
	}
	if w.App == "" {
		// Listed without names (windowsFor): the name the person approved.
		s.mu.Lock()
		w.App = s.apps[w.Pid].name
		s.mu.Unlock()
	}
	return w, nil
}

// silentTarget reports whether a target that matched no window names an
// approved app that did not answer the listing: by its pid, or by its name
// when no pid or window id is given (a window id names a window, and a
// silent app lists none).
func (s *Session) silentTarget(t targetArgs, silent []Window) bool {
	switch {
	case t.hasWindowID:
		return false
	case t.hasPid:
		return silentPid(s.approvedOf(silent), t.pid)
	default:
		return silentApp(s.approvedOf(silent), t.app)
	}
}

// approvedOf keeps the windows of approved apps, in order.
func (s *Session) approvedOf(wins []Window) []Window {
	var out []Window
	for _, w := range wins {
		if s.isApproved(w.Pid) {
			out = append(out, w)
		}
	}
	return out
}

// named is the one rule of a target's fields: the windows among wins that
// pass every field given. window_id and pid must equal the window's; app
// must match it as match matches among wins (matchApp: exact names first,
// then a fragment of a name or a title). Fields that disagree (another
// app's window_id, a pid that is not the window's) name no window,
// whichever field comes first.
func (t targetArgs) named(wins []Window, match func([]Window, string) []Window) []Window {
	byApp := map[WindowID]bool{}
	if t.hasApp {
		for _, w := range match(wins, t.app) {
			byApp[w.ID] = true
		}
	}
	var out []Window
	for _, w := range wins {
		if (t.hasWindowID && uint64(w.ID) != uint64(t.windowID)) ||
			(t.hasPid && int64(w.Pid) != t.pid) ||
			(t.hasApp && !byApp[w.ID]) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// namesNone is the error of a target that names no approved window among
// wins: app_not_approved when it names windows of apps outside the
// session, else window_target_not_found. The message names the fields
// given, never app text. An app fragment names an app outside the session
// by its name alone (matchAppName): an unapproved app's titles are never
// shown, and a match on them would tell a model what they say.
func (t targetArgs) namesNone(wins []Window) *Error {
	outside := len(t.named(wins, matchAppName)) > 0
	switch {
	case outside && t.hasWindowID:
		return Errf(CodeAppNotApproved, "window %d belongs to an app outside this session", t.windowID)
	case outside && t.hasPid:
		return Errf(CodeAppNotApproved, "pid %d is not approved in this session", t.pid)
	case outside:
		return Errf(CodeAppNotApproved, "the matching app is outside this session")
	}
	var given []string
	for _, f := range []struct {
		has  bool
		name string
	}{{t.hasWindowID, "window_id"}, {t.hasPid, "pid"}, {t.hasApp, "app"}} {
		if f.has {
			given = append(given, f.name)
		}
	}
	switch {
	case len(given) > 1:
		last := len(given) - 1
		return Errf(CodeWindowTargetNotFound, "%s and %s given do not name one window",
			strings.Join(given[:last], ", "), given[last])
	case t.hasWindowID:
		return Errf(CodeWindowTargetNotFound, "no visible window %d", t.windowID)
	case t.hasPid:
		return Errf(CodeWindowTargetNotFound, "no visible window of pid %d", t.pid)
	}
	return Errf(CodeWindowTargetNotFound, "no approved window matches app")
}

// matchApp prefers exact app-name matches; otherwise a case-insensitive
// fragment of the app name or the title.
func matchApp(wins []Window, q string) []Window {
	var exact, partial []Window
	lq := strings.ToLower(q)
	for _, w := range wins {
		switch {
		case strings.EqualFold(w.App, q):
			exact = append(exact, w)
		case strings.Contains(strings.ToLower(w.App), lq) || strings.Contains(strings.ToLower(shownTitle(w.Title)), lq):
			partial = append(partial, w)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return partial
}

// matchAppName is matchApp on app names alone.
func matchAppName(wins []Window, q string) []Window {
	var out []Window
	lq := strings.ToLower(q)
	for _, w := range wins {
		if strings.Contains(strings.ToLower(w.App), lq) {
			out = append(out, w)
		}
	}
	return out
}

func candidates(wins []Window) ([]Candidate, bool) {
	out := []Candidate{}
	for i, w := range wins {
		if i == maxCandidates {
			return out, true
		}
		out = append(out, Candidate{WindowID: uint64(w.ID), Pid: w.Pid, App: shownName(w.App)})
	}
	return out, false
}
