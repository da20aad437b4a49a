package configfile

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
)

// valueError is the error of one value of the file: the engine's own,
// at the line of the key that set it.
type valueError struct {
	line int
	err  error
}

// Flags are the command line's settings over the file's: a value of the
// file that a flag overrides is not the file's to check.
type Flags struct {
	// Changed reports whether the flag called name was given; nil when
	// none was.
	Changed func(name string) bool
	// Weights are the objectives' weights the flags give (--weight).
	Weights map[string]float64
}

// changed reports whether the flag called name was given.
func (fl Flags) changed(name string) bool { return fl.Changed != nil && fl.Changed(name) }

// CheckValues checks, key by key, the values the file set that no flag
// of flags overrode, merged being the config of the file and the flags: the
// engine checks each in a config holding it and what it needs of merged
// (the objectives' names, the priority), so that its error is that key's,
// "PATH:LINE: ERR", the first by line. What is wrong only in how keys go
// together, or with a flag's value, is left to the caller.
func (f *File) CheckValues(merged setup.Config, flags Flags) error {
	fc := f.Config
	var errs []valueError
	check := func(line int, err error) {
		if err != nil {
			errs = append(errs, valueError{line, err})
		}
	}
	key := func(k string) int { return keyLine(f.Text, toml.Key{k}) }
	// ours reports whether the file's value of key is the one used: set
	// in the file and not by its flag.
	ours := func(set bool, flag string) bool { return set && !flags.changed(flag) }
	options := func(c setup.Config) error { _, err := engine.OptionsOf(c); return err }
	fields := func(group, batch, id string) error { _, err := scoring.NewRecordFields(group, batch, id); return err }

	if ours(fc.From != "", "from") {
		check(key("from"), layouts.CheckFrom("from", fc.From))
	}
	if ours(fc.Computer != "", "computer") {
		_, err := setup.ParseComputer(fc.Computer)
		check(key("computer"), err)
	}
	// The method is checked with the priority used: lexicographic needs
	// one, which may come from a flag.
	for _, o := range []struct {
		key, flag string
		set       bool
		probe     setup.Config
	}{
		{"method", "method", fc.Method != "", setup.Config{Method: fc.Method, Priority: merged.Priority}},
		{"scope", "scope", fc.Scope != "", setup.Config{Scope: fc.Scope}},
		{"scale", "scale", fc.Scale != "", setup.Config{Scale: fc.Scale}},
		{"epsilon", "epsilon", fc.Epsilon != nil, setup.Config{Epsilon: fc.Epsilon}},
		{"std", "std", fc.Std != "", setup.Config{Std: fc.Std}},
		{"group_of_one", "group-of-one", fc.GroupOfOne != "", setup.Config{GroupOfOne: fc.GroupOfOne}},
		{"score_precision", "score-precision", fc.ScorePrecision != "", setup.Config{ScorePrecision: fc.ScorePrecision}},
		{"penalty", "penalty", fc.Penalty != nil, setup.Config{Penalty: fc.Penalty}},
		{"normalize_objectives", "normalize-objectives", fc.NormalizeObjectives != "", setup.Config{NormalizeObjectives: fc.NormalizeObjectives}},
	} {
		if ours(o.set, o.flag) {
			check(key(o.key), options(o.probe))
		}
	}
	for _, r := range []struct {
		key, flag, src   string
		group, batch, id string
	}{
		{key: "group_by", flag: "group-by", src: fc.GroupBy, group: fc.GroupBy},
		{key: "batch_by", flag: "batch-by", src: fc.BatchBy, batch: fc.BatchBy},
		{key: "id_by", flag: "id-by", src: fc.IDBy, id: fc.IDBy},
	} {
		if ours(r.src != "", r.flag) {
			check(key(r.key), fields(r.group, r.batch, r.id))
		}
	}
	if fc.GroupRuns != 0 {
		check(key("group_runs"), setup.Config{GroupRuns: fc.GroupRuns, SourceBy: merged.SourceBy}.CheckGroupRuns())
	}
	if !flags.changed("objective") {
		errs = append(errs, f.objectiveErrors(merged.Computer, flags)...)
	}
	errs = append(errs, f.sourceErrors(merged, flags)...)
	errs = append(errs, f.namedErrors(merged, flags)...)
	return firstError(f.Path, f.Text, errs)
}

// firstError is the error of errs at the first line of text, the file at
// path (one whose line is unknown after all), nil when there is none.
func firstError(path, text string, errs []valueError) error {
	if len(errs) == 0 {
		return nil
	}
	first := slices.MinFunc(errs, func(a, b valueError) int {
		return cmp.Compare(uint(a.line-1), uint(b.line-1)) // line 0 wraps round to the last
	})
	return placed(path, text, first.line, first.err)
}

