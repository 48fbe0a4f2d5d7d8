package engine

import (
	"context"
	"strings"
	"time"
)

// click, double_click and right_click: an accessibility action headless;
// real button presses in takeover (x,y or delivery_mode "foreground").

// Action names tried, in order, for each kind of click. After the names
// the toolkits share, those the browsers give page elements: a check box
// says "check" or "uncheck" (the click it would get), an option "select",
// a button with a popup "open", and Chromium names a plain element's click
// "doDefault". The right-click names include Chromium's and Firefox's
// "showContextMenu".
var (
	clickActions  = []string{"click", "press", "activate", "toggle", "jump", "check", "uncheck", "select", "open", "doDefault"}
	doubleActions = []string{"activate", "double_click", "doubleclick"}
	menuActions   = []string{"showMenu", "show_menu", "menu", "popup", "show-menu", "showContextMenu"}
)

// parsePoint reads an optional x,y pair in window coordinates.
func parsePoint(a *Args, xName, yName string) (Point, bool, *Error) {
	x, hasX, err := a.Int(xName, -100000, 100000)
	if err != nil {
		return Point{}, false, err
	}
	y, hasY, err := a.Int(yName, -100000, 100000)
	if err != nil {
		return Point{}, false, err
	}
	if hasX != hasY {
		return Point{}, false, Errf(CodeInvalidArguments, "%s and %s go together", xName, yName)
	}
	return Point{X: int(x), Y: int(y)}, hasX, nil
}

func parseDelivery(a *Args) (bool, *Error) {
	v, _, err := a.Enum("delivery_mode", "background", "foreground")
	return v == "foreground", err
}

func clickSpec(actions []string, button, count int) actSpec {
	return func(x *act) (func(context.Context) *Error, *Error) {
		pt, hasPt, err := parsePoint(x.a, "x", "y")
		if err != nil {
			return nil, err
		}
		fg, err := parseDelivery(x.a)
		if err != nil {
			return nil, err
		}
		x.synth = hasPt || fg
		if !hasPt && x.token == nil {
			return nil, Errf(CodeInvalidArguments, "%s needs element_token, or x and y in a takeover session", x.tool)
		}
		return func(ctx context.Context) *Error {
			if !x.synth {
				name := firstAction(x.node, actions)
				if name == "" && x.readActionsAgain(ctx) {
					name = firstAction(x.node, actions)
				}
				if name == "" {
					return notActionable(x, "the element has no "+x.tool+" action")
				}
				x.confirmToggle()
				x.path, x.action = PathAction, name
				err := x.doAction(ctx, name)
				if err != nil && err.Code == CodeNotActionable && x.readActionsAgain(ctx) {
					// The element renamed its actions since the read (a
					// browser's check box says "uncheck" once checked):
					// act by what it offers now, once.
					if again := firstAction(x.node, actions); again != "" && again != name {
						x.action = again
						err = x.doAction(ctx, again)
					}
				}
				return err
			}
			p, err := x.point(pt, hasPt)
			if err != nil {
				return err
			}
			if err := x.checkPoint(ctx, p); err != nil {
				return err
			}
			if !hasPt {
				if err := x.hitTest(ctx, p, x.pos, x.token.Index); err != nil {
					return err
				}
				// Aimed at an element: the settled read must show the
				// click there, not on another element (finish).
				x.aimed = true
				x.confirmToggle()
			}
			x.path, x.tookCursor = PathXTest, true
			if err := x.s.synth(ctx, InputEvent{Kind: InputMotion, At: p}); err != nil {
				return err
			}
			return x.s.pressButton(ctx, button, count)
		}, nil
	}
}

// pressButton presses and releases a button times times where the pointer
// is, each event passing the hand-back check.
func (s *Session) pressButton(ctx context.Context, button, times int) *Error {
	for i := 0; i < times; i++ {
		if err := s.synth(ctx, InputEvent{Kind: InputButtonPress, Button: button}); err != nil {
			return err
		}
		if err := s.synth(ctx, InputEvent{Kind: InputButtonRelease, Button: button}); err != nil {
			return err
		}
	}
	return nil
}

// callElement runs a semantic backend call within the call bound.
func (d *Driver) callElement(ctx context.Context, f func(context.Context) error) *Error {
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	if err := f(cctx); err != nil {
		return AsError(inBound(cctx, err))
	}
	return nil
}

// firstAction returns the first of names the element has. Names are
// matched without regard to case, and the element's own spelling
// is returned (the one its app acts by): Qt names its actions "Press",
// "Toggle", "ShowMenu".
func firstAction(n *Node, names []string) string {
	for _, want := range names {
		for _, have := range n.Actions {
			if strings.EqualFold(have, want) {
				return have
			}
		}
	}
	return ""
}

func isToggle(n *Node) bool {
	switch n.Role {
	case "check_box", "toggle_button", "radio_button", "check_menu_item", "radio_menu_item", "switch":
		return true
	}
	return false
}

