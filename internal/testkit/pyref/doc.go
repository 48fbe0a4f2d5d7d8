// Package pyref runs the pyatspi reference scripts among the fixtures
// (testkit.FixtureDir: walk.py, containers.py, secure_lengths.py) and
// reads what walk.py prints. The scripts are the tests' and the bench's
// independent view of an app on the accessibility bus: a walk to compare a
// read with or to time it against, or facts a screen reader would see.
//
// It is the one way they are started (run.go) and the one reader of
// walk.py's lines, its elements and its timed walks (walk.go). It stands
// on the standard library alone and takes a desktop's environment rather
// than the desktop, so that every user can import it without a cycle:
// ci/bench, the native and native/atspi tests, and package sandbox's own
// tests (which testkit/desktop, importing sandbox, could not serve).
package pyref
