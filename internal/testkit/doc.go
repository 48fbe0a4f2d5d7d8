// Package testkit holds the helpers the module's tests share: waiting on
// a condition instead of sleeping, a buffer a child process may write while
// the test reads it, the decoding and row lookups of tool results, and the
// repository's shared files found from its top (repo.go). The benchmarks'
// figures of timed trials (median, percentile, milliseconds) are package
// stats'.
//
// It is for tests only (nothing in the binary imports it) and it stands on
// the standard library alone, so that every test package can use it: the
// engine's tests, which must stay pure Go, and the native layers' tests,
// which must not reach the engine. Helpers that need the private test
// desktop live in testkit/desktop.
package testkit
