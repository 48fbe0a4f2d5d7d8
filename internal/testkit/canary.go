package testkit

// PasswordCanary is the password the fixtures' password fields hold
// (synthetic.py's hidden entry, web/form.html's password input). A test
// that finds it in a read, a result, a screenshot's text or a log has
// found a leak. TestTheFixturesHoldThePasswordCanary keeps the fixtures to
// this value: were they to drift apart, every "must not contain" check
// would pass without testing anything. The mock's demo form holds its own
// (engine/mock PasswordCanary), which the engine's tests look for.
const PasswordCanary = "CANARY-pw-7f3a"
