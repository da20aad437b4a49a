package scoring

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// RecordFields derives a trajectory's group, batch and ID from expressions
// over its record (--group-by, --batch-by, --id-by), for inputs that name
// them otherwise: verl's rollout dumps group by "input" and batch by
// "step"; and its step_count, which only a trainer's layout derives
// (open-instruct's completion length, WithStepCount). The expressions see
// what objectives see (docs/CONTRACT.md, Expressions).
type RecordFields struct {
	group, batch, id, stepCount *Expression
}

// The names of the record fields' settings, as the flags and config keys
// call them (errors name them).
const (
	GroupBySetting = "group_by"
	BatchBySetting = "batch_by"
	IDBySetting    = "id_by"
	// StepCountBySetting is a trainer layout's step_count
	// (setup.Config.StepCountBy), no flag nor config key.
	StepCountBySetting = "step_count_by"
	// PromptBySetting is the prompts' analysis's (setup.Config.PromptBy).
	PromptBySetting = "prompt_by"
)

// NewRecordFields compiles the expressions that are not "": the error is a
// *CompileError naming the setting. It returns nil when all are "".
func NewRecordFields(groupBy, batchBy, idBy string) (*RecordFields, error) {
	if groupBy == "" && batchBy == "" && idBy == "" {
		return nil, nil
	}
	f := &RecordFields{}
	for _, c := range []struct {
		name, src string
		dst       **Expression
	}{{GroupBySetting, groupBy, &f.group}, {BatchBySetting, batchBy, &f.batch}, {IDBySetting, idBy, &f.id}} {
		if c.src == "" {
			continue
		}
		e, err := CompileExpression(c.name, c.src)
		if err != nil {
			return nil, err
		}
		*c.dst = e
	}
	return f, nil
}

// WithStepCount returns f deriving each trajectory's step_count from the
// expression src as well (f itself when src is ""; a new RecordFields
// when f is nil): the error is a *CompileError naming the setting.
func (f *RecordFields) WithStepCount(src string) (*RecordFields, error) {
	if src == "" {
		return f, nil
	}
	e, err := CompileExpression(StepCountBySetting, src)
	if err != nil {
		return nil, err
	}
	out := &RecordFields{}
	if f != nil {
		*out = *f
	}
	out.stepCount = e
	return out, nil
}

// Apply sets t's Group, Batch, ID and StepCount from the expressions,
// reading t's record as the loader gave it (whole: not with a Pick). The
// group and the ID are text: a string as it is, a number as its shortest
// decimal text (3, 0.5), a bool as true or false. The batch is an
// integer: a number of integral value, or the decimal text of one
// ("12"); so is the step_count, >= 0. A value that is missing (an absent
// field, null), of another type, or a program that fails, is an error
// naming the setting and its expression; the caller adds the place.
func (f *RecordFields) Apply(t *Trajectory) error {
	if f.group != nil {
		s, err := textValue(f.group, t)
		if err != nil {
			return fieldError(GroupBySetting, f.group, err)
		}
		t.Group = s
	}
	if f.batch != nil {
		v, err := f.batch.Value(t)
		if err == nil {
			t.Batch, err = integerValue(v)
		}
		if err != nil {
			return fieldError(BatchBySetting, f.batch, err)
		}
	}
	if f.id != nil {
		s, err := textValue(f.id, t)
		if err != nil {
			return fieldError(IDBySetting, f.id, err)
		}
		t.ID = s
	}
	if f.stepCount != nil {
		v, err := f.stepCount.Value(t)
		var n int64
		if err == nil {
			n, err = integerValue(v)
		}
		if err == nil && n < 0 {
			err = fmt.Errorf("must be >= 0, found %d", n)
		}
		if err != nil {
			return fieldError(StepCountBySetting, f.stepCount, err)
		}
		t.StepCount = n
	}
	return nil
}

// SetsBatch reports whether f sets the batch.
func (f *RecordFields) SetsBatch() bool { return f.batch != nil }

// SetsID reports whether f sets the ID.
func (f *RecordFields) SetsID() bool { return f.id != nil }

// fieldError is the error of the setting name whose expression is e.
func fieldError(name string, e *Expression, err error) error {
	return fmt.Errorf("%s %q: %w", name, e.Source, err)
}

// errNoValue is the error for a record field whose expression gives null
// or reads a field the record lacks.
var errNoValue = errors.New("missing: the record has no such field, or it is null")

// textValue evaluates e on t as text.
func textValue(e *Expression, t *Trajectory) (string, error) {
	v, err := e.Value(t)
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case nil:
		return "", errNoValue
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("must be a string or a finite number, found %v", x)
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	}
	return "", fmt.Errorf("must be a string or a number, found %T", v)
}

// integerValue returns v as an integer: an int, a float64 of integral
// value within the int64 range, or a string that is an integer's decimal
// text.
func integerValue(v any) (int64, error) {
	switch x := v.(type) {
	case nil:
		return 0, errNoValue
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			return int64(x), nil
		}
		return 0, fmt.Errorf("must be an integer, found %v", x)
	case string:
		// The decimal text of an integer: TRL's completion tables have
		// written the step as text ("12").
		if n, err := strconv.ParseInt(x, 10, 64); err == nil {
			return n, nil
		}
		return 0, fmt.Errorf("must be an integer, found the string %q", x)
	}
	return 0, fmt.Errorf("must be an integer, found %v", v)
}

// Clone returns a copy of f for another goroutine (Apply reuses one VM per
// expression); the compiled programs are shared. The nil *RecordFields
// clones to nil.
func (f *RecordFields) Clone() *RecordFields {
	if f == nil {
		return nil
	}
	c := &RecordFields{}
	for _, p := range []struct{ src, dst **Expression }{{&f.group, &c.group}, {&f.batch, &c.batch}, {&f.id, &c.id}, {&f.stepCount, &c.stepCount}} {
		if *p.src != nil {
			*p.dst = (*p.src).Clone()
		}
	}
	return c
}
