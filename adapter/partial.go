package adapter

// Partial implements the Partial interface of Listener: the connection
// holds bytes of a line whose newline has not arrived (or is discarding
// the rest of a line too long to keep). Those bytes are an output being
// written, never silence.
func (l *lineConn) Partial() bool { return l.skip || len(l.buf) > l.off }
