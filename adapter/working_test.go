package adapter

import (
	"bufio"
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// busyFor is how long the busy helper SUT computes before it answers:
// longer than the confirmation of the tests below, so that a Listener
// counting wall-clock silence concludes quiescence before the answer.
const busyFor = 1500 * time.Millisecond

// TestHelperBusySUT is a SUT, not a test: run as a subprocess with
// STG_TEST_BUSY_SUT set, it burns the CPU for busyFor before it answers:
// "start" before its first output, "answer" after reading an input (it
// writes the readiness line first), "child" before it exits.
func TestHelperBusySUT(t *testing.T) {
	mode := os.Getenv("STG_TEST_BUSY_SUT")
	if mode == "" {
		t.Skip("helper SUT of the tests of working SUTs")
	}
	if mode == "child" {
		burn(busyFor)
		os.Exit(0)
	}
	in := bufio.NewScanner(os.Stdin)
	if mode == "start" {
		burn(busyFor)
		os.Stdout.WriteString(`{"action":"up"}` + "\n")
	} else {
		os.Stdout.WriteString(`{"ready":true}` + "\n")
	}
	for in.Scan() {
		burn(busyFor)
		os.Stdout.WriteString(`{"action":"done"}` + "\n")
	}
	os.Exit(0)
}

// startBusy starts the busy helper SUT in mode, with its activity read
// from the proc file system at proc.
func startBusy(t *testing.T, mode, proc string) *Process {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no proc file system")
	}
	t.Setenv("STG_TEST_BUSY_SUT", mode)
	p, err := StartProcess([]string{os.Args[0], "-test.run=^TestHelperBusySUT$"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.proc.root = proc
	t.Cleanup(func() { p.Close() })
	for _, heard := p.Started(); mode == "answer" && !heard; _, heard = p.Started() {
		if out, err := p.Receive(context.Background(), 10*time.Millisecond); err != nil || out != nil {
			t.Fatalf("before the readiness line: %s", describe(out, err))
		}
	}
	return p
}

// quick is a Timing whose waits are all short but the cap.
var quick = Timing{Quiescence: time.Millisecond, Confirm: 300 * time.Millisecond, Startup: time.Nanosecond, MaxConfirm: time.Minute}

// listenAfter sends an input to p and listens once, quiescence deciding.
func listenAfter(t *testing.T, p *Process, timing Timing) Heard {
	t.Helper()
	lis := NewListener(p, timing, nil)
	if err := p.Send(context.Background(), Input{Action: "go"}); err != nil {
		t.Fatal(err)
	}
	lis.Sent()
	heard, err := lis.Listen(context.Background(), func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	return heard
}

// TestConfirmWaitsForWorkingSUT: a SUT that computes (busy loop) for
// longer than Confirm before it answers is not quiescent: the Listener
// gets its answer, not a confirmed silence. Before the Listener asked
// whether the SUT works, the silence was confirmed after 300ms. On a
// loaded machine the SUT only takes longer, and is still working (or
// runnable) all along; no timer decides.
func TestConfirmWaitsForWorkingSUT(t *testing.T) {
	p := startBusy(t, "answer", "/proc")
	heard := listenAfter(t, p, quick)
	if heard.Out == nil || heard.Out.Action != "done" {
		t.Fatalf("a SUT computing its answer was found silent for %v (confirmed %v)", heard.Silence, heard.Confirmed)
	}
}

// TestConfirmWaitsForScriptChild: a SUT script whose work is done by a
// command it starts after the input (a new process of its group, while
// the script itself waits) is working too.
func TestConfirmWaitsForScriptChild(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no proc file system")
	}
	t.Setenv("STG_TEST_BUSY_SUT", "child")
	// Built with -race, the command would sleep a second on exit (idle,
	// as a SUT may be): not the case under test.
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	script := `read x; "$0" -test.run='^TestHelperBusySUT$' </dev/null >/dev/null; echo '{"action":"done"}'; sleep 1000`
	p, err := StartProcess([]string{"sh", "-c", script, os.Args[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	heard := listenAfter(t, p, quick)
	if heard.Out == nil || heard.Out.Action != "done" {
		t.Fatalf("a script whose command computes the answer was found silent for %v (confirmed %v)", heard.Silence, heard.Confirmed)
	}
}

// TestStartupWaitsForWorkingSUT: a SUT not yet heard from that works
// past the start-up allowance is waited for, even for a silence that
// does not decide.
func TestStartupWaitsForWorkingSUT(t *testing.T) {
	p := startBusy(t, "start", "/proc")
	timing := quick
	timing.Startup = 300 * time.Millisecond // shorter than the start-up work
	lis := NewListener(p, timing, nil)
	heard, err := lis.Listen(context.Background(), func() bool { return false })
	if err != nil || heard.Out == nil || heard.Out.Action != "up" {
		t.Fatalf("a starting SUT at work: %s, silence %v", describe(heard.Out, err), heard.Silence)
	}
}

// TestConfirmIdleSUT: a SUT blocked in a read is idle: its silence is
// confirmed after Confirm, as before, long before the cap.
func TestConfirmIdleSUT(t *testing.T) {
	p, err := StartProcess([]string{"sh", "-c", "read x; sleep 1000"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	heard := listenAfter(t, p, quick)
	if heard.Out != nil || !heard.Confirmed || heard.Working {
		t.Fatalf("an idle SUT: %+v, want a confirmed silence", heard)
	}
	if heard.Silence < quick.Confirm {
		t.Errorf("silence concluded after %v, before Confirm", heard.Silence)
	}
}

// TestConfirmFallback: where the activity cannot be read (no proc file
// system), the confirmation counts wall-clock time, as before: the busy
// SUT's silence is confirmed after Confirm.
func TestConfirmFallback(t *testing.T) {
	p := startBusy(t, "answer", t.TempDir())
	heard := listenAfter(t, p, quick)
	if heard.Out != nil || !heard.Confirmed {
		t.Fatalf("without /proc: %+v, want a silence confirmed by the clock", heard)
	}
}

// TestStoppedSUTIsNotIdle: a SUT stopped by SIGSTOP (state T) cannot
// output, and has not refused to: its silence is not confirmed, and
// ends at MaxConfirm marked Working. Once continued, it answers.
func TestStoppedSUTIsNotIdle(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no proc file system")
	}
	p, err := StartProcess([]string{"sh", "-c", `read x; echo '{"action":"done"}'; sleep 1000`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pgid := p.cmd.Process.Pid
	if err := syscall.Kill(-pgid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	timing := quick
	timing.MaxConfirm = time.Second
	heard := listenAfter(t, p, timing)
	if heard.Out != nil || heard.Confirmed || !heard.Working || heard.Silence < time.Second {
		t.Fatalf("a stopped SUT: %+v, want an unconfirmed silence at the cap", heard)
	}
	syscall.Kill(-pgid, syscall.SIGCONT)
	out, err := p.Receive(context.Background(), noHang)
	if err != nil || out == nil || out.Action != "done" {
		t.Fatalf("the SUT continued: %s", describe(out, err))
	}
}
