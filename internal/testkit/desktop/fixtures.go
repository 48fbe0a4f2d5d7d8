package desktop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// The everyday apps' fixtures, made the same way for the native
// tests and the read benchmark (ci/bench): a locked KeePassXC database, a
// FeatherPad notes file, and LibreOffice sheets and a long document
// converted from text by soffice --headless.

// MasterPassword locks the KeePassXC fixture database.
const MasterPassword = "fixture-master-9c1e"

// KeePassXCVault writes the KeePassXC fixture, Vault.kdbx in dir: two
// entries, locked with MasterPassword (made by keepassxc-cli).
func KeePassXCVault(d *sandbox.Desktop, dir string) (string, error) {
	db := filepath.Join(dir, "Vault.kdbx")
	err := d.KeePassXCDatabase(db, MasterPassword,
		sandbox.KeePassEntry{Title: "Mail account", Username: "ada", URL: "https://mail.example", Password: "entry-pw-1"},
		sandbox.KeePassEntry{Title: "Bank", Username: "ada.l", URL: "https://bank.example", Password: "entry-pw-2"})
	return db, err
}

// FeatherPadNotes writes notes.txt in dir: 60 numbered lines for FeatherPad.
func FeatherPadNotes(dir string) (string, error) {
	file := filepath.Join(dir, "notes.txt")
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "Line %d of the notes.\n", i)
	}
	return file, os.WriteFile(file, []byte(b.String()), 0o600)
}

// OfficeFixture is a file a LibreOffice app opens: its source text and
// the format soffice converts it to.
type OfficeFixture struct {
	Name   string // the source's file name
	Format string // what it is converted to
	Source func() string
}

var (
	// Sheet200 is a 200 x 8 sheet: a header row and 199 rows.
	Sheet200 = OfficeFixture{"Sheet200.csv", "ods", func() string {
		var b strings.Builder
		b.WriteString("Item,Qty,Price,Region,Code,Day,Note,Total\n")
		for i := 1; i < 200; i++ {
			fmt.Fprintf(&b, "Item %d,%d,%d.5,%s,C%04d,%d,note %d,%d\n", i, i, i, [2]string{"North", "South"}[i%2], i, i%28+1, i, i*3)
		}
		return b.String()
	}}
	// Sheet100k is a 100,000-row sheet of three columns.
	Sheet100k = OfficeFixture{"Sheet100k.csv", "ods", func() string {
		var b strings.Builder
		for i := 1; i <= 100000; i++ {
			fmt.Fprintf(&b, "Row %d,%d,%d\n", i, i, i*2)
		}
		return b.String()
	}}
	// LongDocument is a 400-paragraph text document.
	LongDocument = OfficeFixture{"Long.txt", "odt", func() string {
		var b strings.Builder
		for i := 1; i <= 400; i++ {
			fmt.Fprintf(&b, "Paragraph %d: the quick brown fox jumps over the lazy dog.\n", i)
		}
		return b.String()
	}}
)

// Make writes the fixture's source in dir and converts it there; it
// returns the converted file's path.
func (f OfficeFixture) Make(ctx context.Context, d *sandbox.Desktop, dir string) (string, error) {
	src := filepath.Join(dir, f.Name)
	if err := os.WriteFile(src, []byte(f.Source()), 0o600); err != nil {
		return "", err
	}
	return d.ConvertDocument(ctx, src, f.Format, dir)
}
