// Command soak drives the built nish-driver over stdio on the mock desktop
// with many mixed calls and junk lines in between, and reports the
// process's resident size (from /proc) and goroutine count (from the
// hidden --debug-stats line) before and after, to show that neither the
// checking transport nor the engine keeps anything per call. It is part of
// `make bench`, not of the tests: it measures, it does not judge timing.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

func main() {
	bin := flag.String("bin", "bin/nish-driver", "the built nish-driver")
	calls := flag.Int("calls", 10000, "calls after the warm-up")
	warmup := flag.Int("warmup", 500, "calls before the first measurement")
	flag.Parse()
	if err := run(*bin, *calls, *warmup); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// driver is the running binary and the soak's view of its pipes.
type driver struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stats  chan stats // figures from the debug-stats lines
	nextID int
	junk   int // junk lines sent
	errs   int // error replies to junk read
	failed int // tool results with isError (envelopes)
}

func run(bin string, calls, warmup int) error {
	state, err := os.MkdirTemp("", "nish-soak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)
	d, err := start(bin, state)
	if err != nil {
		return err
	}
	defer d.cmd.Process.Kill()

	if err := d.call("initialize", `{"protocolVersion":"`+mcpline.LegacyProtocol+`","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}`); err != nil {
		return err
	}
	d.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	cold, err := d.measure()
	if err != nil {
		return err
	}
	if err := d.tool("start_session", `{"apps":["Form Demo"],"purpose":"soak"}`); err != nil {
		return err
	}
	began := time.Now()
	if err := d.mixed(warmup); err != nil {
		return err
	}
	warm, err := d.measure()
	if err != nil {
		return err
	}
	if err := d.mixed(calls); err != nil {
		return err
	}
	end, err := d.measure()
	if err != nil {
		return err
	}
	elapsed := time.Since(began)
	d.in.Close()
	_ = d.cmd.Wait()

	fmt.Printf("soak: %d mixed calls on the mock over stdio (after %d warm-up calls), %d junk lines between them (%d error replies), %.1f s\n",
		calls, warmup, d.junk, d.errs, elapsed.Seconds())
	fmt.Printf("tool results that were error envelopes: %d\n", d.failed)
	fmt.Printf("%-34s %10s %11s %16s\n", "", "RSS (KiB)", "goroutines", "Go heap (KiB)")
	fmt.Printf("%-34s %10d %11d %16d\n", "after initialize", cold.rss, cold.goroutines, cold.heap)
	fmt.Printf("%-34s %10d %11d %16d\n", fmt.Sprintf("start (after %d warm-up calls)", warmup), warm.rss, warm.goroutines, warm.heap)
	fmt.Printf("%-34s %10d %11d %16d\n", fmt.Sprintf("end (after %d more)", calls), end.rss, end.goroutines, end.heap)
	rssDelta := 100 * float64(end.rss-warm.rss) / float64(warm.rss)
	grDelta := 100 * float64(end.goroutines-warm.goroutines) / float64(warm.goroutines)
	fmt.Printf("change from start to end: RSS %+.1f %%, goroutines %+.1f %%\n", rssDelta, grDelta)
	if d.errs != d.junk {
		return fmt.Errorf("%d junk lines got %d error replies", d.junk, d.errs)
	}
	if rssDelta > 10 || grDelta > 10 {
		return errors.New("RSS or goroutines grew by more than 10 %")
	}
	return nil
}

func start(bin, state string) (*driver, error) {
	cmd := exec.Command(bin, "mcp", "--backend", "mock", "--debug-stats")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "XDG_STATE_HOME=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "XDG_STATE_HOME="+state)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	d := &driver{cmd: cmd, in: in, out: bufio.NewScanner(out), stats: make(chan stats, 4)}
	d.out.Buffer(make([]byte, 1<<20), 64<<20)
	go readStats(stderr, d.stats)
	return d, nil
}

var statsLine = regexp.MustCompile(`msg="debug stats" goroutines=(\d+) heap_alloc_bytes=(\d+)`)

// readStats passes on each debug-stats line's figures.
func readStats(r io.Reader, out chan<- stats) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if m := statsLine.FindStringSubmatch(sc.Text()); m != nil {
			n, _ := strconv.Atoi(m[1])
			h, _ := strconv.Atoi(m[2])
			out <- stats{goroutines: n, heapKiB: h / 1024}
		}
	}
	close(out)
}

// stats are the figures of one debug-stats line.
type stats struct{ goroutines, heapKiB int }

type sample struct{ rss, goroutines, heap int }

// measure asks for a debug-stats line (the driver collects garbage first)
// and reads the resident size once it is written.
func (d *driver) measure() (sample, error) {
	if err := d.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		return sample{}, err
	}
	st, ok := <-d.stats
	if !ok {
		return sample{}, errors.New("the driver's stderr ended")
	}
	rss, err := residentKiB(d.cmd.Process.Pid)
	return sample{rss: rss, goroutines: st.goroutines, heap: st.heapKiB}, err
}

func residentKiB(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, errors.New("no VmRSS")
}

func (d *driver) send(line string) {
	_, _ = io.WriteString(d.in, line+"\n")
}

// call sends a request and reads until its reply, counting the error
// replies with id null (the junk's) on the way; it fails on an error
// reply to the call itself.
func (d *driver) call(method, params string) error {
	d.nextID++
	id := strconv.Itoa(d.nextID)
	d.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)
	for d.out.Scan() {
		var r struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		line := d.out.Bytes()
		if len(line) > 0 && line[0] == '[' {
			continue
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("a line that is not JSON-RPC: %.200s", line)
		}
		if string(r.ID) == "null" && r.Error != nil {
			d.errs++
			continue
		}
		if string(r.ID) == id {
			if r.Error != nil {
				return fmt.Errorf("%s failed with code %d", method, r.Error.Code)
			}
			if r.Result.IsError {
				d.failed++
			}
			return nil
		}
	}
	return errors.New("the driver's output ended")
}

func (d *driver) tool(name, args string) error {
	return d.call("tools/call", `{"name":"`+name+`","arguments":`+args+`}`)
}

// junkLines are sent between calls, one in every four calls; each gets
// one error reply with id null.
var junkLines = []string{
	"not json at all",
	"42",
	`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
	"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
	`{"jsonrpc":"2.0","id":1,"method":"ping"} trailing`,
	`{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`,
	strings.Repeat("[", 2000) + strings.Repeat("]", 2000),
}

// mixed runs n calls of every kind a host makes, with junk between them
// and, now and then, a call the client cancels at once.
func (d *driver) mixed(n int) error {
	for i := 0; i < n; i++ {
		if i%4 == 0 {
			d.send(junkLines[(i/4)%len(junkLines)])
			d.junk++
		}
		if i%50 == 25 {
			d.nextID++
			id := strconv.Itoa(d.nextID)
			d.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"get_window_state","arguments":{"app":"Form Demo"}}}`)
			d.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
		}
		var err error
		switch i % 6 {
		case 0:
			err = d.tool("get_session_state", `{}`)
		case 1:
			err = d.tool("list_windows", `{}`)
		case 2:
			err = d.tool("get_window_state", `{"app":"Form Demo"}`)
		case 3:
			err = d.call("ping", `{}`)
		case 4:
			err = d.call("tools/list", `{}`)
		case 5:
			err = d.tool("get_window_state", `{"app":"Form Demo","max_elements":5}`)
		}
		if err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
	}
	return nil
}
