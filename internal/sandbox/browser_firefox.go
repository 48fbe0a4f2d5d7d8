package sandbox

import (
	"os"
	"path/filepath"
)

// firefoxArgs are the switches of a Firefox started on the test desktop in
// profile, and writes the profile's user.js.
func firefoxArgs(profile string) ([]string, error) {
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(firefoxUserJS), 0o600); err != nil {
		return nil, err
	}
	return []string{
		// A separate instance: never hand the URL to a Firefox already
		// running elsewhere on the machine.
		"--no-remote",
		"--new-instance",
		"--profile", profile,
		"--width", "1280",
		"--height", "800",
	}, nil
}

// firefoxUserJS are the preferences of a quiet test profile: accessibility
// allowed, and no first-run pages, telemetry, updates, default-browser
// question, session-restore or safe-mode prompt, password or translation
// offer, or background fetches (each would open a tab, bar or window, or
// wait on the network).
const firefoxUserJS = `// Written by nish-driver's test desktop (package sandbox).
user_pref("accessibility.force_disabled", -1);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("startup.homepage_welcome_url", "");
user_pref("startup.homepage_welcome_url.additional", "");
user_pref("startup.homepage_override_url", "");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("trailhead.firstrun.didSeeAboutWelcome", true);
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
user_pref("browser.discovery.enabled", false);
user_pref("extensions.pocket.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("browser.sessionstore.resume_from_crash", false);
user_pref("browser.sessionstore.max_resumed_crashes", 0);
user_pref("toolkit.startup.max_resumed_crashes", -1);
user_pref("browser.tabs.warnOnClose", false);
user_pref("browser.warnOnQuit", false);
user_pref("signon.rememberSignons", false);
user_pref("browser.translations.enable", false);
user_pref("browser.translations.automaticallyPopup", false);
user_pref("browser.newtabpage.enabled", false);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("browser.safebrowsing.downloads.enabled", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("browser.region.network.url", "");
user_pref("browser.search.geoSpecificDefaults", false);
user_pref("sidebar.revamp", false);
`