// notActionable refuses an act with no semantic path and recommends a
// takeover, or foreground delivery when the session already has one.
func notActionable(x *act, reason string) *Error {
	e := Errf(CodeNotActionable, "%s", reason)
	rec := "takeover"
	if x.s.inTakeover() {
		rec = "foreground"
	}
	e.Escalation = &Escalation{Recommend: rec, Reason: "no accessibility path for " + x.tool}
	return e
}

// point turns a token's element or window coordinates into a root point.
// Both are device pixels: the window's x,y are the pixels of its capture,
// and an element's frame is in root device pixels (Node.Frame).
func (x *act) point(p Point, has bool) (Point, *Error) {
	if has {
		return Point{X: x.win.Frame.X + p.X, Y: x.win.Frame.Y + p.Y}, nil
	}
	if x.node == nil {
		return Point{}, Errf(CodeInvalidArguments, "%s needs element_token or x and y", x.tool)
	}
	if x.node.Frame.Empty() {
		return Point{}, Errf(CodeElementDisabled, "element %d has no area on screen", x.token.Index)
	}
	return x.node.Frame.Center(), nil
}

// checkPoint is the scope and occlusion check for a takeover point: it
// lies in the target window, and that window is topmost there.
func (x *act) checkPoint(ctx context.Context, p Point) *Error {
	if !x.win.Frame.Contains(p) {
		return Errf(CodeInvalidArguments, "the point lies outside window %d", x.win.ID)
	}
	top, err := x.s.d.backend.TopmostAt(ctx, p)
	if err != nil {
		return AsError(err)
	}
	if top != x.win.ID {
		return Errf(CodeOccluded, "another window covers the point in window %d", x.win.ID)
	}
	return nil
}

// bringToFrontSpec raises and focuses the window: synthetic input, so
// takeover only.
func bringToFrontSpec(x *act) (func(context.Context) *Error, *Error) {
	x.synth = true
	return func(ctx context.Context) *Error {
		if err := x.s.handbackCheck(ctx); err != nil {
			return err
		}
		x.path = PathXTest
		return x.s.d.callElement(ctx, func(cctx context.Context) error { return x.s.d.backend.Raise(cctx, x.win.ID) })
	}, nil
}

func scrollSpec() actSpec {
	return func(x *act) (func(context.Context) *Error, *Error) {
		x.synth = true
		pt, hasPt, err := parsePoint(x.a, "x", "y")
		if err != nil {
			return nil, err
		}
		dir, ok, err := x.a.Enum("direction", "up", "down", "left", "right")
		if err != nil {
			return nil, err
		} else if !ok {
			return nil, Errf(CodeInvalidArguments, "direction is required: up, down, left or right")
		}
		amount, err := x.a.IntOr("amount", 1, 50, 3)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) *Error {
			var p Point
			if !hasPt && x.node == nil {
				p = x.win.Frame.Center()
			} else {
				var err *Error
				if p, err = x.point(pt, hasPt); err != nil {
					return err
				}
			}
			if err := x.checkPoint(ctx, p); err != nil {
				return err
			}
			if !hasPt && x.node != nil {
				if err := x.hitTest(ctx, p, x.pos, x.token.Index); err != nil {
					return err
				}
			}
			button := map[string]int{"up": 4, "down": 5, "left": 6, "right": 7}[dir]
			x.path, x.tookCursor = PathXTest, true
			if err := x.s.synth(ctx, InputEvent{Kind: InputMotion, At: p}); err != nil {
				return err
			}
			return x.s.pressButton(ctx, button, int(amount))
		}, nil
	}
}

