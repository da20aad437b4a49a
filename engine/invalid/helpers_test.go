package invalid

import (
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// traj builds a trajectory of batch b and group g with the metadata kv
// (name, value, name, value...).
func traj(b int64, g string, kv ...any) scoring.Trajectory {
	md := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		md[kv[i].(string)] = kv[i+1]
	}
	return scoring.Trajectory{Batch: b, Group: g, Done: true, Metadata: md}
}
func ptr[T any](v T) *T { return &v }
