package mcpline

// LegacyProtocol is the newest MCP protocol version that still opens with
// initialize, as most hosts do today; the SDK's default client speaks the
// sessionless protocol, which opens with server/discover instead. The
// project's test and benchmark clients that open with initialize ask for
// it.
const LegacyProtocol = "2025-11-25"
