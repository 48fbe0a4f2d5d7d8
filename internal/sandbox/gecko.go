package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
)

// The Gecko apps of the tests, Firefox and Thunderbird, start the same
// way: a new profile of their own under the desktop's private folder, a
// user.js of quiet preferences written before the first start (the ones
// every Gecko app reads, then the app's own), a separate instance that
// never hands its command line to a copy already running, and no crash
// reporter.

// geckoUserJS are the preferences every Gecko app of the tests gets:
// accessibility allowed, and no telemetry, data-reporting page, update,
// add-on update, experiment, crash-restore prompt, safe-browsing list or
// background probe of the network (each would open a tab, bar or window,
// or wait on the network).
const geckoUserJS = `// Written by nish-driver's test desktop (package sandbox).
user_pref("accessibility.force_disabled", -1);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.policy.firstRunURL", "");
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("toolkit.telemetry.unified", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("app.update.auto", false);
user_pref("app.update.enabled", false);
user_pref("app.update.disabledForTesting", true);
user_pref("app.normandy.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("toolkit.startup.max_resumed_crashes", -1);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("browser.safebrowsing.downloads.enabled", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
`

// geckoProfile makes a new profile for a Gecko app (prefix names its
// folder) with the shared preferences and the app's own (appUserJS, lines
// of user.js), and returns its folder.
func (d *Desktop) geckoProfile(prefix, appUserJS string) (string, error) {
	profile, err := d.profile(prefix)
	if err != nil {
		return "", err
	}
	return profile, os.WriteFile(filepath.Join(profile, "user.js"), []byte(geckoUserJS+appUserJS), 0o600)
}

// geckoCommand prepares a Gecko program on this desktop in profile, as a
// separate instance, with args after the profile's switches.
func (d *Desktop) geckoCommand(prog, profile string, args ...string) *exec.Cmd {
	cmd := d.Command(prog, append([]string{
		// A separate instance: never hand the command line to a copy
		// already running elsewhere on the machine.
		"--no-remote",
		"--new-instance",
		"--profile", profile,
	}, args...)...)
	// A crash is a test failure to see, not a reporter window to click
	// away.
	cmd.Env = append(cmd.Env, "MOZ_CRASHREPORTER_DISABLE=1")
	return cmd
}
