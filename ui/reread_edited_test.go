package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// editedInPlace rewrites every objective value of leanLines' records to
// another of the same length: the same size, ids and groups, as a dump
// rescored in place ("acc": false -> "acc": true ).
var editedInPlace = strings.NewReplacer(
	`"accuracy":0,`, `"accuracy":1,`, `"accuracy":1,`, `"accuracy":0,`,
	`"accuracy":0.25`, `"accuracy":0.75`, `"accuracy":0.75`, `"accuracy":0.25`,
	`"accuracy":0.5`, `"accuracy":0.4`)

// TestRereadEditedInPlace: a record edited in place after the load, so
// that it scores otherwise, is said changed where it is read again, the
// detail and the group's completions, rather than shown with metadata that
// contradicts its computed objectives.
func TestRereadEditedInPlace(t *testing.T) {
	text := leanLines(0, 32, "t")
	path := writeLeanFile(t, text)
	app := loadModel(t, Input{Source: path, Load: func(progress func(done, total int64)) (*loaders.Result, error) {
		return loaders.Load([]string{path}, loaders.Options{Progress: progress})
	}}, 200)
	checkLean(t, app.Session())
	edited := editedInPlace.Replace(text)
	if len(edited) != len(text) || edited == text {
		t.Fatal("the edit does not keep the file's size")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	press(app, "5", "enter")
	checkScreen(t, "the detail", screen(app), []string{"changed since it was loaded: accuracy is now "}, []string{"response of t"})
	press(app, "esc", "2", "enter")
	checkScreen(t, "the group", screen(app), []string{`(cannot read it again: `, `trajectory "t0" changed since`}, []string{"response of t"})
}
