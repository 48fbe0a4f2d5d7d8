// Package mock is an in-memory desktop that implements engine.Backend.
//
// It is what the engine's contract tests, the hand-back test and
// `nish-driver mcp --backend mock` run against, so it behaves like a real X11
// desktop with an AT-SPI bus in every way the engine relies on: windows stack
// and take focus, apps exit, restart under the same pid or hang, element ids
// are stable bus-name-plus-object-path strings, actions change the tree (now
// or a little later), secure fields never give up their values, synthetic
// input lands in the focused field, and a scriptable person answers the
// consent dialog, moves the pointer, presses keys and clicks the takeover
// indicator's Continue button.
//
// Everything is deterministic except where a test asks for time to pass
// (Desktop.After), and every method is safe for concurrent use. One mutex
// guards the whole desktop; scripted action handlers and delayed changes run
// without it held, so they may call any setter.
//
// A test builds a desktop with New and AddApp / AddWindow / Element.Add, or
// takes a ready-made one from NewDemo. It inspects what the engine did with
// Calls, Texts and Sent, and drives the person with SetConsent, MovePointer,
// PressKey, PressButton and ClickContinue.
package mock
