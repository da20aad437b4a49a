package scoring

import (
	"errors"
	"testing"
)

// TestTorchNumber reads what str() gives for 0-d torch tensors (torch
// 1.13's, python3-torch; the same form verl's dumps carry through
// json.dumps(default=str)) as numbers, numbers as they are, and nothing
// else.
func TestTorchNumber(t *testing.T) {
	e, err := CompileExpression("o", "score + torchNumber(overlong_reward)")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		value any
		want  float64
	}{
		{"tensor(-1.)", 0},
		{"tensor(-0.1875)", 1 - 0.1875},
		{"tensor(0.5000)", 1.5},
		{"tensor(-0.)", 1},
		{"tensor(3)", 4},
		{"tensor(-1.0000e-05)", 1 - 1e-5},
		{"tensor(1.0000e+10)", 1 + 1e10},
		{"tensor(-1., dtype=torch.float64)", 0},
		{"tensor(2.5000, dtype=torch.bfloat16)", 3.5},
		{"tensor(-1., device='cuda:0')", 0},
		{"tensor(-1., device='cuda:0', dtype=torch.float64)", 0},
		{-0.25, 0.75},
	} {
		got, err := e.Eval(&Trajectory{Metadata: map[string]any{"score": 1.0, "overlong_reward": c.value}})
		if err != nil || got != c.want {
			t.Errorf("%v: %v, %v; want %v", c.value, got, err, c.want)
		}
	}
	for _, c := range []struct {
		value any
		want  error
	}{
		{"tensor(nan)", ErrNaN},
		{"tensor(-inf)", ErrInf},
		{"tensor(inf)", ErrInf},
	} {
		got, err := e.Eval(&Trajectory{Metadata: map[string]any{"score": 1.0, "overlong_reward": c.value}})
		if !errors.Is(err, c.want) {
			t.Errorf("%v: %v, %v; want %v", c.value, got, err, c.want)
		}
	}
	// Only that form: another text, a tensor of more than one value, a
	// bool tensor fail the evaluation; a missing value fails the sum.
	for _, v := range []any{"-1", "tensor(-1.", "tensor([-1.])", "tensor(True)", "Tensor(-1.)", " tensor(-1.)", "tensor(-1.) ", "tensor(-nan)", "tensor(-1., dtype=torch.float64, device='cuda:0')", "tensor(-1., requires_grad=True)", nil, true} {
		md := map[string]any{"score": 1.0}
		if v != nil {
			md["overlong_reward"] = v
		}
		if got, err := e.Eval(&Trajectory{Metadata: md}); !errors.Is(err, ErrEval) {
			t.Errorf("%#v: %v, %v; want %v", v, got, err, ErrEval)
		}
	}
}

// TestTorchNumberNull: a null or absent value read through torchNumber is
// missing, as it is read plainly, not an evaluation error.
func TestTorchNumberNull(t *testing.T) {
	e, err := CompileExpression("o", "torchNumber(score)")
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range []map[string]any{{"score": nil}, {}} {
		if got, err := e.Eval(&Trajectory{Metadata: md}); err != ErrMissing {
			t.Errorf("%v: %v, %v; want %v", md, got, err, ErrMissing)
		}
	}
}
