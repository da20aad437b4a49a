package layouts

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// verlMaxSessionsNamed is how many sessions VerlSessions' warning names.
const verlMaxSessionsNamed = 3

// VerlSessions finds, in a verl V1 dump, the sessions of more than one
// output, on the rows the load reads (Add), which verl's grpo scores
// otherwise than here: compute_advantage_for_multi_trajectories
// (verl/trainer/ppo/v1/utils.py) keys each output "{uid}_{session}_{index}"
// (the dump's uid, the id here), takes only each session's final output
// (the highest index) into compute_grpo_outcome_advantage's group mean and
// std, and gives every output of the session that final output's
// advantage; here each output is a member of its prompt's group. A nil
// VerlSessions finds nothing. Add, Forget and With's warnings may be
// called from different goroutines.
type VerlSessions struct {
	mu sync.Mutex
	// outputs holds, per file (the rows' Source) and step, the sessions
	// of more than one output and the number of their outputs, as the
	// highest index read plus one: verl numbers a session's outputs from
	// 0 (enumerate(outputs), _agent_loop_postprocess), so a row of index
	// 1 or more says its session has more. Kept per file so that a file
	// read again (Forget) takes its sessions with it; the same rows read
	// again add nothing new.
	outputs map[string]map[int64]map[string]int
}

// NewVerlSessions returns the finder of a verl V1 dump's sessions of more
// than one output for cfg, nil unless cfg is the verl layout's with the
// V1 key as the id (verlDefaults sets it when the dump has uid).
func NewVerlSessions(cfg setup.Config) *VerlSessions {
	if cfg.From != string(engine.TrainerVerl) || cfg.IDBy != verlUID {
		return nil
	}
	return &VerlSessions{outputs: map[string]map[int64]map[string]int{}}
}

// verlSessionOf parses a V1 key "{uid}_{session}_{index}" as verl does
// (key.rsplit("_", 2), int(index)): the session "{uid}_{session}" and the
// output's index; ok false for a key of another form.
func verlSessionOf(key string) (session string, index int, ok bool) {
	cut := strings.LastIndexByte(key, '_')
	if cut < 0 || strings.LastIndexByte(key[:cut], '_') < 0 {
		return "", 0, false
	}
	index, err := strconv.Atoi(key[cut+1:])
	if err != nil || index < 0 {
		return "", 0, false
	}
	return key[:cut], index, true
}

// Add takes rows the load read; ts may be reused once Add returns.
func (v *VerlSessions) Add(ts []scoring.Trajectory) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for i := range ts {
		session, index, ok := verlSessionOf(ts[i].ID)
		if !ok || index == 0 {
			continue
		}
		file := v.outputs[ts[i].Source]
		if file == nil {
			file = map[int64]map[string]int{}
			v.outputs[ts[i].Source] = file
		}
		step := file[ts[i].Batch]
		if step == nil {
			step = map[string]int{}
			file[ts[i].Batch] = step
		}
		step[session] = max(step[session], index+1)
	}
}

// Forget drops the sessions read of the files sources, as a followed file
// read again from the start (loaders.Update.Reloaded) replaces its rows:
// those read again are then added.
func (v *VerlSessions) Forget(sources []string) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, source := range sources {
		delete(v.outputs, source)
	}
}

// With returns warn, a layout's warnings (nil for none), with, under
// grpo, the warning of the sessions of more than one output in the
// batches asked after them.
func (v *VerlSessions) With(warn func(*engine.Result, []int) []string) func(*engine.Result, []int) []string {
	if v == nil {
		return warn
	}
	return func(res *engine.Result, batches []int) []string {
		var ws []string
		if warn != nil {
			ws = warn(res, batches)
		}
		if w := v.warning(res, batches); w != "" {
			ws = append(ws, w)
		}
		return ws
	}
}

// warning says, under grpo (verl delegates its other estimators to
// compute_advantage unchanged, every output a row as here), how many
// sessions of the batches of index batches have more than one output,
// naming the first few (by step, then key) with their outputs; "" for
// none.
func (v *VerlSessions) warning(res *engine.Result, batches []int) string {
	if res.Options.Method != engine.GRPO {
		return ""
	}
	type named struct {
		step    int64
		session string
		outputs int
	}
	var sessions []named
	v.mu.Lock()
	for _, bi := range batches {
		step := res.Ranking.Batches[bi].Step
		// A session's rows may be in more than one file: counted once,
		// with its most outputs.
		merged := map[string]int{}
		for _, file := range v.outputs {
			for session, outputs := range file[step] {
				merged[session] = max(merged[session], outputs)
			}
		}
		for session, outputs := range merged {
			sessions = append(sessions, named{step, session, outputs})
		}
	}
	v.mu.Unlock()
	if len(sessions) == 0 {
		return ""
	}
	slices.SortFunc(sessions, func(a, b named) int {
		return cmp.Or(cmp.Compare(a.step, b.step), strings.Compare(a.session, b.session))
	})
	var names []string
	for _, s := range sessions[:min(len(sessions), verlMaxSessionsNamed)] {
		names = append(names, fmt.Sprintf("step %d, session %s of %d outputs", s.step, textsafe.QuoteShort(s.session), s.outputs))
	}
	if more := len(sessions) - len(names); more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	n := len(sessions)
	return fmt.Sprintf("verl V1 multi-output sessions: %d %s with more than one output (%s): verl's grpo (compute_advantage_for_multi_trajectories) takes only each session's final output (its highest index) "+
		"into its group's mean and std and gives the session's other outputs that output's advantage; here every output is scored in its prompt's group, so the rewards of those groups differ from verl's",
		n, english.Plural(n, "session"), strings.Join(names, "; "))
}
