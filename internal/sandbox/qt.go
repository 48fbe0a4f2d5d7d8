package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The Qt apps of the tests: KeePassXC, a password manager whose master
// password field a read must black out, and FeatherPad, a plain Qt 5 text
// editor. Both are single-instance programs: started while another copy
// runs, they hand their files to it and exit. KeePassXC finds the other copy
// through a lock in the temporary folder (private to each desktop, see
// desktopVars) and FeatherPad through the session bus (private too), so
// copies on different desktops never meet; FeatherPad is also started
// standalone so that two copies on one desktop stay two apps.

// KeePassEntry is one entry of a test database.
type KeePassEntry struct {
	Title    string
	Username string
	URL      string
	Password string
}

// KeePassXCDatabase creates a KeePassXC database at path (a .kdbx file),
// locked with password and holding entries, with keepassxc-cli. The key
// derivation is set to take about 100 ms, so unlocking it in a test is
// quick. Passwords go to keepassxc-cli on its standard input, never on its
// command line.
func (d *Desktop) KeePassXCDatabase(path, password string, entries ...KeePassEntry) error {
	cli, err := lookTool("keepassxc-cli", "keepassxc")
	if err != nil {
		return err
	}
	if err := d.keepassCLI(cli, password+"\n"+password+"\n", "db-create", "--set-password", "--decryption-time", "100", path); err != nil {
		return err
	}
	for _, e := range entries {
		args := []string{"add", "--password-prompt"}
		if e.Username != "" {
			args = append(args, "--username", e.Username)
		}
		if e.URL != "" {
			args = append(args, "--url", e.URL)
		}
		args = append(args, path, e.Title)
		if err := d.keepassCLI(cli, password+"\n"+e.Password+"\n", args...); err != nil {
			return err
		}
	}
	return nil
}

// keepassCLI runs keepassxc-cli with stdin as its input.
func (d *Desktop) keepassCLI(cli, stdin string, args ...string) error {
	cmd := d.Command(cli, append(args[:1:1], append([]string{"--quiet"}, args[1:]...)...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("sandbox: keepassxc-cli %s: %v: %s", args[0], err, strings.TrimSpace(out.String()))
	}
	return nil
}

// keepassxcConfig is the configuration of a test KeePassXC: no second
// instance handed off to, no update checks, no recent-file or
// window-state memory that would change the next start, and nothing that
// locks the database by itself during a test.
const keepassxcConfig = `[General]
SingleInstance=false
RememberLastDatabases=false
RememberLastKeyFiles=false
OpenPreviousDatabasesOnStartup=false
AutoSaveAfterEveryChange=false
AutoSaveOnExit=false
UpdateCheckMessageShown=true

[GUI]
CheckForUpdates=false
ShowTrayIcon=false
MinimizeOnStartup=false
HideUsernames=false

[Security]
LockDatabaseIdle=false
LockDatabaseScreenLock=false
LockDatabaseMinimize=false
ClearClipboard=false
`

// KeePassXCCommand prepares KeePassXC to open db on this desktop, showing
// its unlock view (the master password field focused), with a throwaway
// configuration under the desktop's private folder (removed by Close).
// Start it with Start; the caller owns its output.
func (d *Desktop) KeePassXCCommand(db string) (*exec.Cmd, error) {
	prog, err := lookTool("keepassxc", "keepassxc")
	if err != nil {
		return nil, err
	}
	profile, err := d.profile("keepassxc")
	if err != nil {
		return nil, err
	}
	config := filepath.Join(profile, "keepassxc.ini")
	if err := os.WriteFile(config, []byte(keepassxcConfig), 0o600); err != nil {
		return nil, err
	}
	return d.Command(prog, "--config", config, "--localconfig", filepath.Join(profile, "local.ini"), db), nil
}

// FeatherPadCommand prepares FeatherPad to open file on this desktop as an
// app of its own (--standalone: never handed to a FeatherPad already
// running here).
func (d *Desktop) FeatherPadCommand(file string) (*exec.Cmd, error) {
	prog, err := lookTool("featherpad", "featherpad")
	if err != nil {
		return nil, err
	}
	return d.Command(prog, "--standalone", file), nil
}

// profile makes a new folder for one app's throwaway settings under the
// desktop's private folder.
func (d *Desktop) profile(prefix string) (string, error) {
	base := filepath.Join(d.Root, "profiles")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return "", err
	}
	return os.MkdirTemp(base, prefix+"-")
}

// lookTool finds a program on PATH, or says which Debian package has it.
func lookTool(name, debian string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("sandbox: %s is not installed (Debian: %s; make test installs it)", name, debian)
	}
	return path, nil
}
