package cmd

import (
	"context"
	"reflect"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// TestLayoutConfigs: each trainer layout gives its fixture the trainer's
// method (grpo) and names the fields of the prompt and the completion,
// which the dashboard shows: the configs the dashboard's tests
// (sampletest.VerlConfig, TRLConfig) open the fixtures with. A method
// the user gives stays, and the fields are the layout's all the same.
func TestLayoutConfigs(t *testing.T) {
	for _, c := range []struct {
		dir      string
		want     setup.Config
		sentence string
	}{
		{verlDir, sampletest.VerlConfig(), sampletest.VerlLayout},
		{trlDir, sampletest.TRLConfig(), sampletest.TRLLayout},
	} {
		cfg, sentence, _, err := applyLayout(context.Background(), setup.Config{}, []string{c.dir}, loaders.Options{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(cfg, c.want) || sentence != c.sentence {
			t.Errorf("%s:\n%+v\n%q\nwant\n%+v\n%q", c.dir, cfg, sentence, c.want, c.sentence)
		}
		cfg, _, _, err = applyLayout(context.Background(), setup.Config{Method: "pareto"}, []string{c.dir}, loaders.Options{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Method != "pareto" || cfg.PromptField != c.want.PromptField || cfg.ResponseField != c.want.ResponseField {
			t.Errorf("%s with method pareto: %+v", c.dir, cfg)
		}
	}
}
