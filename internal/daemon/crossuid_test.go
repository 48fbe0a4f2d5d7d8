package daemon

import (
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestAnotherUsersConnectionIsClosed connects from a process running as
// nobody (uid 65534): the daemon must close the connection without an
// answer. The same client running as this user is answered, so the test
// would notice a helper that cannot connect at all.
func TestAnotherUsersConnectionIsClosed(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	testkit.HelloAsThisUserAndNobody(t, td.path, helperEnv)
}
