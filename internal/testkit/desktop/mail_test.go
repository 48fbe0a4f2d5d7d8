package desktop

import (
	"bufio"
	"bytes"
	"net/mail"
	"strings"
	"testing"
)

// TestWriteMailbox: the fixture mailbox is the same bytes every time, and
// an mbox reader finds in it each message with its subject, sender and
// body, in order.
func TestWriteMailbox(t *testing.T) {
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		if err := WriteMailbox(buf, MailMessages); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two mailboxes of the same size differ")
	}
	msgs := splitMbox(t, a.String())
	if len(msgs) != MailMessages {
		t.Fatalf("%d messages, want %d", len(msgs), MailMessages)
	}
	for i, raw := range msgs {
		n := i + 1
		m, err := mail.ReadMessage(strings.NewReader(raw))
		if err != nil {
			t.Fatalf("message %d: %v", n, err)
		}
		if got := m.Header.Get("Subject"); got != MailSubject(n) {
			t.Fatalf("message %d is titled %q, want %q", n, got, MailSubject(n))
		}
		if _, err := m.Header.AddressList("From"); err != nil {
			t.Fatalf("message %d's sender: %v", n, err)
		}
		if _, err := m.Header.Date(); err != nil {
			t.Fatalf("message %d's date: %v", n, err)
		}
		body, _ := bufio.NewReader(m.Body).ReadString('\n')
		if strings.TrimSuffix(body, "\n") != MailBody(n) {
			t.Fatalf("message %d's body begins %q, want %q", n, body, MailBody(n))
		}
	}
}

// splitMbox cuts an mbox into its messages at each "From " line (the
// separator, which no header or body line of the fixture begins with).
func splitMbox(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for _, part := range strings.Split("\n"+s, "\nFrom ")[1:] {
		_, msg, ok := strings.Cut(part, "\n")
		if !ok {
			t.Fatalf("a separator line without a message: %q", part)
		}
		out = append(out, msg)
	}
	return out
}
