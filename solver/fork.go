package solver

// Fork returns a new context with c's settings (its time and resource
// limits, its facts and whether its memo is on) and nothing else of c's:
// it has its own Z3 context, memo and counts, so that another goroutine
// may use it while c is in use (a context is used by one goroutine at a
// time; Z3 contexts are independent). Join adds its counts to c's.
func (c *Context) Fork() (*Context, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	f, err := NewContext()
	if err != nil {
		return nil, err
	}
	f.timeout = c.timeout
	f.setRlimit(c.rlimit)
	f.memo.off = c.memo.off
	if err := f.SetFacts(c.facts); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Join adds the counts of f, a context made by c.Fork, to c's and
// closes f. It is called once f's goroutine is done with it.
func (c *Context) Join(f *Context) {
	c.stats = c.stats.Add(f.Stats())
	f.Close()
}
