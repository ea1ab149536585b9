package stgtest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/runner"
)

// config is what the environment sets.
type config struct {
	sut     []string // STG_SUT; nil when unset
	seed    int64
	seedSet bool // STG_SEED was set; otherwise seed comes from the clock
	runs    int
	opts    runner.Options
	// callTimeout bounds a call of an external function's command
	// (STG_CALL_TIMEOUT; 0: extfunc.DefaultTimeout).
	callTimeout time.Duration
	impls       map[string]extfunc.GoFunc // RunFuncs's
	// env holds the settings read, NAME=VALUE in the order of variables,
	// but for STG_SEED and STG_RUNS, which a replay line sets itself.
	env []string
}

// A variable is an environment variable of the harness; set stores its
// non-empty value s in c, or says what s should have been.
type variable struct {
	name string
	set  func(c *config, s string) error
}

// variables returns the environment variables of the harness, in the
// order of the package documentation.
func variables() []variable {
	return []variable{
		{"STG_SUT", func(c *config, s string) (err error) {
			c.sut, err = adapter.SplitCommand(s)
			return err
		}},
		{"STG_SEED", func(c *config, s string) (err error) {
			c.seed, err = strconv.ParseInt(s, 10, 64)
			c.seedSet = true
			return wantIf(err, "an integer")
		}},
		{"STG_RUNS", func(c *config, s string) error { return atLeast(&c.runs, s, 1) }},
		{"STG_DEPTH", func(c *config, s string) error { return atLeast(&c.opts.Depth, s, 0) }},
		{"STG_QUIESCENCE", func(c *config, s string) error {
			if s == "auto" {
				c.opts.Auto = true
				return nil
			}
			c.opts.Auto = false
			return positive(&c.opts.Quiescence, s, " or auto")
		}},
		{"STG_CONFIRM", func(c *config, s string) error { return positive(&c.opts.Confirm, s, "") }},
		{"STG_STARTUP", func(c *config, s string) error { return positive(&c.opts.Startup, s, "") }},
		{"STG_MAX_CONFIRM", func(c *config, s string) error { return positive(&c.opts.MaxConfirm, s, "") }},
		{"STG_TIMEOUT", func(c *config, s string) error { return positive(&c.opts.Timeout, s, "") }},
		{"STG_MAX_STEPS", func(c *config, s string) error { return atLeast(&c.opts.MaxSteps, s, 1) }},
		{"STG_CALL_TIMEOUT", func(c *config, s string) error { return positive(&c.callTimeout, s, "") }},
	}
}

// readConfig reads the configuration from getenv (os.Getenv). Without
// STG_SEED, the seed is the one clock gives.
func readConfig(getenv func(string) string, clock func() time.Time) (config, error) {
	c := config{runs: 1, opts: runner.DefaultOptions()}
	for _, v := range variables() {
		s := getenv(v.name)
		if s == "" {
			continue
		}
		if err := v.set(&c, s); err != nil {
			return config{}, fmt.Errorf("%s=%q: %v", v.name, s, err)
		}
		if v.name != "STG_SEED" && v.name != "STG_RUNS" {
			c.env = append(c.env, v.name+"="+shellQuote(s))
		}
	}
	if !c.seedSet {
		c.seed = clock().UnixNano() % 1e9
	}
	return c, nil
}

func wantIf(err error, what string) error {
	if err != nil {
		return errors.New("want " + what)
	}
	return nil
}

// atLeast parses s as an integer of at least min into *n.
func atLeast(n *int, s string, min int) error {
	x, err := strconv.Atoi(s)
	if err != nil || x < min {
		return fmt.Errorf("want an integer >= %d", min)
	}
	*n = x
	return nil
}

// positive parses s as a positive Go duration into *d; or names another
// accepted value.
func positive(d *time.Duration, s, or string) error {
	x, err := time.ParseDuration(s)
	if err != nil || x <= 0 {
		return fmt.Errorf("want a positive Go duration such as 500ms or 2s%s", or)
	}
	*d = x
	return nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
