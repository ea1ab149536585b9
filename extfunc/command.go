package extfunc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// command is an implementation that runs as a process speaking the
// JSON Lines protocol of the package documentation. It is started on
// its first call, and again after a call that left it dead or out of
// step.
type command struct {
	f    *expr.Func
	line string
	argv []string
	opts Options

	mu sync.Mutex // one call at a time
	p  *adapter.Process
}

func newCommand(f *expr.Func, cmdline string, opts Options) (*command, error) {
	argv, err := adapter.SplitCommand(cmdline)
	if err != nil {
		return nil, fmt.Errorf("implementation of %s: %v", f.Name, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("implementation of %s: empty command", f.Name)
	}
	return &command{f: f, line: cmdline, argv: argv, opts: opts}, nil
}

// call sends one request and reads one reply, within the timeout.
func (c *command) call(args []expr.Value) (expr.Value, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fail := func(msg string, tail []string) (expr.Value, error) {
		return expr.Value{}, &CallError{Call: Describe(c.f, args), Msg: msg, Stderr: tail}
	}
	if c.p == nil {
		p, err := adapter.StartProcessIn(c.opts.Dir, c.argv, c.opts.Stderr)
		if err != nil {
			return fail(fmt.Sprintf("cannot start the implementation %q: %v", c.line, err), nil)
		}
		c.p = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.Timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	if err := c.p.WriteLine(ctx, encodeRequest(c.f, args)); err != nil {
		msg, tail := c.broken(err)
		return fail(msg, tail)
	}
	line, err := c.p.ReadLine(ctx, time.Until(deadline))
	if err == nil && line == nil {
		err = context.DeadlineExceeded
	}
	if err != nil {
		msg, tail := c.broken(err)
		return fail(msg, tail)
	}
	v, err := decodeReply(line, c.f.Result)
	if err != nil {
		// One reply per request: the process is still in step.
		return fail(err.Error(), nil)
	}
	return v, nil
}

// broken explains an exchange that failed, and kills the process: it is
// dead, hangs or is out of step. The next call starts it again.
func (c *command) broken(err error) (string, []string) {
	p := c.p
	c.p = nil
	tail := p.Kill()
	var exit *adapter.ExitError
	switch {
	case errors.As(err, &exit):
		return fmt.Sprintf("implementation %q ended: %s", c.line, exit.What), exit.Stderr
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("implementation timed out after %s", c.opts.Timeout), tail
	}
	return fmt.Sprintf("implementation %q: %v", c.line, err), tail
}

// close kills the process, if it runs.
func (c *command) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p != nil {
		c.p.Kill()
		c.p = nil
	}
}
