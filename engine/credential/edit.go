package credential

// Introduced reports a credential-looking span that an edit of text
// creates: the del bytes at byte offset at replaced by ins (a typed
// insertion has del 0; a deleted character has ins ""). It is how a secret
// split over several writes into one field is caught: each write alone
// looks harmless, the field's text after the last one does not.
//
// Only spans the edit makes count, so writing next to a credential that a
// document already holds is not refused. A span of the edited text is old
// when the text before held the same span (same kind and place) wholly
// before the edit, or wholly after it (moved by the edit's change in
// length); every other span is new, including an old one that the edit
// extends or cuts. The single-word rule (password_like) counts when the
// edited text is such a word and the text before was not the same word at
// the same place.
//
// at and del are clamped to the text; they are byte offsets and should
// fall on character boundaries. Introduced("", 0, 0, s) is Detect(s).
func Introduced(text string, at, del int, ins string) (Match, bool) {
	at = max(0, min(at, len(text)))
	del = max(0, min(del, len(text)-at))
	edited := text[:at] + ins + text[at+del:]
	shift := len(ins) - del
	old := map[Match]bool{}
	for _, m := range Find(text) {
		switch {
		case m.End <= at:
			old[m] = true
		case m.Start >= at+del:
			old[Match{Kind: m.Kind, Start: m.Start + shift, End: m.End + shift}] = true
		}
	}
	for _, m := range Find(edited) {
		if !old[m] {
			return m, true
		}
	}
	m, ok := passwordLike(edited)
	if !ok {
		return Match{}, false
	}
	if was, wasOK := passwordLike(text); wasOK && was.End <= at && m == was {
		return Match{}, false
	} else if wasOK && was.Start >= at+del && m == (Match{Kind: was.Kind, Start: was.Start + shift, End: was.End + shift}) {
		return Match{}, false
	}
	return m, true
}
