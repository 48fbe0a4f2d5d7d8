// Package hosttest holds the tests of rules a host sees the same way over
// both of the driver's transports: stdio (one MCP connection on pipes, the
// path `nish-driver mcp` serves) and the daemon socket (`nish-driver
// daemon`). Each test runs once per transport on an in-process mock desktop
// the test can change, so a fault found by a host on one transport is
// pinned on both. The package has no code of its own outside its tests.
package hosttest
