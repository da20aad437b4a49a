package jsonscan

import (
	"slices"
	"testing"
)

func TestMembers(t *testing.T) {
	obj := []byte(` { "a" : [1,{"b":"]}\"["}] , "c\"d":"x\\",` + "\n\t" + `"e":-1.5e3,"f":true,"g":{},"h":null } `)
	obj = obj[1 : len(obj)-1] // as decodeObject gives it: trimmed
	var got []string
	for key, value := range Members(obj) {
		got = append(got, string(key)+"="+string(value))
	}
	want := []string{`"a"=[1,{"b":"]}\"["}]`, `"c\"d"="x\\"`, `"e"=-1.5e3`, `"f"=true`, `"g"={}`, `"h"=null`}
	if !slices.Equal(got, want) {
		t.Errorf("members:\n got %q\nwant %q", got, want)
	}
	for range Members([]byte(`{}`)) {
		t.Error("members of {}")
	}
}
