package mcpserver

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema"
)

func TestRender(t *testing.T) {
	png := []byte("\x89PNG fake bytes")
	type want struct {
		isError    bool
		texts      []string
		image      bool
		structured string // JSON of structuredContent
	}
	noSession := engine.Errf(engine.CodeNoSession, "no session on this connection")
	tests := []struct {
		name string
		res  engine.Result
		want want
	}{
		{
			name: "success",
			res:  engine.Result{Structured: map[string]any{"ok": true, "n": 1}, Text: "one window"},
			want: want{texts: []string{"one window"}, structured: `{"n":1,"ok":true}`},
		},
		{
			name: "success with a screenshot",
			res:  engine.Result{Structured: map[string]any{"ok": true}, Text: "s1 ...", Image: &engine.ImageBlock{MIMEType: "image/png", Data: png}},
			want: want{texts: []string{"s1 ..."}, image: true, structured: `{"ok":true}`},
		},
		{
			name: "failure",
			res:  engine.Failure(noSession),
			want: want{isError: true, texts: []string{noSession.Text()}, structured: mustJSON(noSession.Envelope())},
		},
		{
			name: "failure with only the error set",
			res:  engine.Result{Err: noSession},
			want: want{isError: true, texts: []string{noSession.Text()}, structured: mustJSON(noSession.Envelope())},
		},
		{
			name: "a plain Go error becomes internal",
			res:  engine.Failure(errString("boom with app text")),
			want: want{isError: true, texts: []string{engine.AsError(errString("x")).Text()}, structured: mustJSON(engine.AsError(errString("x")).Envelope())},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(Render(tt.res))
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				IsError bool `json:"isError"`
				Content []struct {
					Type     string `json:"type"`
					Text     string `json:"text"`
					Data     string `json:"data"`
					MIMEType string `json:"mimeType"`
				} `json:"content"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got.IsError != tt.want.isError {
				t.Errorf("isError = %v", got.IsError)
			}
			n := len(tt.want.texts)
			if tt.want.image {
				n++
			}
			if len(got.Content) != n {
				t.Fatalf("content = %s", raw)
			}
			for i, text := range tt.want.texts {
				if got.Content[i].Type != "text" || got.Content[i].Text != text {
					t.Errorf("content[%d] = %+v, want text %q", i, got.Content[i], text)
				}
			}
			if tt.want.image {
				img := got.Content[len(got.Content)-1]
				if img.Type != "image" || img.MIMEType != "image/png" || img.Data != base64.StdEncoding.EncodeToString(png) {
					t.Errorf("image block = %+v", img)
				}
			}
			if string(got.StructuredContent) != tt.want.structured {
				t.Errorf("structuredContent = %s, want %s", got.StructuredContent, tt.want.structured)
			}
			if tt.want.isError {
				if err := schema.ValidateError(got.StructuredContent); err != nil {
					t.Errorf("envelope does not validate: %v", err)
				}
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
