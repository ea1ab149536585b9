//go:build !linux

package adapter

import "syscall"

// sutProcAttr puts the SUT in a process group of its own, which Close
// kills. Outside Linux there is no parent-death signal.
func sutProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
