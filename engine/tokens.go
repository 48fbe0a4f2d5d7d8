package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Element tokens (docs/contract.md#tokens) are "<snapshot_id>:<N>". N, the
// element_index, is stable per element for the life of the driver process:
// the first time a window's element is seen it gets the window's next unused
// number, and a removed element's number is never given to another.
// snapshot_id names one read.
//
// A token acts while the window's current structure equals the structure its
// snapshot saw. Structure is the set of (element, parent, index in parent,
// role); names, values and states are not structure, so typing into a field
// keeps every token valid while adding a row does not.

// rowRegistry hands out stable row numbers per window.
type rowRegistry struct {
	mu      sync.Mutex
	windows map[WindowID]*windowRows
}

type windowRows struct {
	next  int
	index map[ElementID]int
}

func newRowRegistry() *rowRegistry {
	return &rowRegistry{windows: map[WindowID]*windowRows{}}
}

// number returns the stable row numbers of a tree's nodes, assigning new
// numbers to elements never seen before, in tree order.
func (r *rowRegistry) number(t *Tree) []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.windows[t.Window]
	if w == nil {
		w = &windowRows{next: 1, index: map[ElementID]int{}}
		r.windows[t.Window] = w
	}
	out := make([]int, len(t.Nodes))
	for i := range t.Nodes {
		id := t.Nodes[i].ID
		n, ok := w.index[id]
		if !ok {
			n = w.next
			w.next++
			w.index[id] = n
		}
		out[i] = n
	}
	return out
}

// Fingerprint is a hash of a tree's structure.
type Fingerprint [16]byte

// structureOf hashes the structure of a tree: every element's identity,
// its parent's identity, its index in the parent and its role.
func structureOf(t *Tree) Fingerprint {
	h := sha256.New()
	var buf [8]byte
	for i := range t.Nodes {
		n := &t.Nodes[i]
		h.Write([]byte(n.ID))
		h.Write([]byte{0})
		if n.Parent >= 0 {
			h.Write([]byte(t.Nodes[n.Parent].ID))
		}
		h.Write([]byte{0})
		binary.LittleEndian.PutUint64(buf[:], uint64(n.IndexInParent))
		h.Write(buf[:])
		h.Write([]byte(n.Role))
		h.Write([]byte{1})
	}
	var f Fingerprint
	copy(f[:], h.Sum(nil))
	return f
}

// Token is a parsed element token.
type Token struct {
	Snapshot string
	Index    int
}

func (t Token) String() string { return t.Snapshot + ":" + strconv.Itoa(t.Index) }

// ParseToken reads "<snapshot_id>:<N>". Anything else is invalid_arguments.
func ParseToken(s string) (Token, *Error) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 || i == len(s)-1 || len(s) > 64 {
		return Token{}, Errf(CodeInvalidArguments, "element_token must look like <snapshot_id>:<N>")
	}
	snap, num := s[:i], s[i+1:]
	if !validSnapshotID(snap) {
		return Token{}, Errf(CodeInvalidArguments, "element_token must look like <snapshot_id>:<N>")
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || strconv.Itoa(n) != num {
		return Token{}, Errf(CodeInvalidArguments, "element_token must look like <snapshot_id>:<N>")
	}
	return Token{Snapshot: snap, Index: n}, nil
}

// Snapshot ids are "s" followed by a decimal counter.
func validSnapshotID(s string) bool {
	if len(s) < 2 || s[0] != 's' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// snapshot is what the engine remembers of one read: enough to resolve its
// tokens and to tell whether they are still valid.
type snapshot struct {
	id        string
	session   *Session // the session whose read it is; its tokens act there only
	window    WindowID
	structure Fingerprint
	epoch     uint64      // the session's resume epoch when it was taken
	tree      *Tree       // the read itself, for diffs and row rendering
	rows      []int       // element_index of each node of tree
	pos       map[int]int // element_index -> node position in tree

	// What the backend's change reports stood at just before the read
	// (marked is false without them), and when the read began: a snapshot
	// whose app reported nothing since can stand in for a fresh read
	// (reuse.go).
	mark   ChangeMark
	marked bool
	at     time.Time

	// framesStale: the tree was built from an earlier read and what the
	// app reported since (patch.go), or is an earlier read whose app
	// reported frames moved (reuse.go); an element that moved without a
	// report of its own (GTK 3's table cells when a column widens) keeps
	// its old frame, so frames are read again before a row is shown, and
	// details before it is acted on.
	framesStale bool

	// fillMu serialises filling in the tree's details (reads render a
	// snapshot while an act may copy it).
	fillMu sync.Mutex
	// refetched: positions whose details, or frames (a read keeping the
	// snapshot: reuse.go details), were read again since the tree was
	// built, for a snapshot whose frames may be stale (framesStale).
	refetched map[int]bool
}

// token is the element token of the row at pos: the snapshot's id and
// the row's number.
func (sn *snapshot) token(pos int) string { return sn.id + ":" + strconv.Itoa(sn.rows[pos]) }

// snapshotStore keeps a session's recent snapshots, oldest dropped first.
// Their ids come from the driver's one counter (seq), so an id is never
// issued twice in a process: a token of an ended session or of another
// connection names no snapshot of this store, ever, and is stale.
type snapshotStore struct {
	seq   *atomic.Uint64
	mu    sync.Mutex
	order []string
	byID  map[string]*snapshot
}

const maxSnapshots = 64

func newSnapshotStore(seq *atomic.Uint64) *snapshotStore {
	return &snapshotStore{seq: seq, byID: map[string]*snapshot{}}
}

func (s *snapshotStore) add(sn *snapshot) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn.id = "s" + strconv.FormatUint(s.seq.Add(1), 10)
	s.byID[sn.id] = sn
	s.order = append(s.order, sn.id)
	if len(s.order) > maxSnapshots {
		delete(s.byID, s.order[0])
		s.order = s.order[1:]
	}
	return sn.id
}

