// Package screencasttest holds the tests and the benchmark of capturing a
// Wayland window on GNOME: native/mutter's screen cast and native/pipewire's
// frame, joined as the backend will join them, on the sandbox's headless
// mutter. The two layers may not import each other, tests included
// (ci/layers_test.go), so what needs both lives here. It has no code of
// its own.
package screencasttest