// objectiveErrors checks each [[objective]] of the file, for the computer
// of the merged config (entryErrors).
func (f *File) objectiveErrors(computer string, flags Flags) []valueError {
	if _, err := setup.ParseComputer(cmp.Or(computer, string(setup.ComputerPareto))); err != nil {
		return nil // the computer's own error
	}
	return f.entryErrors("objective", f.Config.Objectives, "", flags, func(objs ...setup.ObjectiveConfig) error {
		_, err := engine.New(setup.Config{Computer: computer, Objectives: objs})
		return err
	})
}

// entryErrors checks objs, the objectives of the array of tables array
// ("objective", "sources.NAME.objective"), with probe, which builds an
// engine on the objectives it is given: each entry's name, expression, goal
// and weight alone (not a weight a --weight of flags overrides), at the
// line of its key in that entry (the entry's header when the key is
// absent), then whether its name was given before. The errors said here
// start with prefix.
func (f *File) entryErrors(array string, objs []setup.ObjectiveConfig, prefix string, flags Flags, probe func(...setup.ObjectiveConfig) error) []valueError {
	var errs []valueError
	at := func(i int, k string) int { return entryKeyLine(f.Text, array, i, k) }
	for i, o := range objs {
		// Said here: the engine would name a nameless objective by its
		// expression, and compile an absent one as "".
		switch {
		case o.Name == "" && o.Expr == "":
			errs = append(errs, valueError{at(i, "name"), errors.New(prefix + "an objective has no name and no expr")})
			continue
		case o.Name == "":
			errs = append(errs, valueError{at(i, "name"), fmt.Errorf("%san objective (expr %q) has no name", prefix, o.Expr)})
			continue
		case strings.TrimSpace(o.Expr) == "":
			errs = append(errs, valueError{at(i, "expr"), fmt.Errorf("%sobjective %s has no expr", prefix, o.Name)})
			continue
		}
		name := o.Name
		weight := o.Weight
		if _, overridden := flags.Weights[name]; overridden {
			weight = nil
		}
		for _, c := range []struct {
			key string
			obj setup.ObjectiveConfig
		}{
			{"name", setup.ObjectiveConfig{Name: o.Name, Expr: "0"}},
			{"expr", setup.ObjectiveConfig{Name: name, Expr: o.Expr}},
			{"goal", setup.ObjectiveConfig{Name: name, Expr: "0", Goal: o.Goal}},
			{"weight", setup.ObjectiveConfig{Name: name, Expr: "0", Weight: weight}},
		} {
			if err := probe(c.obj); err != nil {
				errs = append(errs, valueError{at(i, c.key), err})
				break
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	// A name given twice: the first entry that makes the list fail.
	named := namesOnly(objs)
	if len(named) == 0 || probe(named...) == nil {
		return nil
	}
	for i := range named {
		if err := probe(named[:i+1]...); err != nil {
			return []valueError{{at(i, "name"), err}}
		}
	}
	return nil
}

// namesOnly returns objs' names, each with the expression 0: what the
// checks of names need of objectives.
func namesOnly(objs []setup.ObjectiveConfig) []setup.ObjectiveConfig {
	named := make([]setup.ObjectiveConfig, len(objs))
	for i, o := range objs {
		named[i] = setup.ObjectiveConfig{Name: o.Name, Expr: "0"}
	}
	return named
}

// probeSourceBy stands for a source expression when only the sources'
// tables are checked: one that compiles.
const probeSourceBy = `"source"`

// sourceErrors checks the file's source_by, alone and with the sources
// merged has, and its [sources.NAME] tables: that they may be used (the
// pareto computer and a source_by, at the first table's line), then each
// table's objectives as the top level's are (entryErrors), the table
// whole at its header, and its weights, each alone (but those a --weight
// of flags overrides).
func (f *File) sourceErrors(merged setup.Config, flags Flags) []valueError {
	fc := f.Config
	var errs []valueError
	key := func(k ...string) int { return settingLine(f.Text, k) }
	probe := func(line int, c setup.Config) {
		if _, err := engine.New(c); err != nil {
			errs = append(errs, valueError{line, err})
		}
	}
	probeObjective := []setup.ObjectiveConfig{{Name: "probe", Expr: "0"}}
	if fc.SourceBy != "" && !flags.changed("source-by") {
		c := setup.Config{SourceBy: fc.SourceBy, Objectives: probeObjective}
		if len(merged.Sources) > 0 {
			c.Sources = map[string]setup.SourceConfig{"probe": {Objectives: probeObjective}}
		}
		probe(key(scoring.SourceBySetting), c)
	}
	if len(fc.Sources) == 0 {
		return errs
	}
	if _, err := setup.ParseComputer(cmp.Or(merged.Computer, string(setup.ComputerPareto))); err != nil {
		return errs // the computer's own error
	}
	names := slices.Sorted(maps.Keys(fc.Sources))
	first := slices.MinFunc(names, func(a, b string) int {
		return cmp.Compare(uint(key("sources", a)-1), uint(key("sources", b)-1))
	})
	sourceBy := ""
	if merged.SourceBy != "" {
		sourceBy = probeSourceBy
	}
	if _, err := engine.New(setup.Config{Computer: merged.Computer, SourceBy: sourceBy, Sources: map[string]setup.SourceConfig{first: {Objectives: probeObjective}}}); err != nil {
		return append(errs, valueError{key("sources", first), err}) // what the tables hold is not used
	}
	for _, name := range names {
		src := fc.Sources[name]
		in := func(c setup.SourceConfig) setup.Config {
			return setup.Config{SourceBy: probeSourceBy, Sources: map[string]setup.SourceConfig{name: c}}
		}
		entries := f.entryErrors("sources."+name+".objective", src.Objectives, "source "+name+": ", flags, func(objs ...setup.ObjectiveConfig) error {
			_, err := engine.New(in(setup.SourceConfig{Objectives: objs}))
			return err
		})
		if len(entries) > 0 {
			errs = append(errs, entries...)
			continue
		}
		if _, err := engine.New(in(setup.SourceConfig{Objectives: namesOnly(src.Objectives)})); err != nil {
			errs = append(errs, valueError{key("sources", name), err})
			continue
		}
		for _, w := range slices.Sorted(maps.Keys(src.Weights)) {
			if _, overridden := flags.Weights[w]; overridden {
				continue
			}
			probe(key("sources", name, "weights", w), in(setup.SourceConfig{Objectives: namesOnly(src.Objectives), Weights: map[string]float64{w: src.Weights[w]}}))
		}
	}
	return errs
}

// namedErrors checks the file's values that need the rest of the config
// (merged): the svrl settings, nansum, the expressions of constraints and
// the logged advantage, and the names that minimize, weights, gate,
// priority and priority_tolerance give, when the objectives are known
// (before the data, or once it names them; with sources, the union of
// theirs and the top level's). Each is checked
// in base, the computer and the objectives' names of merged, which must
// pass alone.
func (f *File) namedErrors(merged setup.Config, flags Flags) []valueError {
	fc := f.Config
	base := setup.Config{Computer: merged.Computer}
	named := true
	switch {
	case merged.SourceBy != "" && len(merged.Sources) > 0:
		base.SourceBy, base.Sources = probeSourceBy, map[string]setup.SourceConfig{}
		for name, src := range merged.Sources {
			base.Sources[name] = setup.SourceConfig{Objectives: namesOnly(src.Objectives)}
		}
		base.Objectives = namesOnly(merged.Objectives)
	case len(merged.Objectives) > 0 && len(merged.Sources) == 0 && merged.SourceBy == "":
		base.Objectives = namesOnly(merged.Objectives)
	case merged.Computer == string(setup.ComputerSVRL):
	default:
		named = false
		base.Objectives = []setup.ObjectiveConfig{{Name: "probe", Expr: "0"}}
	}
	if _, err := engine.New(base); err != nil {
		return nil // not the file's values: the caller says what
	}
	var errs []valueError
	probe := func(line int, set func(c *setup.Config)) {
		c := base
		set(&c)
		if _, err := engine.New(c); err != nil {
			errs = append(errs, valueError{line, err})
		}
	}
	key := func(k ...string) int { return settingLine(f.Text, k) }
	if fc.Task != "" && !flags.changed("task") {
		probe(key("task"), func(c *setup.Config) { c.Task = fc.Task })
	}
	if fc.VerificationWeight != nil && !flags.changed("verification-weight") {
		probe(key("verification_weight"), func(c *setup.Config) { c.VerificationWeight = fc.VerificationWeight })
	}
	if fc.EfficiencyWeight != nil && !flags.changed("efficiency-weight") {
		probe(key("efficiency_weight"), func(c *setup.Config) { c.EfficiencyWeight = fc.EfficiencyWeight })
	}
	if fc.NanSum != nil && !flags.changed("nansum") {
		probe(key("nansum"), func(c *setup.Config) { c.NanSum = fc.NanSum })
	}
	if fc.LoggedAdvantage != "" && !flags.changed("logged-advantage") {
		probe(key("logged_advantage"), func(c *setup.Config) { c.LoggedAdvantage = fc.LoggedAdvantage })
	}
	if !flags.changed("constraint") {
		for _, constraint := range fc.Constraints {
			probe(key("constraint"), func(c *setup.Config) { c.Constraints = []string{constraint} })
		}
	}
	if !named {
		return errs
	}
	for _, name := range fc.Minimize {
		probe(key("minimize"), func(c *setup.Config) { c.Minimize = []string{name} })
	}
	for _, name := range slices.Sorted(maps.Keys(fc.Weights)) {
		if _, overridden := flags.Weights[name]; !overridden {
			probe(key("weights", name), func(c *setup.Config) { c.Weights = map[string]float64{name: fc.Weights[name]} })
		}
	}
	if !flags.changed("gate") {
		for _, gate := range fc.Gates {
			probe(key("gate"), func(c *setup.Config) { c.Gates = []string{gate} })
		}
	}
	if len(fc.Priority) > 0 && !flags.changed("priority") {
		probe(key("priority"), func(c *setup.Config) { c.Priority = fc.Priority })
	}
	if len(fc.PriorityTolerance) > 0 && !flags.changed("priority-tolerance") {
		// Checked against the priority used, once that passes alone.
		if _, err := engine.New(setup.Config{Computer: base.Computer, Objectives: base.Objectives, Priority: merged.Priority}); err == nil {
			probe(key("priority_tolerance"), func(c *setup.Config) {
				c.Priority, c.PriorityTolerance = merged.Priority, fc.PriorityTolerance
			})
		}
	}
	return errs
}

// typeError returns the error of the config file at path, whose text is
// text, for its first value whose TOML type is not what its key takes,
// in a user's terms: "PATH:5: objective weight: a number, not the string
// "0.5"". It returns nil when it finds none.
func typeError(path, text string) error {
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		return nil
	}
	w := typeWalk{text: text}
	w.walk(raw, reflect.TypeFor[setup.Config](), nil, "", 0, nil)
	return firstError(path, text, w.found)
}

// typeWalk walks a decoded config beside the Go type that takes it.
type typeWalk struct {
	text  string
	found []valueError
}

// walk checks v, the value of key (its parts) against t. A key inside the
// entry-th table of the array of tables array ("" for none) is rel
// there.
func (w *typeWalk) walk(v any, t reflect.Type, key []string, array string, entry int, rel []string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	wrong := func(want string, got any) {
		line := settingLine(w.text, key)
		if array != "" {
			line = entryKeyLine(w.text, array, entry, strings.Join(rel, "."))
		}
		w.found = append(w.found, valueError{line, fmt.Errorf("%s: %s, not %s", textsafe.Line(strings.Join(key, " ")), want, describeTOML(got))})
	}
	with := func(k string) ([]string, []string) {
		return append(slices.Clone(key), k), append(slices.Clone(rel), k)
	}
	switch t.Kind() {
	case reflect.String:
		if _, ok := v.(string); !ok {
			wrong("a string", v)
		}
	case reflect.Float64:
		switch v.(type) {
		case int64, float64:
		default:
			wrong("a number", v)
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			wrong("true or false", v)
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			tables, ok := tableList(v)
			if !ok {
				wrong("tables [["+strings.Join(key, ".")+"]]", v)
				return
			}
			for i, table := range tables {
				w.walk(table, t.Elem(), key, strings.Join(key, "."), i, nil)
			}
			return
		}
		items, ok := v.([]any)
		if !ok {
			wrong("a list of strings", v)
			return
		}
		for _, item := range items {
			if _, ok := item.(string); !ok {
				wrong("a list of strings", item)
				return
			}
		}
	case reflect.Map:
		table, ok := v.(map[string]any)
		if !ok {
			wrong("a table", v)
			return
		}
		for _, k := range slices.Sorted(maps.Keys(table)) {
			key, rel := with(k)
			w.walk(table[k], t.Elem(), key, array, entry, rel)
		}
	case reflect.Struct:
		table, ok := v.(map[string]any)
		if !ok {
			wrong("a table", v)
			return
		}
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
			if value, ok := table[name]; ok && name != "" && name != "-" {
				key, rel := with(name)
				w.walk(value, t.Field(i).Type, key, array, entry, rel)
			}
		}
	}
}

// tableList returns v's tables when v is an array of tables.
func tableList(v any) ([]map[string]any, bool) {
	switch list := v.(type) {
	case []map[string]any:
		return list, true
	case []any:
		tables := make([]map[string]any, len(list))
		for i, item := range list {
			table, ok := item.(map[string]any)
			if !ok {
				return nil, false
			}
			tables[i] = table
		}
		return tables, true
	}
	return nil, false
}

// describeTOML says what a decoded TOML value is: "the string "x"", "the
// integer 3", "a list".
func describeTOML(v any) string {
	switch x := v.(type) {
	case string:
		return "the string " + strconv.Quote(x)
	case int64:
		return "the integer " + strconv.FormatInt(x, 10)
	case float64:
		return "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}
