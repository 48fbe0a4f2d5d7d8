package xlib

import (
	"errors"
	"time"
)

// Limits of the clipboard code.
const (
	// MaxClipboardRead is the most text, in bytes, ReadClipboard takes.
	// A bigger clipboard is refused (ErrClipboardTooLarge), never cut.
	MaxClipboardRead = 1 << 20
	// ClipboardReadBound is the longest ReadClipboard waits for the
	// clipboard's owner to answer, whatever its context allows.
	ClipboardReadBound = 2 * time.Second
	// clipboardReleaseBound is the longest Release waits for the owner's
	// goroutine to give the selection up and close its connection.
	clipboardReleaseBound = 2 * time.Second
)

// Errors of the clipboard code. None of them carries clipboard text.
var (
	// ErrClipboardEmpty: no client owns the CLIPBOARD selection.
	ErrClipboardEmpty = errors.New("xlib: no client owns the clipboard")
	// ErrClipboardNoText: the owner refused both UTF8_STRING and STRING, or
	// answered with a type that is not text.
	ErrClipboardNoText = errors.New("xlib: the clipboard's owner offers no text")
	// ErrClipboardIncremental: the owner answered with an incremental
	// (INCR) transfer, which the driver does not read.
	ErrClipboardIncremental = errors.New("xlib: the clipboard's owner sends its text incrementally (INCR), which is not read")
	// ErrClipboardTooLarge: the text is over MaxClipboardRead (reading), or
	// over what one X request can carry (owning).
	ErrClipboardTooLarge = errors.New("xlib: the clipboard text is larger than the driver takes")
	// ErrClipboardTimeout: the owner did not answer within the bound.
	ErrClipboardTimeout = errors.New("xlib: the clipboard's owner did not answer in time")
	// ErrClipboardNotOwned: XSetSelectionOwner did not make the driver the
	// owner (another client took the clipboard at the same moment).
	ErrClipboardNotOwned = errors.New("xlib: the driver could not take ownership of the clipboard")
	// ErrClipboardTaken: another client took the clipboard from the
	// driver's owner (SelectionClear).
	ErrClipboardTaken = errors.New("xlib: another client took ownership of the clipboard")
)
