package ci

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	Cmd  string // upper case: FROM, ARG, RUN, ...
	Args string
}

// parseDockerfile splits a Dockerfile into instructions, dropping comments
// and joining lines that end in a backslash.
func parseDockerfile(text string) []instruction {
	var out []instruction
	var cur strings.Builder
	flush := func() {
		line := strings.TrimSpace(cur.String())
		cur.Reset()
		if line == "" {
			return
		}
		cmd, args, _ := strings.Cut(line, " ")
		out = append(out, instruction{Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args)})
	}
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cur.WriteString(trimmed)
		flush()
	}
	flush()
	return out
}

// dockerfile is Dockerfile.test, parsed, with its ARG defaults.
type dockerfile struct {
	instructions []instruction
	args         map[string]string
	comments     string
}

func readDockerfile(t *testing.T) dockerfile {
	t.Helper()
	text := readRepoFile(t, "Dockerfile.test")
	d := dockerfile{instructions: parseDockerfile(text), args: map[string]string{}}
	for _, in := range d.instructions {
		if in.Cmd == "ARG" {
			k, v, _ := strings.Cut(in.Args, "=")
			d.args[k] = v
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			d.comments += line + "\n"
		}
	}
	return d
}

func (d dockerfile) all(cmd string) []instruction {
	var out []instruction
	for _, in := range d.instructions {
		if in.Cmd == cmd {
			out = append(out, in)
		}
	}
	return out
}

func TestParseDockerfile(t *testing.T) {
	got := parseDockerfile("# c\nFROM debian:12\nRUN a \\\n && b\n\nCMD [\".ci/run\"]\n")
	want := []instruction{{"FROM", "debian:12"}, {"RUN", "a  && b"}, {"CMD", `[".ci/run"]`}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("instruction %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// goModGoVersion is the Go version go.mod asks for: its toolchain line,
// else its go line.
func goModGoVersion(t *testing.T) string {
	t.Helper()
	mod := readRepoFile(t, "go.mod")
	if m := regexp.MustCompile(`(?m)^toolchain go(\S+)$`).FindStringSubmatch(mod); m != nil {
		return m[1]
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	return m[1]
}

// TestDockerfileIsTheReferenceMachine checks Dockerfile.test against what
// CI and the scripts assume: Debian 12, the Go go.mod names, a Node that
// install-deps accepts, both on PATH, install-deps run, and .ci/run (the
// CI entry point, which runs make test) as the command.
func TestDockerfileIsTheReferenceMachine(t *testing.T) {
	d := readDockerfile(t)

	t.Run("Debian 12", func(t *testing.T) {
		froms := d.all("FROM")
		if len(froms) != 1 || (froms[0].Args != "debian:12" && froms[0].Args != "debian:bookworm") {
			t.Errorf("FROM = %+v, want one FROM debian:12 (the full image: slim ones drop manual pages)", froms)
		}
	})

	t.Run("the Go of go.mod", func(t *testing.T) {
		if want := goModGoVersion(t); d.args["GO_VERSION"] != want {
			t.Errorf("ARG GO_VERSION=%q, go.mod wants go%s", d.args["GO_VERSION"], want)
		}
		unpacked := false
		for _, in := range d.all("RUN") {
			unpacked = unpacked || strings.Contains(in.Args, "tar -C /usr/local -xzf")
		}
		if !unpacked {
			t.Error("Go is not unpacked into /usr/local")
		}
	})

	t.Run("a Node install-deps accepts", func(t *testing.T) {
		m := regexp.MustCompile(`(?m)^MIN_NODE_MAJOR=(\d+)`).FindStringSubmatch(readRepoFile(t, "ci/install-deps.sh"))
		if m == nil {
			t.Fatal("ci/install-deps.sh has no MIN_NODE_MAJOR")
		}
		min, _ := strconv.Atoi(m[1])
		major, err := strconv.Atoi(strings.SplitN(d.args["NODE_VERSION"], ".", 2)[0])
		if err != nil || major < min {
			t.Errorf("ARG NODE_VERSION=%q, install-deps needs Node %d or newer", d.args["NODE_VERSION"], min)
		}
	})

	t.Run("Go on PATH", func(t *testing.T) {
		path := ""
		for _, in := range d.all("ENV") {
			if v, ok := strings.CutPrefix(in.Args, "PATH="); ok {
				path = v
			}
		}
		if !strings.Contains(path, "/usr/local/go/bin") {
			t.Errorf("ENV PATH=%q lacks /usr/local/go/bin", path)
		}
	})

	t.Run("install-deps runs at build time", func(t *testing.T) {
		var copied, ran bool
		for _, in := range d.instructions {
			if in.Cmd == "COPY" && strings.HasPrefix(in.Args, "ci/install-deps.sh ") {
				copied = true
			}
			if in.Cmd == "RUN" && strings.TrimSpace(in.Args) == "ci/install-deps.sh" && copied {
				ran = true
			}
		}
		if !ran {
			t.Error("the image does not copy and run ci/install-deps.sh")
		}
	})

	t.Run("the command is .ci/run", func(t *testing.T) {
		cmds := d.all("CMD")
		if len(cmds) != 1 || len(d.all("ENTRYPOINT")) != 0 {
			t.Fatalf("want one CMD and no ENTRYPOINT, got %+v", cmds)
		}
		var argv []string
		if err := json.Unmarshal([]byte(cmds[0].Args), &argv); err != nil || len(argv) != 1 || argv[0] != ".ci/run" {
			t.Errorf("CMD %s, want [\".ci/run\"]", cmds[0].Args)
		}
		run := readRepoFile(t, ".ci/run")
		for _, want := range []string{"ci/install-deps.sh", "make test"} {
			if !strings.Contains(run, "\n"+want+"\n") {
				t.Errorf(".ci/run does not run %q", want)
			}
		}
	})

	t.Run("the documented run is privileged", func(t *testing.T) {
		if !strings.Contains(d.comments, "docker run --rm --privileged") {
			t.Error("the usage comment must say docker run --privileged: the package install test mounts an overlay")
		}
	})
}
