// Package credential recognises text that looks like a secret, so the driver
// can refuse to type or copy it (sensitive_text) and can hide it in the long
// text of a drill-down read.
//
// The rules, in the order a reader meets them in the source:
//
//   - private_key: a PEM-style "-----BEGIN … PRIVATE KEY-----" header (RSA,
//     EC, DSA, OpenSSH, PKCS#8, encrypted, PGP "PRIVATE KEY BLOCK"), up to
//     its END line, or to the end of the text when the END line is missing.
//   - key_value: a key whose name ends in a secret-ish word (password,
//     passwd, passphrase, pwd, secret, token, api key, access key, secret
//     key, private key, auth, authorization, credential(s), session id),
//     then "=", ":", ":=" or "=>", then a non-empty value on the same line.
//     Quoted keys and values (JSON and friends) are understood; only the
//     value is the span. "Bearer x" and "Basic x" values take both words.
//     A URL's "user:password@" takes the password.
//   - token_prefix: the well-known shapes of issued tokens (GitHub, GitLab,
//     Slack, OpenAI-style sk-, Stripe, Google AIza, AWS access key ids, npm,
//     PyPI, Slack and Discord webhook URLs, "Bearer <token>").
//   - jwt: three base64url parts joined by dots, the first starting "eyJ".
//   - password_like: only for a whole text (Detect, never Redact): a single
//     word of 16–512 characters that mixes at least three of lower case,
//     upper case, digits and symbols.
//
// The heuristic errs towards refusing, but ordinary words are left alone:
// "my password is long" has no separator, "sk-" needs a long random-looking
// body, and the single-word rule skips shapes people type every day and
// that are not secrets by themselves: URLs (a secret in their query string
// is still caught by key_value), e-mail addresses, file paths, UUIDs, and
// ISO dates and times. A UUID passes on purpose: it is far more often an
// identifier than a key, and a UUID given as a password or token value is
// still caught by key_value.
//
// Some values after a secret-ish key are not secrets and are left alone:
// an empty value, the placeholder "[redacted]", a mask of asterisks or
// bullets, null/true/false/nil/none, the start of a nested object or list
// ("{" or "[") whose own pairs are checked on their own, and code that
// names a secret without holding it: a function call (getToken()) or an
// environment variable ($TOKEN, ${DB_PASSWORD}). A value on the next line
// is not looked for ("Password:" then a line break passes).
//
// Everything runs in time linear in the input and does no backtracking:
// every rule either looks at a bounded window or consumes what it scans.
// A Match carries only a kind and a byte span, so it can be logged; the
// matched text itself never leaves this package.
package credential
