package mock

import "github.com/nish-driver/nish-driver/engine"

// Tables read in part, as the native backend reads a spreadsheet's sheet:
// the table's children are the cells on screen, and the table says how
// many rows and columns it has and which of them its children are
// (engine.TableSize). The mock takes the size as the test states it, so a
// contract test can give a table a million rows without a million
// elements.

// SetTableSize makes the element a table whose cells the read holds in
// part, with the size it reports; nil makes it an ordinary element again.
func (e *Element) SetTableSize(s *engine.TableSize) *Element {
	return e.set(func() {
		if s == nil {
			e.table = nil
			return
		}
		c := *s
		e.table = &c
	})
}

// tableSize is the size a node of the element carries: a copy, so a read
// never shares the element's memory. mu held.
func (e *Element) tableSize() *engine.TableSize {
	if e.table == nil {
		return nil
	}
	c := *e.table
	return &c
}
