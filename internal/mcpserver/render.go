package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
)

// Render turns an engine result into the MCP tool result. It is the one
// place either outcome takes its MCP shape:
//   - success: a text block (plus an image block when the result carries a
//     screenshot) and the tool's result value as structuredContent;
//   - failure: isError, the contract's failure text
//     "<code>: <message> [retry: <disposition>] <suggestion>" as the only
//     text block, and the envelope {ok: false, error}
//     (docs/contract.md#error-envelope) as structuredContent.
func Render(res engine.Result) *mcp.CallToolResult {
	if res.Err != nil {
		text := res.Text
		if text == "" {
			text = res.Err.Text()
		}
		structured := res.Structured
		if structured == nil {
			structured = res.Err.Envelope()
		}
		return &mcp.CallToolResult{
			IsError:           true,
			Content:           []mcp.Content{&mcp.TextContent{Text: text}},
			StructuredContent: structured,
		}
	}
	content := []mcp.Content{&mcp.TextContent{Text: res.Text}}
	if res.Image != nil {
		content = append(content, &mcp.ImageContent{Data: res.Image.Data, MIMEType: res.Image.MIMEType})
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: res.Structured}
}
