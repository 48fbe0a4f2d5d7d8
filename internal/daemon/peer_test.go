package daemon

import "testing"

func TestPeerString(t *testing.T) {
	p := Peer{UID: 1000, GID: 100, PID: 4242}
	if got, want := p.String(), "unix:uid=1000,gid=100,pid=4242"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestAdmitOnlyTheDaemonsOwnUser(t *testing.T) {
	cases := []struct {
		name  string
		peer  Peer
		euid  int
		admit bool
	}{
		{"same user", Peer{UID: 1000, GID: 1000, PID: 10}, 1000, true},
		{"same user, other group", Peer{UID: 1000, GID: 27, PID: 10}, 1000, true},
		{"another user", Peer{UID: 1001, GID: 1000, PID: 10}, 1000, false},
		{"root is not special to a user's daemon", Peer{UID: 0, GID: 0, PID: 10}, 1000, false},
		{"a user is not admitted by root's daemon", Peer{UID: 65534, GID: 65534, PID: 10}, 0, false},
		{"root's daemon serves root", Peer{UID: 0, GID: 0, PID: 10}, 0, true},
		{"a uid that wraps in 32 bits", Peer{UID: 4294967295, PID: 10}, -1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := Admit(tc.peer, tc.euid)
			if (err == nil) != tc.admit {
				t.Errorf("admit = %v, want admitted %v", err, tc.admit)
			}
		})
	}
}
