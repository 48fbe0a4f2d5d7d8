package native_test

import (
	"bufio"
	"encoding/json"
	"io"
)

// playHost plays the host on its end of the control pipe until the pipe
// closes: it reads the driver's events from in, answers each approval
// request as answer says (respond false: no answer, a host that stays
// silent), and hands every other event to other (nil: dropped).
func playHost(in io.Reader, out io.Writer, answer func(card map[string]any) (allow, respond bool), other func(ev map[string]any)) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev["event"] != "approval.request" {
			if other != nil {
				other(ev)
			}
			continue
		}
		allow, respond := answer(ev)
		if !respond {
			continue
		}
		ans, _ := json.Marshal(map[string]any{"method": "approval.answer", "params": map[string]any{"id": ev["id"], "allow": allow}})
		_, _ = out.Write(append(ans, '\n'))
	}
}
