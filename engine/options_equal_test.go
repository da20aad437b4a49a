package engine

import (
	"reflect"
	"testing"
)

// TestOptionsEqualComparesEveryField changes each field of Options in
// turn, whatever fields Options has: Equal must see every change. A field
// added to Options and not compared by Equal fails here.
func TestOptionsEqualComparesEveryField(t *testing.T) {
	base := DefaultOptions()
	base.Weights = []float64{1, 2}
	if !base.Equal(base) {
		t.Fatal("options are not Equal to themselves")
	}
	typ := reflect.TypeFor[Options]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		changed := base
		v := reflect.ValueOf(&changed).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "-other")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Float64:
			v.SetFloat(v.Float() * 3)
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.Zero(f.Type.Elem())))
		case reflect.Map:
			m := reflect.MakeMap(f.Type)
			m.SetMapIndex(reflect.Zero(f.Type.Key()), reflect.Zero(f.Type.Elem()))
			v.Set(m)
		default:
			t.Fatalf("field %s is a %s: teach this test to change it, and Equal to compare it", f.Name, v.Kind())
		}
		if base.Equal(changed) || changed.Equal(base) {
			t.Errorf("Equal does not compare field %s", f.Name)
		}
	}
}

// TestOptionsEqualDefaults: a zero epsilon, std, group-of-one convention
// or score precision is the default it stands for; nil weights are no
// weights.
func TestOptionsEqualDefaults(t *testing.T) {
	explicit := DefaultOptions()
	implicit := explicit
	implicit.Epsilon, implicit.Std, implicit.GroupOfOne, implicit.ScorePrecision = 0, "", "", ""
	if !explicit.Equal(implicit) {
		t.Error("the defaults spelt out are not Equal to their zero values")
	}
	implicit.Weights = []float64{}
	if !explicit.Equal(implicit) {
		t.Error("nil weights are not Equal to no weights")
	}
}