// replace puts sn in the place of the snapshot of its id, where the store
// still holds one: its place among the kept ones, and so how long it is
// kept, stays; an id dropped stays dropped. sn is a copy of that snapshot
// with more of its details read (reuse.go details); from here on it is
// shared, and filled in under its fillMu only.
func (s *snapshotStore) replace(sn *snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[sn.id]; ok {
		s.byID[sn.id] = sn
	}
}

// latestOf is the newest snapshot of window w, or nil.
func (s *snapshotStore) latestOf(w WindowID) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.order) - 1; i >= 0; i-- {
		if sn := s.byID[s.order[i]]; sn != nil && sn.window == w {
			return sn
		}
	}
	return nil
}

func (s *snapshotStore) get(id string) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

// tokenSnapshot finds the snapshot a token names. It is stale when the
// snapshot is unknown to this session (too old, never issued, or issued to
// another session: ids are unique in the process, so an ended session's or
// another connection's id is never found here), when it belongs to another
// session or to one that ended, and when it was taken before a hand-back
// resume.
func (s *Session) tokenSnapshot(t Token) (*snapshot, *Error) {
	sn := s.snaps.get(t.Snapshot)
	if sn == nil {
		return nil, Errf(CodeStaleElementToken, "snapshot %s is unknown, too old, or of another session", t.Snapshot)
	}
	s.mu.Lock()
	epoch, ended := s.epoch, s.ended
	s.mu.Unlock()
	if sn.session != s || ended {
		return nil, Errf(CodeStaleElementToken, "snapshot %s is unknown, too old, or of another session", t.Snapshot)
	}
	if sn.epoch != epoch {
		return nil, Errf(CodeStaleElementToken, "token %s predates the takeover resume", t)
	}
	return sn, nil
}

// agrees checks the window target given next to a token by the one rule
// of targets (target.go's named, among the session's approved windows in
// wins). Fields that name no window together fail as that target fails
// anywhere (window_target_not_found, app_not_approved): the target is
// wrong, whatever the token. Fields that name windows, none of them the
// token's window w, make the token stale_element_token, as the spec says
// of a token for another window: the model holds a token it took for
// another window's.
func (s *Session) agrees(t targetArgs, tok Token, w Window, wins []Window) *Error {
	if !t.any() {
		return nil
	}
	named := t.named(s.approvedOf(wins), matchApp)
	if len(named) == 0 {
		return t.namesNone(wins)
	}
	for _, x := range named {
		if x.ID == w.ID {
			return nil
		}
	}
	return Errf(CodeStaleElementToken, "token %s belongs to another window", tok)
}

// resolveToken checks a token against a fresh read of its window and
// returns the element's position in that read. The token is valid while
// the window's structure equals what its snapshot saw.
func (s *Session) resolveToken(t Token, cur *snapshot) (int, *Error) {
	sn, err := s.tokenSnapshot(t)
	if err != nil {
		return 0, err
	}
	if sn.window != cur.window {
		return 0, Errf(CodeStaleElementToken, "token %s belongs to another window", t)
	}
	if sn.structure != cur.structure {
		return 0, Errf(CodeStaleElementToken, "window %d changed since snapshot %s", cur.window, t.Snapshot)
	}
	pos, ok := cur.pos[t.Index]
	if !ok {
		return 0, Errf(CodeStaleElementToken, "element %d is not in window %d", t.Index, cur.window)
	}
	return pos, nil
}
