package sandbox

// firefoxArgs are the switches of a Firefox started on the test desktop,
// after the profile's (geckoCommand).
func firefoxArgs() []string {
	return []string{"--width", "1280", "--height", "800"}
}

// firefoxUserJS are Firefox's own preferences of a quiet test profile,
// after the ones every Gecko app gets (geckoUserJS): no first-run pages,
// default-browser question, session-restore or safe-mode prompt, password
// or translation offer, or background fetches (each would open a tab, bar
// or window, or wait on the network).
const firefoxUserJS = `user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("startup.homepage_welcome_url", "");
user_pref("startup.homepage_welcome_url.additional", "");
user_pref("startup.homepage_override_url", "");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("trailhead.firstrun.didSeeAboutWelcome", true);
user_pref("browser.discovery.enabled", false);
user_pref("extensions.pocket.enabled", false);
user_pref("browser.sessionstore.resume_from_crash", false);
user_pref("browser.sessionstore.max_resumed_crashes", 0);
user_pref("browser.tabs.warnOnClose", false);
user_pref("browser.warnOnQuit", false);
user_pref("signon.rememberSignons", false);
user_pref("browser.translations.enable", false);
user_pref("browser.translations.automaticallyPopup", false);
user_pref("browser.newtabpage.enabled", false);
user_pref("browser.region.network.url", "");
user_pref("browser.search.geoSpecificDefaults", false);
user_pref("sidebar.revamp", false);
`
