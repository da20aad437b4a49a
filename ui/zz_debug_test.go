package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := newTestModel(t, sz[0], sz[1])
		keys := strings.Fields(os.Getenv("KEYS"))
		press(m, keys...)
		fmt.Println(screen(m))
	}
}
