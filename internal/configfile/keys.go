package configfile

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/suggest"
)

// validKeys lists what a config file may set, for the error about a
// key that is none of them.
const validKeys = "computer, method, scope, scale, normalize, task, verification_weight, efficiency_weight, minimize, weights, epsilon, std, group_of_one, nansum, from, group_by, batch_by, id_by, logged_advantage, match_logged, prompt_by, task_metric, pass_threshold, filter_groups, constraint, penalty, gate, normalize_objectives, priority, priority_tolerance, source_by, [sources.NAME] objective/weights, [[objective]] name/expr/goal/weight"

// unknownKeysError is the error for the keys of the config file at path,
// whose text is text, that no setting reads: "PATH:LINE: unknown key K",
// placed at the first of them, so that a typo is found at once, with the
// keys of the same table close to each ("unknown key constraints; did you
// mean constraint?", "unknown keys a (did you mean b?), c" for several).
func unknownKeysError(path, text string, keys []toml.Key) error {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.String()
	}
	var said string
	if len(keys) == 1 {
		said = "key " + names[0] + suggest.DidYouMean(nearKeys(keys[0]))
	} else {
		for i, k := range keys {
			if near := nearKeys(k); len(near) > 0 {
				names[i] += " (did you mean " + suggest.OrList(near) + "?)"
			}
		}
		said = "keys " + strings.Join(names, ", ")
	}
	return placed(path, text, keyLine(text, keys[0]), fmt.Errorf("unknown %s (valid: %s)", said, validKeys))
}

// nearKeys returns the keys a config file may set in key's table that are
// close to key's last part (suggest.Near), each said in full
// ("objective.goal" for "objective.goall"); none when key's table is
// itself unknown.
func nearKeys(key toml.Key) []string {
	table := reflect.TypeFor[setup.Config]()
	for i := 0; i < len(key)-1; i++ {
		field, ok := tomlField(table, key[i])
		if !ok {
			return nil
		}
		switch t := field.Type; {
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct: // [[objective]]
			table = t.Elem()
		case t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Struct: // [sources.NAME]: NAME is any
			table = t.Elem()
			i++
		default:
			return nil
		}
	}
	var settable []string
	for i := range table.NumField() {
		if name := tomlName(table.Field(i)); name != "" {
			settable = append(settable, name)
		}
	}
	near := suggest.Near(key[len(key)-1], settable)
	for i, n := range near {
		near[i] = append(key[:len(key)-1:len(key)-1], n).String()
	}
	return near
}

// tomlField returns the field of the struct type table that the config
// file sets as name.
func tomlField(table reflect.Type, name string) (reflect.StructField, bool) {
	for i := range table.NumField() {
		if f := table.Field(i); tomlName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// tomlName returns the key a config file sets f by, "" for a field it
// cannot set.
func tomlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// keyLine returns the 1-based line of text where key is set or its table
// opens, 0 when it cannot tell. The TOML decoder keeps the places of keys
// to itself, so the text is scanned again: table headers set the prefix of
// the keys that follow them. (Quoted keys holding dots are not split
// right; such a key only loses its line.)
func keyLine(text string, key toml.Key) int {
	want := strings.Join(key, ".")
	table := ""
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name := strings.Trim(strings.SplitN(line, "#", 2)[0], "[] \t")
			table = unquoteKey(name)
			if table == want {
				return i + 1
			}
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		full := unquoteKey(name)
		if table != "" {
			full = table + "." + full
		}
		if full == want {
			return i + 1
		}
	}
	return 0
}

// unquoteKey returns a dotted TOML key without the spaces and quotes
// around its parts.
func unquoteKey(key string) string {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// entryKeyLine returns the 1-based line of text where key is set in the
// entry-th (from 0) table of the array of tables array (entry 1 of
// "objective" is the second [[objective]]), the line of that table's
// header when it does not set key, else the line where array is set (an
// inline array of tables), 0 when it cannot tell. It scans as keyLine
// does.
func entryKeyLine(text, array string, entry int, key string) int {
	header, seen, in := 0, -1, false
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name := unquoteKey(strings.Trim(strings.SplitN(line, "#", 2)[0], "[] \t"))
			in = false
			if strings.HasPrefix(line, "[[") && name == array {
				seen++
				if in = seen == entry; in {
					header = i + 1
				}
			}
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if in && ok && !strings.HasPrefix(line, "#") && unquoteKey(name) == key {
			return i + 1
		}
	}
	if header == 0 {
		return settingLine(text, strings.Split(array, "."))
	}
	return header
}

// settingLine returns the line of text where key is set, else where the
// nearest table holding it is (an inline table's key is on its table's
// line), 0 when it cannot tell.
func settingLine(text string, key toml.Key) int {
	for n := len(key); n > 0; n-- {
		if line := keyLine(text, key[:n]); line > 0 {
			return line
		}
	}
	return 0
}
