//go:build !cgo

package pipewire

import "context"

// CaptureFrame reports that capture over PipeWire was not built: it needs
// cgo and libpipewire.
func CaptureFrame(ctx context.Context, nodeID uint32, opts Options) (*Frame, error) {
	return nil, ErrNotBuilt
}
