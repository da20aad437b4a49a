package ui

import (
	"fmt"
	"os"
	"testing"
)

func TestZZShow(t *testing.T) {
	w, h := 120, 40
	fmt.Sscan(os.Getenv("SZ"), &w, &h)
	m := newTestModel(t, w, h)
	for _, k := range []string{os.Getenv("TABKEY")} {
		press(m, k)
	}
	for _, k := range []rune(os.Getenv("KEYS")) {
		press(m, string(k))
	}
	fmt.Println(screen(m))
}