func dragSpec() actSpec {
	return func(x *act) (func(context.Context) *Error, *Error) {
		x.synth = true
		from, hasFrom, err := parsePoint(x.a, "from_x", "from_y")
		if err != nil {
			return nil, err
		}
		to, hasTo, err := parsePoint(x.a, "to_x", "to_y")
		if err != nil {
			return nil, err
		}
		fromTok, err := x.a.Token("from_token")
		if err != nil {
			return nil, err
		}
		toTok, err := x.a.Token("to_token")
		if err != nil {
			return nil, err
		}
		if (!hasFrom && fromTok == nil) || (!hasTo && toTok == nil) {
			return nil, Errf(CodeInvalidArguments, "drag needs a start (from_token or from_x,from_y) and an end (to_token or to_x,to_y)")
		}
		// The window comes from a token when one is given.
		if x.token == nil {
			if fromTok != nil {
				x.token = fromTok
			} else if toTok != nil {
				x.token = toTok
			}
		}
		return func(ctx context.Context) *Error {
			ends := [2]Point{}
			aims := [2]struct{ pos, idx int }{{-1, 0}, {-1, 0}}
			for i, e := range []struct {
				p   Point
				has bool
				tok *Token
			}{{from, hasFrom, fromTok}, {to, hasTo, toTok}} {
				if e.has {
					ends[i] = Point{X: x.win.Frame.X + e.p.X, Y: x.win.Frame.Y + e.p.Y}
					continue
				}
				pos, err := x.s.resolveToken(*e.tok, x.pre)
				if err != nil {
					return err
				}
				if err := x.pre.fill(ctx, x.s.d, []int{pos}); err != nil {
					return err
				}
				if x.pre.tree.Nodes[pos].Frame.Empty() {
					return Errf(CodeElementDisabled, "element %d has no area on screen", e.tok.Index)
				}
				ends[i] = x.pre.tree.Nodes[pos].Frame.Center()
				aims[i].pos, aims[i].idx = pos, e.tok.Index
			}
			for i, p := range ends {
				if !x.win.Frame.Contains(p) {
					return Errf(CodeInvalidArguments, "a drag must start and end inside window %d", x.win.ID)
				}
				if err := x.checkPoint(ctx, p); err != nil {
					return err
				}
				// Both ends are checked before the press: the drop
				// target must be where the read saw it too.
				if err := x.hitTest(ctx, p, aims[i].pos, aims[i].idx); err != nil {
					return err
				}
			}
			x.path, x.tookCursor = PathXTest, true
			if err := x.s.synth(ctx, InputEvent{Kind: InputMotion, At: ends[0]}); err != nil {
				return err
			}
			if err := x.s.synth(ctx, InputEvent{Kind: InputButtonPress, Button: 1}); err != nil {
				return err
			}
			const steps = 10
			for i := 1; i <= steps; i++ {
				p := Point{X: ends[0].X + (ends[1].X-ends[0].X)*i/steps, Y: ends[0].Y + (ends[1].Y-ends[0].Y)*i/steps}
				if err := x.s.synth(ctx, InputEvent{Kind: InputMotion, At: p}); err != nil {
					return err
				}
				if err := sleepCtx(ctx, 10*time.Millisecond); err != nil {
					return err
				}
			}
			return x.s.synth(ctx, InputEvent{Kind: InputButtonRelease, Button: 1})
		}, nil
	}
}

func moveSpec() actSpec {
	return func(x *act) (func(context.Context) *Error, *Error) {
		x.synth = true
		pt, has, err := parsePoint(x.a, "x", "y")
		if err != nil {
			return nil, err
		}
		if !has {
			return nil, Errf(CodeInvalidArguments, "move_cursor needs x and y")
		}
		scope, _, err := x.a.Enum("scope", "window", "desktop")
		if err != nil {
			return nil, err
		}
		desktop := scope == "desktop"
		duration, _, err := x.a.Int("duration_ms", 0, 10000)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) *Error {
			target := pt
			if !desktop {
				target = Point{X: x.win.Frame.X + pt.X, Y: x.win.Frame.Y + pt.Y}
				if !x.win.Frame.Contains(target) {
					return Errf(CodeInvalidArguments, "the point lies outside window %d; use scope desktop to leave it", x.win.ID)
				}
			}
			x.path, x.tookCursor = PathXTest, true
			start, err := x.s.d.backend.Pointer(ctx)
			if err != nil {
				return AsError(err)
			}
			steps := int(duration / 10)
			if steps < 1 {
				steps = 1
			}
			for i := 1; i <= steps; i++ {
				p := Point{X: start.X + (target.X-start.X)*i/steps, Y: start.Y + (target.Y-start.Y)*i/steps}
				if err := x.s.synth(ctx, InputEvent{Kind: InputMotion, At: p}); err != nil {
					return err
				}
				if i < steps {
					if err := sleepCtx(ctx, 10*time.Millisecond); err != nil {
						return err
					}
				}
			}
			return nil
		}, nil
	}
}

func sleepCtx(ctx context.Context, d time.Duration) *Error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return Errf(CodeAppNotResponding, "the call was cancelled")
	case <-t.C:
		return nil
	}
}

// readActionsAgain reads the target's action names once more, live, when
// the read it came from listed none of the actions wanted: Firefox answers
// the first question about a page element's actions with none while it is
// still building them, an element may have gained an action since, and a
// refusal then would be wrong. It reports whether a fresh read was made;
// x.node becomes the node with those actions.
func (x *act) readActionsAgain(ctx context.Context) bool {
	if x.node == nil {
		return false
	}
	n := *x.node
	n.Actions = nil
	cctx, cancel := x.s.d.callBound(ctx)
	defer cancel()
	if x.s.d.backend.ReadActions(cctx, x.win.ID, []*Node{&n}) != nil {
		return false
	}
	x.node = &n
	return true
}

// doAction runs one accessibility action on the act's element.
func (x *act) doAction(ctx context.Context, name string) *Error {
	return x.s.d.callElement(ctx, func(cctx context.Context) error {
		return x.s.d.backend.DoAction(cctx, ElementRef{Window: x.win.ID, ID: x.node.ID}, name)
	})
}

// confirmToggle makes a click on a toggle (a check box, a toggle button,
// a radio button) confirmed by its checked state flipping in the settled
// read.
func (x *act) confirmToggle() {
	if !isToggle(x.node) || x.tool != "click" {
		return
	}
	was := x.node.HasState("checked")
	idx := x.token.Index
	x.confirm = func(post *snapshot) bool {
		p, ok := post.pos[idx]
		return ok && post.tree.Nodes[p].HasState("checked") != was
	}
}
