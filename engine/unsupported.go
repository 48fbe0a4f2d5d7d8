package engine

import "context"

// Tools whose platform API does not exist on Linux/X11: notifications
// (freedesktop gives no list of other apps' notifications) and the Windows
// app actions. They answer unsupported rather than fake a result.

// Why the unsupported tools are unsupported, in their messages.
const (
	noNotifications = "notifications have no platform API on X11"
	noAppActions    = "app actions exist only on Windows"
)

// unsupportedTool is the handler of a tool with no platform API here.
func unsupportedTool(msg string) toolHandler {
	return func(ctx context.Context, c *Conn, a *Args) Result {
		return Failure(Errf(CodeUnsupported, "%s", msg))
	}
}
