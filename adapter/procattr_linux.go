package adapter

import "syscall"

// sutProcAttr puts the SUT in a process group of its own (Close kills the
// group: a shell script's children go too) and, on Linux, has the kernel
// kill it when stg dies, even by SIGKILL, when no Close can run.
// Pdeathsig reaches the SUT process itself; its own children are killed
// by Close (the group), not by the kernel.
func sutProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
