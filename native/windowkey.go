package native

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// press_key on the window_keys path (docs/contract.md#window-keys,
// docs/decisions.md, "Window keys"): one key sent to the field's X
// top-level alone (xlib.SendKey), only where the field's focus is
// confirmed before it goes. Chromium confirms it, inside its focus
// bracket, by the field's focused state (windowKeys.focus); Gecko reports
// no focus while its window is inactive, and a key such as Return or Tab
// leaves no text whose read-back would show where it landed, so a Gecko
// field is refused.

var _ engine.WindowKeyPresser = (*Backend)(nil)

// WindowKey prepares pressing key in ref (see engine.WindowKeyPresser).
func (b *Backend) WindowKey(ctx context.Context, ref engine.ElementRef, key string) (engine.KeyPress, error) {
	way, err := b.windowKeysWay(ctx, ref)
	if err != nil {
		return nil, err
	}
	if way != atspi.KeysToActiveWindow {
		return nil, engine.Errf(engine.CodeNotActionable, "the field's app does not report its focus while its window is inactive, so nothing confirms where a key would go")
	}
	if !b.x.CanSendKey(key) {
		return nil, engine.Errf(engine.CodeNotActionable, "the key has no keycode in the keyboard map")
	}
	k, err := b.focusForKeys(ctx, ref, way, "")
	if err != nil {
		return nil, err
	}
	return &windowKey{windowKeys: k, key: key}, nil
}

// windowKey is one press_key on the window_keys path: the typing's focus,
// checks and End, one key.
type windowKey struct {
	*windowKeys
	key string
}

// Check: the person's focus and the stacking are as they were and, before
// the key, the field still holds its page's focus.
func (k *windowKey) Check(ctx context.Context, pressed bool) error {
	if err := k.desktopStill(); err != nil {
		return err
	}
	if pressed {
		return nil
	}
	focused, err := k.b.a.Focused(ctx, atspiID(k.ref.ID))
	if err != nil {
		return atspiErr(err)
	}
	if !focused {
		return engine.Errf(engine.CodeFocusChanged, "the field no longer holds its page's focus")
	}
	return nil
}

// Press sends the key's press and release to the field's top-level.
func (k *windowKey) Press(ctx context.Context) error {
	for _, press := range []bool{true, false} {
		if err := k.b.x.SendKey(uint64(k.ref.Window), k.key, press); err != nil {
			return xErr(err)
		}
	}
	return nil
}
