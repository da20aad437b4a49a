package output

import (
	"context"
	"io"
	"os"
	"strconv"
	"syscall"
	"testing"
)

// TestWriteFileSocket: /proc/self/fd/N of a socket, which open(2)
// refuses (as /dev/stdout is under systemd), is written in place through
// a duplicate of descriptor N, which stays open.
func TestWriteFileSocket(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip("no socket pair:", err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "read end"), os.NewFile(uintptr(fds[1]), "write end")
	defer r.Close()
	path := "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))
	if err := WriteFile(context.Background(), path, writeString("through the socket\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("and again\n")); err != nil {
		t.Fatalf("descriptor %s closed: %v", path, err)
	}
	w.Close()
	if got, _ := io.ReadAll(r); string(got) != "through the socket\nand again\n" {
		t.Fatalf("the reader got %q", got)
	}
}
