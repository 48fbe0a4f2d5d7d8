//go:build cgo

package pipewire

/*
#cgo pkg-config: libpipewire-0.3
#include <stdlib.h>
#include <spa/param/video/raw.h>
#include "pw_frame.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"image"
	"net"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// CaptureFrame connects to the PipeWire socket the options name, follows
// the stream of node nodeID and returns its first whole frame. It ends
// with ErrNoPipeWire when nothing answers there, ErrNoFrame when no frame
// comes within the timeout, the context's error when it ends first, and
// tears the stream and the connection down in every case.
func CaptureFrame(ctx context.Context, nodeID uint32, opts Options) (*Frame, error) {
	deadline := time.Now().Add(opts.timeout())
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	fd, err := dialSocket(ctx, opts.SocketPath(), deadline)
	if err != nil {
		return nil, err
	}
	left := time.Until(deadline)
	if left <= 0 {
		syscall.Close(fd)
		return nil, ErrNoFrame
	}
	return runCapture(ctx, fd, nodeID, left)
}

// dialSocket connects to PipeWire's socket and returns a descriptor of
// its own that libpipewire takes over (and closes).
func dialSocket(ctx context.Context, path string, deadline time.Time) (int, error) {
	d := net.Dialer{Deadline: deadline}
	conn, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if ctx.Err() != nil {
			return -1, ctx.Err()
		}
		return -1, fmt.Errorf("%w (%s): %v", ErrNoPipeWire, path, err)
	}
	defer conn.Close()
	f, err := conn.(*net.UnixConn).File()
	if err != nil {
		return -1, fmt.Errorf("%w: %v", ErrSetup, err)
	}
	defer f.Close()
	// File's descriptor is a dup in blocking mode; dup once more so that
	// closing f leaves libpipewire's own.
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return -1, fmt.Errorf("%w: %v", ErrSetup, err)
	}
	syscall.CloseOnExec(fd)
	return fd, nil
}

// runCapture runs the C loop on this goroutine's thread, locked for the
// loop's whole life (made, run and freed on one thread), while a second
// goroutine turns the context's end into a cancel of the loop.
func runCapture(ctx context.Context, fd int, nodeID uint32, timeout time.Duration) (*Frame, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := C.nw_new()
	if c == nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("%w: no main loop", ErrSetup)
	}
	var res C.nw_result
	defer C.nw_free(c, &res)
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
			C.nw_cancel(c)
		case <-stop:
		}
	}()
	ms := timeout.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	C.nw_run(c, C.int(fd), C.uint32_t(nodeID), C.int(ms), &res)
	close(stop)
	<-watched // nw_cancel never runs after nw_free
	return frameOf(ctx, &res)
}

// frameOf turns the C result into a Frame or the package's error.
func frameOf(ctx context.Context, res *C.nw_result) (*Frame, error) {
	msg := C.GoString(&res.message[0])
	switch res.status {
	case C.NW_OK:
	case C.NW_TIMEOUT:
		return nil, ErrNoFrame
	case C.NW_CANCELLED:
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, context.Canceled
	case C.NW_CONNECT:
		return nil, fmt.Errorf("%w: %s", ErrNoPipeWire, msg)
	case C.NW_FORMAT:
		return nil, fmt.Errorf("%w: %s", ErrFormat, msg)
	case C.NW_UNSUPPORTED:
		return nil, fmt.Errorf("%w: %s", ErrFormat, msg)
	case C.NW_SETUP:
		return nil, fmt.Errorf("%w: %s", ErrSetup, msg)
	default:
		return nil, fmt.Errorf("%w: %s", ErrStream, msg)
	}
	if res.pixels == nil {
		return nil, errors.New("pipewire: a frame without pixels")
	}
	w, h := int(res.crop_w), int(res.crop_h)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	copy(img.Pix, unsafe.Slice((*byte)(unsafe.Pointer(res.pixels)), w*h*4))
	x, y := int(res.crop_x), int(res.crop_y)
	return &Frame{
		Image:   img,
		Size:    image.Pt(int(res.width), int(res.height)),
		Crop:    image.Rect(x, y, x+w, y+h),
		Cropped: res.has_crop != 0,
		Format:  formatName(uint32(res.format)),
		Stride:  int(res.stride),
		Nudges:  int(res.nudges),
	}, nil
}

// formatName is the SPA name of the raw video formats the C side converts.
func formatName(id uint32) string {
	switch id {
	case C.SPA_VIDEO_FORMAT_RGBx:
		return "RGBx"
	case C.SPA_VIDEO_FORMAT_BGRx:
		return "BGRx"
	case C.SPA_VIDEO_FORMAT_xRGB:
		return "xRGB"
	case C.SPA_VIDEO_FORMAT_xBGR:
		return "xBGR"
	case C.SPA_VIDEO_FORMAT_RGBA:
		return "RGBA"
	case C.SPA_VIDEO_FORMAT_BGRA:
		return "BGRA"
	case C.SPA_VIDEO_FORMAT_ARGB:
		return "ARGB"
	case C.SPA_VIDEO_FORMAT_ABGR:
		return "ABGR"
	}
	return "unknown"
}
