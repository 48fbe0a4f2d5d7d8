package native

// CallsInto counts the calls b's accessibility client sends to the app
// with bus name bus until stop (atspi.Client.CountCalls): the external
// tests hold the driver to how often it asks a stopped app.
func CallsInto(b *Backend, bus string) (count func() int, stop func()) {
	return b.a.CountCalls(bus)
}
