package native

import (
	"context"
	"errors"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// native/atspi knows nothing of the engine: it reads and acts in its own
// types and fails with its own errors. This file is where they become the
// engine's, and the only place that knows both.

// atspiCodes gives each kind of atspi failure its engine error code.
var atspiCodes = map[atspi.Kind]engine.Code{
	atspi.KindInternal:      engine.CodeInternal,
	atspi.KindUnavailable:   engine.CodeBackendUnavailable,
	atspi.KindGone:          engine.CodeWindowGone,
	atspi.KindStale:         engine.CodeStaleElementToken,
	atspi.KindNotResponding: engine.CodeAppNotResponding,
	atspi.KindRefused:       engine.CodeNotActionable,
	atspi.KindSecure:        engine.CodeSecureField,
	atspi.KindUnsupported:   engine.CodeUnsupported,
}

// answering is ctx with each answer of an app under it reported to the
// engine's call bound (engine.Answered), for a backend call that makes
// many accessibility calls: the engine then bounds it by the app's
// silence, not by its length (engine/callbound.go).
func answering(ctx context.Context) context.Context {
	return atspi.WithAnswerHook(ctx, func() { engine.Answered(ctx) })
}

// atspiErr turns a failure of native/atspi into an engine error: its kind
// decides the code, its fixed message (never app text) is kept, and the
// atspi error stays the cause. An engine error passes unchanged, so the
// function may wrap any result of the backend's own code too.
func atspiErr(err error) error {
	if err == nil {
		return nil
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		return ee
	}
	var ae *atspi.Error
	if !errors.As(err, &ae) {
		return engine.Wrap(engine.CodeInternal, err, "an accessibility call failed")
	}
	code, ok := atspiCodes[ae.Kind]
	if !ok {
		code = engine.CodeInternal
	}
	return engine.Wrap(code, err, "%s", ae.Message)
}

// atspiID is the atspi name of an element the engine names.
func atspiID(id engine.ElementID) atspi.ID { return atspi.ID(id) }

// elementIDs are the engine's names of elements atspi named.
func elementIDs(ids []atspi.ID) []engine.ElementID {
	if ids == nil {
		return nil
	}
	out := make([]engine.ElementID, len(ids))
	for i, id := range ids {
		out[i] = engine.ElementID(id)
	}
	return out
}

func rectFromAtspi(r atspi.Rect) engine.Rect { return engine.Rect{X: r.X, Y: r.Y, W: r.W, H: r.H} }

func rectToAtspi(r engine.Rect) atspi.Rect { return atspi.Rect{X: r.X, Y: r.Y, W: r.W, H: r.H} }

func rangeFromAtspi(r *atspi.Range) *engine.NumericRange {
	if r == nil {
		return nil
	}
	return &engine.NumericRange{Step: r.Step}
}

func rangeToAtspi(r *engine.NumericRange) *atspi.Range {
	if r == nil {
		return nil
	}
	return &atspi.Range{Step: r.Step}
}

func tableFromAtspi(s *atspi.TableSize) *engine.TableSize {
	if s == nil {
		return nil
	}
	return &engine.TableSize{Rows: s.Rows, Columns: s.Columns, FirstRow: s.FirstRow, LastRow: s.LastRow,
		FirstColumn: s.FirstColumn, LastColumn: s.LastColumn}
}

func tableToAtspi(s *engine.TableSize) *atspi.TableSize {
	if s == nil {
		return nil
	}
	return &atspi.TableSize{Rows: s.Rows, Columns: s.Columns, FirstRow: s.FirstRow, LastRow: s.LastRow,
		FirstColumn: s.FirstColumn, LastColumn: s.LastColumn}
}

// treeFromAtspi is an atspi read as the engine's tree of window w, its
// frames turned into device pixels by sc. A read with details has every
// node detailed.
func treeFromAtspi(t *atspi.Tree, w engine.WindowID, sc windowScale, detailed bool) *engine.Tree {
	out := &engine.Tree{Window: w, Truncated: t.Truncated, BlocksOnly: t.BlocksOnly, Nodes: make([]engine.Node, len(t.Nodes))}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		out.Nodes[i] = engine.Node{
			ID:            engine.ElementID(n.ID),
			Parent:        n.Parent,
			IndexInParent: n.IndexInParent,
			Depth:         n.Depth,
			Role:          n.Role,
			Name:          n.Name,
			Description:   n.Description,
			Value:         n.Value,
			HasValue:      n.HasValue,
			Numeric:       rangeFromAtspi(n.Numeric),
			States:        n.States,
			Actions:       n.Actions,
			ChildCount:    n.ChildCount,
			Frame:         sc.toDevice(saneFrame(rectFromAtspi(n.Frame))),
			Secure:        n.Secure,
			Editable:      n.Editable,
			Text:          n.Text,
			Table:         tableFromAtspi(n.Table),
			Detailed:      detailed,
		}
	}
	return out
}

// nodeToAtspi is an engine node as atspi takes it back, for Details and
// Refresh, which read into nodes of an earlier read in place.
func nodeToAtspi(n *engine.Node) atspi.Node {
	return atspi.Node{
		ID:            atspiID(n.ID),
		Parent:        n.Parent,
		IndexInParent: n.IndexInParent,
		Depth:         n.Depth,
		Role:          n.Role,
		Name:          n.Name,
		Description:   n.Description,
		Value:         n.Value,
		HasValue:      n.HasValue,
		Numeric:       rangeToAtspi(n.Numeric),
		States:        n.States,
		Actions:       n.Actions,
		ChildCount:    n.ChildCount,
		Frame:         rectToAtspi(n.Frame),
		Secure:        n.Secure,
		Editable:      n.Editable,
		Text:          n.Text,
		Table:         tableToAtspi(n.Table),
	}
}

// copyDetails stores what atspi's Details may have read into the engine
// node: the role and secure mark (a live re-check) and the details.
func copyDetails(dst *engine.Node, src *atspi.Node) {
	dst.Role, dst.Secure = src.Role, src.Secure
	dst.Value, dst.HasValue, dst.Numeric = src.Value, src.HasValue, rangeFromAtspi(src.Numeric)
	dst.Actions = src.Actions
	dst.Frame = rectFromAtspi(src.Frame)
}

// copyStructure stores what atspi's Refresh read into the engine node.
func copyStructure(dst *engine.Node, src *atspi.Node) {
	dst.Role, dst.States = src.Role, src.States
	dst.Name, dst.Description = src.Name, src.Description
	dst.ChildCount, dst.Secure = src.ChildCount, src.Secure
}

// scrollHintToAtspi is the engine's scroll hint as atspi takes it, its
// delta already in the app's pixels.
func scrollHintToAtspi(h engine.ScrollHint) atspi.ScrollHint {
	return atspi.ScrollHint{ScrollBar: atspiID(h.ScrollBar), Position: h.Position, Delta: h.Delta}
}
