package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit/enginecall"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
)

// sdkEncoding is how the go-sdk puts a tool result into its reply: the
// result value through a json.Encoder that does not escape HTML, its
// newline trimmed (jsonrpc2's jsonMarshal, which is internal to the SDK).
func sdkEncoding(t *testing.T, res engine.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Render(res)); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// EncodeResult writes exactly the bytes the SDK would have written for
// Render's result, for results of every shape: plain, with a screenshot,
// failures with and without their envelope, text that JSON escapes (HTML
// characters, line separators, control characters, invalid UTF-8), and
// real engine results of reads, finds and session calls on the mock.
func TestEncodeResultIsTheSDKsEncoding(t *testing.T) {
	noSession := engine.Errf(engine.CodeNoSession, "no session on this connection")
	cases := []struct {
		name string
		res  engine.Result
	}{
		{"plain", engine.Result{Structured: map[string]any{"ok": true, "n": 1}, Text: "one window"}},
		{"no structured content", engine.Result{Text: "only text"}},
		{"empty text", engine.Result{Structured: map[string]any{"ok": true}}},
		{"escaped text", engine.Result{
			Structured: map[string]any{"ok": true, "label": "<b>&</b>\u2028\u2029\x01\"\\"},
			Text:       "a <tag> & \"quotes\"\n\ttab \u2028 \x7f \xff\xfe end",
		}},
		{"screenshot", engine.Result{Structured: map[string]any{"ok": true}, Text: "s1", Image: &engine.ImageBlock{MIMEType: "image/png", Data: []byte("\x89PNG fake bytes")}}},
		{"screenshot without bytes", engine.Result{Structured: map[string]any{"ok": true}, Text: "s1", Image: &engine.ImageBlock{MIMEType: "image/png"}}},
		{"failure", engine.Failure(noSession)},
		{"failure with only the error set", engine.Result{Err: noSession}},
	}
	d := enginekit.Start(t, mock.NewDemo(), engine.Options{})
	c := enginecall.Caller{T: t, Conn: enginekit.Connect(t, d, "encode test", 1)}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"get_window_state", map[string]any{"app": "Form Demo"}},
		{"list_windows", nil},
		{"start_session", map[string]any{"apps": []any{"Form Demo", "Editor", "Chat"}, "input": "headless"}},
		{"get_session_state", nil},
		{"get_window_state", map[string]any{"app": "Form Demo", "screenshot": true}},
		{"get_window_state", map[string]any{"app": "Editor", "max_elements": 5000}},
		{"get_window_state", map[string]any{"app": "Chat"}},
		{"get_window_state", map[string]any{"window_id": -1}},
		{"find_elements", map[string]any{"app": "Form Demo", "role": "push_button"}},
		{"click", map[string]any{"element_token": "s999:1"}},
		{"health_report", nil},
	} {
		res := c.Call(call.tool, call.args)
		cases = append(cases, struct {
			name string
			res  engine.Result
		}{"engine " + call.tool, res})
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := EncodeResult(tt.res)
			if err != nil {
				t.Fatal(err)
			}
			if want := sdkEncoding(t, tt.res); !bytes.Equal(got, want) {
				t.Errorf("EncodeResult differs from the SDK's encoding:\n got %s\nwant %s", got, want)
			}
		})
	}
}
