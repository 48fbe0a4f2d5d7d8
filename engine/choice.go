package engine

// optionOfClosedChoice reports whether the element at pos is an option of
// a combo box that shows and is enabled while its list is closed. The
// option does not show, yet picking it is what a person does with the
// arrow keys on the closed box, and the browsers give every option of a
// <select> a "select" action for it; a click on it is taken as that pick
// rather than refused as hidden. Anything else that does not show goes
// through the below-the-fold rules (scrollview.go).
func optionOfClosedChoice(t *Tree, pos int) bool {
	n := &t.Nodes[pos]
	switch n.Role {
	case "menu_item", "list_item", "option", "check_menu_item", "radio_menu_item":
	default:
		return false
	}
	// The option sits in the box's list or menu (a level or two down).
	for p, hops := n.Parent, 0; p >= 0 && hops < 3; p, hops = t.Nodes[p].Parent, hops+1 {
		if a := &t.Nodes[p]; a.Role == "combo_box" {
			return a.HasState("showing") && !insensitive(a)
		}
	}
	return false
}
