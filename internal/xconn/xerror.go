package xconn

import "fmt"

// XError is an X protocol error trapped during a call on a connection.
type XError struct {
	Code     int    // the error code (3 BadWindow, 8 BadMatch, ...)
	Request  int    // the major opcode of the failed request
	Minor    int    // the minor opcode (extension requests)
	Resource uint64 // the resource id the error names
	Text     string // Xlib's name for the code
}

// Error names the code and the request, as the driver's X errors always
// have; the resource is in its field.
func (e *XError) Error() string {
	return fmt.Sprintf("X error %d (%s), request %d.%d", e.Code, e.Text, e.Request, e.Minor)
}
