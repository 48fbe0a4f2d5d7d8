package desktop

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// The Thunderbird fixture: a local folder of 1,000 plain-text messages,
// made at test time as an mbox file in a new profile (no mailbox is kept
// in the repository). Every message is known from its number alone, so
// the tests and the benchmark name what they expect by calling the same
// functions that wrote it.

// MailFolder is the fixture folder's name in Local Folders.
const MailFolder = "Fixture"

// MailMessages is how many messages the folder holds.
const MailMessages = 1000

// mailEpoch is the first message's date; each next one is an hour later,
// so the newest is message MailMessages.
var mailEpoch = time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)

// MailSubject is message i's subject (i from 1): the number is padded so
// that no subject holds another.
func MailSubject(i int) string { return fmt.Sprintf("Fixture message %04d", i) }

// MailBody is the first line of message i's body.
func MailBody(i int) string {
	return fmt.Sprintf("Body of fixture message %04d: the quick brown fox jumps over the lazy dog.", i)
}

// mailSender is message i's sender: one of 37, so senders repeat.
func mailSender(i int) (name, addr string) {
	return fmt.Sprintf("Sender %d", i%37), fmt.Sprintf("sender%d@example.invalid", i%37)
}

// WriteMailbox writes n messages in mbox format (the "From " line, the
// headers, a two-line body): the same bytes every time.
func WriteMailbox(w io.Writer, n int) error {
	b := bufio.NewWriter(w)
	for i := 1; i <= n; i++ {
		name, addr := mailSender(i)
		date := mailEpoch.Add(time.Duration(i-1) * time.Hour)
		fmt.Fprintf(b, "From %s %s\n", addr, date.Format("Mon Jan _2 15:04:05 2006"))
		fmt.Fprintf(b, "From: %s <%s>\n", name, addr)
		fmt.Fprintf(b, "To: Ada <%s>\n", sandbox.ThunderbirdIdentity)
		fmt.Fprintf(b, "Subject: %s\n", MailSubject(i))
		fmt.Fprintf(b, "Date: %s\n", date.Format(time.RFC1123Z))
		fmt.Fprintf(b, "Message-ID: <fixture-%04d@example.invalid>\n", i)
		b.WriteString("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n\n")
		fmt.Fprintf(b, "%s\nSecond line of message %04d.\n\n", MailBody(i), i)
	}
	return b.Flush()
}

// ThunderbirdMail prepares Thunderbird on d in a new profile whose Local
// Folders hold the fixture folder (MailMessages messages), open in the
// three-pane window at the start; not started.
func ThunderbirdMail(d *sandbox.Desktop) (*exec.Cmd, error) {
	p, err := d.NewThunderbirdProfile(MailFolder)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p.MailboxFile(MailFolder), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	if err := WriteMailbox(f, MailMessages); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return d.ThunderbirdCommand(p)
}
