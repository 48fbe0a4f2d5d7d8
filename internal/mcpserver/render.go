package mcpserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

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
//
// EncodeResult writes the same result as JSON bytes, for the lean path.
func Render(res engine.Result) *mcp.CallToolResult {
	s := shapeOf(res)
	content := []mcp.Content{&mcp.TextContent{Text: s.text}}
	if s.image != nil {
		content = append(content, &mcp.ImageContent{Data: s.image.Data, MIMEType: s.image.MIMEType})
	}
	return &mcp.CallToolResult{IsError: s.isError, Content: content, StructuredContent: s.structured}
}

// shape is what a result shows a client, whichever way it is encoded.
type shape struct {
	isError    bool
	text       string
	image      *engine.ImageBlock
	structured any
}

func shapeOf(res engine.Result) shape {
	if res.Err == nil {
		return shape{text: res.Text, image: res.Image, structured: res.Structured}
	}
	s := shape{isError: true, text: res.Text, structured: res.Structured}
	if s.text == "" {
		s.text = res.Err.Text()
	}
	if s.structured == nil {
		s.structured = res.Err.Envelope()
	}
	return s
}

// EncodeResult is Render's result as the go-sdk would put it on the wire,
// byte for byte, encoded once. The SDK encodes a tool result in layers
// (each content block and the result on their own, then the whole message
// again), and every layer scans and copies what the layer below produced:
// for a 5,000-row read, 1.26 MB three times over. Here each part is encoded
// once, straight into one buffer. TestEncodeResultIsTheSDKsEncoding keeps
// the bytes identical to the SDK's.
func EncodeResult(res engine.Result) ([]byte, error) {
	s := shapeOf(res)
	var buf bytes.Buffer
	buf.Grow(len(s.text)*2 + 256)
	buf.WriteString(`{"content":[{"type":"text","text":`)
	text, err := json.Marshal(s.text)
	if err != nil {
		return nil, err
	}
	buf.Write(text)
	buf.WriteByte('}')
	if s.image != nil {
		mime, err := json.Marshal(s.image.MIMEType)
		if err != nil {
			return nil, err
		}
		buf.WriteString(`,{"type":"image","mimeType":`)
		buf.Write(mime)
		buf.WriteString(`,"data":"`)
		enc := base64.NewEncoder(base64.StdEncoding, &buf)
		enc.Write(s.image.Data)
		enc.Close()
		buf.WriteString(`"}`)
	}
	buf.WriteByte(']')
	if s.structured != nil {
		buf.WriteString(`,"structuredContent":`)
		// The encoder writes into buf directly; it ends the value with a
		// newline, taken off below.
		if err := json.NewEncoder(&buf).Encode(s.structured); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1)
	}
	if s.isError {
		buf.WriteString(`,"isError":true`)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
