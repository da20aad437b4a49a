package loaders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/crash"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// FollowOptions control Follow.
type FollowOptions struct {
	// Options are as for Load; Progress reports the first reading only.
	// Pick holds for every reading, the first and the later ones, and is
	// called on the follower's goroutine for the files read later (one
	// that appeared, or was read again).
	Options
	// Poll is how often every input is checked (one stat each, and a look
	// at the followed directories) besides the file system's events; 0 is
	// DefaultPoll. Without events (NoWatch, or a file system that has
	// none), it is how long a change takes to show.
	Poll time.Duration
	// NoWatch does without the file system's events: polling only.
	NoWatch bool
	// Each, when not nil, takes the trajectories of the first reading as
	// Stream hands them over: in input order, some thousands at a time,
	// on Follow's goroutine, before Follow returns; once Each returns, the
	// slice and the trajectories' Metadata maps are reused, so Each may
	// keep the trajectories' other fields, not those. The Result then has
	// no Trajectories: a caller that keeps them lean (DropBody) never
	// holds every body of a large input. Each leaves the Updates as they
	// are. An error from Each stops the first reading, and Follow returns
	// it as is.
	Each func(ts []scoring.Trajectory) error
	// UnendedWait is how long a followed file's last line may stay
	// without its line end, unchanged, before an Update says so
	// (Update.Unended); 0 is DefaultUnendedWait.
	UnendedWait time.Duration
	// AtEnd, when not nil, is called once ctx ends, on Follow's goroutine
	// before the channel closes, with the files whose last line then has
	// no line end, however long it has been so: never read, whatever
	// their Updates said.
	AtEnd func(unended []Unended)
	// Apart, when not nil, judges a file that appears in a followed
	// directory before it is read: when it returns a reason, the file is
	// left out, never read, and an Update's LeftOut says so once; when it
	// says wait (the file tells nothing yet: empty, its first line
	// unfinished), the file is judged again at the next look at the
	// directory. first is the first file the follower read ("" when none
	// yet): the run the new file would join (a trainer's layout tells its
	// validation dump apart from its training dump).
	Apart func(first, path string) (why string, wait bool)
}

// DefaultPoll is the default FollowOptions.Poll.
const DefaultPoll = time.Second

// settleDelay is how long after a file system event the follower waits
// for more before it reads: a writer's burst of lines costs one read.
const settleDelay = 10 * time.Millisecond

// Update is what changed in the followed inputs since the last Update.
// A consumer first forgets what it loaded from the Reloaded files, then
// adds Trajectories.
type Update struct {
	// Trajectories are the new trajectories: the complete lines appended
	// to a JSONL file, in order, each delivered once; and every
	// trajectory of a file that appeared in a followed directory or of a
	// Reloaded file. Their Source is the file's path as Follow named it.
	Trajectories []scoring.Trajectory
	// Reloaded are the files that were truncated, replaced (log rotation)
	// or rewritten, and were read again from the start: their
	// trajectories in Trajectories replace all those loaded from them
	// before (none, for a file that is empty now). A file read whole (CSV,
	// Parquet, a JSON array) that grew, what was read of it unchanged, is
	// not: its new trajectories come as a JSONL file's new lines do.
	Reloaded []string
	// Gone are the files that disappeared. What was loaded from them
	// stays; should one come back, it is Reloaded.
	Gone []string
	// Skipped and SkipReasons are as in Result, with SkipInvalid. A
	// record is counted once, by the reading that delivers it, for its
	// place, text and fault (where a reader has no text, by place and
	// fault): a file read again holds those counted, unless it is
	// another file, or truncated, that no longer holds what was read.
	Skipped     int
	SkipReasons []*LineError
	// Errs are what went wrong since the last Update, in order, each
	// with its file: files that could not be read, and without
	// SkipInvalid the malformed lines (skipped all the same: following
	// cannot stop at one). The follower carries on. Err joins them all;
	// FileErrs tells them file by file, but for a file Recovered since
	// its error.
	Errs []FileError
	// Recovered are the files of which an error was said that a reading
	// (of its growth, from the start, or its first) has read since
	// without one: a consumer forgets their errors, then notes FileErrs
	// (a file in both failed again since).
	Recovered []string
	// Unended are the files whose last line has stayed without its line
	// end for FollowOptions.UnendedWait, unchanged: not read until it
	// ends. Each is said once, until it changes. Resumed are the files
	// of an Unended said before whose last line has changed since (it
	// ended and was read, it grew, or the file was read again or went
	// away): a consumer first forgets the Resumed, then notes the
	// Unended.
	Unended []Unended
	Resumed []string
	// Relogged are the files that appeared and were left out as
	// repeating the file read before them (Options.RelogField): a warning
	// (Result.ReloggedWarning).
	Relogged []Relogged
	// LeftOut are the files that appeared in a followed directory that
	// look like inputs and are not read (LeftOut: a .bz2, a rotated log),
	// each said once, as the note at the start names those there then
	// (LeftOutNote). An editor's or an atomic write's temporary file
	// (.tmp, .swp, ~) is not one: it becomes an input when it is renamed.
	LeftOut []LeftOutFile
	// Behind reports that a file's growth is being read in parts and its
	// next part is already there: it comes in a next Update, read as this
	// one is digested. A consumer may leave its computation until the
	// Update that ends the run of parts.
	Behind bool
	// store takes the arrays back (Recycle); picked are the arrays the
	// picked values of Trajectories are in, when recycled.
	store  *partStore
	picked [][]scoring.PickedValue
}

// FileError is what went wrong with one followed file since the last
// Update (Update.Errs, FileErrs): Path as Follow named it, and its error.
// Recovered reports that the file was read without an error since
// (Update.Recovered): the error happened, and is over.
type FileError struct {
	Path      string
	Err       error
	Recovered bool
}

// FirstLine is the first line of e's error: what a warning, a JSON line
// or the status line says of the file, each on one line.
func (e FileError) FirstLine() string {
	line, _, _ := strings.Cut(e.Err.Error(), "\n")
	return line
}

// Err returns every error of u.Errs joined, in order (errors.Join), nil
// when there is none.
func (u *Update) Err() error {
	if len(u.Errs) == 0 {
		return nil
	}
	errs := make([]error, len(u.Errs))
	for i, e := range u.Errs {
		errs[i] = e.Err
	}
	return errors.Join(errs...)
}

// FileErrs returns the errors of u.Errs file by file, each file once, in
// order of its first error, its errors joined the latest first (one alone
// as it is; a consumer showing one line shows the latest), but
// for those of a file Recovered since: a consumer can say every file that
// failed, each until it is read well again (Recovered, Reloaded) or Gone.
func (u *Update) FileErrs() []FileError {
	var out []FileError
	for _, e := range u.Errs {
		if e.Recovered {
			continue
		}
		if i := slices.IndexFunc(out, func(o FileError) bool { return o.Path == e.Path }); i >= 0 {
			out[i].Err = errors.Join(e.Err, out[i].Err) // updates merged for a slow consumer
		} else {
			out = append(out, FileError{Path: e.Path, Err: e.Err})
		}
	}
	return out
}

// Follow loads paths as Load does, then follows them until ctx ends: it
// sends on the channel what changes in them, an Update at a time, and
// closes the channel when ctx ends (every goroutine it started has then
// returned or is about to). Updates that the consumer is not ready for are
// merged into the next one, so that a slow consumer never stalls the
// follower nor receives a backlog.
//
// A JSONL file (not gzipped) is read as it grows: each complete line is
// read once, and a partial last line waits for its newline; a growth of
// more than 2 MiB is read and sent in parts of about that size, the next
// read once the consumer has taken the last. A file of
// another format, or gzipped, is read whole again when it changes, and
// when it grew only its trajectories after those read before are sent;
// a gzipped JSONL or CSV file whose gzip stream is cut short (its run
// still writing it) is read to its last line end, the rest waiting as a
// partial last line does, and a corrupt one is an error. A file that
// shrinks, is replaced by another (a new inode) or no longer holds what
// was read, at its start and in the 4 KiB before where the part read
// ends (and, for a file read whole, anywhere in that part: by its hash),
// is read again from the start (Update.Reloaded). A directory is
// followed too: a new input file in it is read and takes the next file
// index, whatever its name. Changes are seen through the file system's
// events (fsnotify on the files' directories), and by polling every
// opts.Poll in any case.
//
// Unlike Load, a file or a directory without trajectories (yet) is no
// error. Standard input cannot be followed. With opts.Each, the first
// reading streams, as Stream does.
func Follow(ctx context.Context, paths []string, opts FollowOptions) (*Result, <-chan Update, error) {
	if len(paths) == 0 {
		return nil, nil, errors.New("no input files")
	}
	if stdinCount(paths) > 0 {
		return nil, nil, errors.New(`standard input ("-") cannot be followed`)
	}
	if _, err := ParseFormat(string(opts.Format)); err != nil {
		return nil, nil, err
	}
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	if opts.UnendedWait <= 0 {
		opts.UnendedWait = DefaultUnendedWait
	}
	f := &follower{opts: opts, byPath: map[string]*followedFile{}, dirty: map[string]bool{}, leftOutSaid: map[string]bool{}, store: &partStore{}}
	if opts.RelogField != "" {
		f.relog = newRelogCheck(opts.RelogField, opts.Each != nil)
	}
	res, err := f.start(paths)
	if err != nil {
		f.close()
		return nil, nil, err
	}
	if !opts.NoWatch {
		f.watch()
	}
	ch := make(chan Update)
	go func() {
		defer crash.Recover()
		f.run(ctx, ch)
	}()
	return res, ch, nil
}

// follower follows the inputs; its run goroutine owns it.
type follower struct {
	opts  FollowOptions
	files []*followedFile // by file index
	// byPath finds a file by its cleaned path, as events name it.
	byPath map[string]*followedFile
	dirs   []string // the followed directories
	// watcher delivers the file system's events; nil when polling only.
	watcher *fsnotify.Watcher
	// pending is what the consumer has not received yet, oldest first:
	// one Update, into which checks merge, but for a file read again from
	// the start after new lines of it were read (its last lines before a
	// rotation): a consumer forgets the file's trajectories on the
	// reload, so it gets those lines in an Update of their own first.
	pending []Update
	// clock counts the checks; a file's grown is the clock when it last
	// grew.
	clock int64
	// dirty are the cleaned paths named by events since the last check;
	// rescan is set when an entry appeared in a followed directory.
	dirty  map[string]bool
	rescan bool
	// appeared are the input files that events said were created in a
	// followed directory since the last check, renamed those said moved
	// away, goneUnread the known files that went never seen by a
	// reading (not found when read) at this check: each one not read by
	// the check's end vanished unread (sayVanished); vanished holds those
	// said so, whose first reading later, should one come back, says it
	// recovered. reloadedNow is set when this check read a known file
	// again from its start: one replaced by a rename onto it.
	appeared, renamed map[string]bool
	goneUnread        []*followedFile
	vanished          map[string]bool
	reloadedNow       bool
	// store recycles the arrays of the growth's parts (Update.Recycle).
	store *partStore
	// leftOutSaid are the files of the followed directories left out
	// (leftOutOf) that were there at the start or said since.
	leftOutSaid map[string]bool
	// held are the files of the followed directories named as companions
	// whose first line is unfinished (companionHeldWhy): a change to one
	// looks at the directory again, to decide it.
	held map[string]bool
	// relog leaves out a file that repeats the one read before it
	// (Options.RelogField), nil for no check: it keeps the hashes of the
	// last file read, the first reading's or one that appeared since.
	relog *relogCheck
}

// start expands the paths, directories being followed, and reads every
// file from the start.
func (f *follower) start(paths []string) (*Result, error) {
	var files []string
	for _, p := range paths {
		if !isDir(p) {
			files = append(files, p)
			continue
		}
		f.dirs = append(f.dirs, p)
		for _, lo := range leftOutOf(p) { // the start's note names them
			if lo.Why == companionHeldWhy {
				f.held = setIn(f.held, filepath.Clean(lo.Path))
			} else {
				f.leftOutSaid[lo.Path] = true
			}
		}
		inputs, err := listInputs(p)
		if err != nil {
			return nil, err
		}
		files = append(files, inputs...)
	}
	total := &Result{}
	progress := newProgress(files, f.opts.Progress)
	for _, path := range files {
		ff := f.add(path)
		res, _, err := ff.load(f.opts.Options, f.opts.SkipInvalid, nil, progress, f.relog.of(f.opts.Each))
		if err == nil && f.relog != nil {
			err = f.relog.end(path, f.opts.Each, res)
		}
		if err != nil {
			return nil, err
		}
		total.append(res)
		if ff.unended.Bytes > 0 {
			total.Unended = append(total.Unended, ff.unended)
		}
		f.limitOpen() // a directory of thousands of logs
	}
	if f.relog != nil {
		total.Relogged, f.relog.found = f.relog.found, nil
		f.relog.clone = false // the later readings' records are not reused
	}
	// The first reading is over: the follower, which runs on, must not
	// keep the callbacks alive, nor what they hold (all the trajectories
	// Each kept, say).
	f.opts.Each, f.opts.Progress = nil, nil
	return total, nil
}

// add starts following the file path, with the next file index.
func (f *follower) add(path string) *followedFile {
	ff := &followedFile{path: path, index: len(f.files), store: f.store}
	f.files = append(f.files, ff)
	f.byPath[filepath.Clean(path)] = ff
	return ff
}

// watch asks for the events of the directories of the files and of the
// followed directories: a file's own watch would not see it replaced. When
// the events are unavailable, polling does.
func (f *follower) watch() {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return
	}
	dirs := slices.Clone(f.dirs)
	for _, ff := range f.files {
		dirs = append(dirs, filepath.Dir(ff.path))
	}
	watched := 0
	for _, d := range uniqueCleaned(dirs) {
		if w.Add(d) == nil {
			watched++
		}
	}
	if watched == 0 {
		w.Close()
		return
	}
	f.watcher = w
}

// uniqueCleaned returns the cleaned paths, each once.
func uniqueCleaned(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Clean(p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// run follows until ctx ends, then closes ch.
func (f *follower) run(ctx context.Context, ch chan<- Update) {
	defer close(ch)
	defer f.close()
	var events <-chan fsnotify.Event
	var watchErrors <-chan error
	if f.watcher != nil {
		defer f.watcher.Close()
		events, watchErrors = f.watcher.Events, f.watcher.Errors
	}
	ticker := time.NewTicker(f.opts.Poll)
	defer ticker.Stop()
	settle := time.NewTimer(settleDelay)
	defer settle.Stop()
	var settled <-chan time.Time // settle.C while armed
	// What changed between the first reading and the watch.
	f.checkAll()
	for {
		f.catchUp()
		var (
			out  chan<- Update
			next Update
		)
		if len(f.pending) > 0 && !f.pending[0].empty() {
			out, next = ch, f.pending[0]
			next.Behind = f.behind()
		}
		select {
		case <-ctx.Done():
			if f.opts.AtEnd != nil {
				f.opts.AtEnd(f.unendedAtEnd(time.Now()))
			}
			return
		case out <- next:
			f.pending = f.pending[1:]
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			f.noteEvent(ev)
			if settled == nil {
				settle.Reset(settleDelay)
				settled = settle.C
			}
		case _, ok := <-watchErrors:
			if !ok {
				watchErrors = nil
				continue
			}
			f.checkAll() // events were lost (an overflow): look at everything
		case <-settled:
			settled = nil
			f.checkDirty()
		case <-ticker.C:
			f.checkAll()
			f.sayUnended(time.Now())
		}
	}
}

// noteEvent marks what an event is about for the next check.
func (f *follower) noteEvent(ev fsnotify.Event) {
	name := filepath.Clean(ev.Name)
	f.dirty[name] = true
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Rename) {
		dir := filepath.Dir(name)
		for _, d := range f.dirs {
			if filepath.Clean(d) == dir {
				f.rescan = true
				if ev.Has(fsnotify.Create) && isInputName(filepath.Base(name)) {
					f.appeared = setIn(f.appeared, name)
				}
			}
		}
	}
	if ev.Has(fsnotify.Rename) {
		f.renamed = setIn(f.renamed, name)
	}
}

// setIn returns set with key in it, made when nil.
func setIn(set map[string]bool, key string) map[string]bool {
	if set == nil {
		set = map[string]bool{}
	}
	set[key] = true
	return set
}

// VanishedError is the error of a followed file that appeared in a
// followed directory and went before it was read (Update.Errs): the rows
// it held, if any, are missing. A temporary file renamed into place (an
// atomic write), a new file read or a known one reloaded at the same
// check, is not one; nor is a file whose reading failed and said so,
// then deleted: it is gone.
type VanishedError struct{ Path string }

func (e *VanishedError) Error() string {
	return e.Path + ": appeared and went before it was read: the rows it held, if any, are missing"
}

// sayVanished says, in the pending Update, the files that appeared and
// went unread by the end of this check (appeared, goneUnread), as
// VanishedErrors, but for one renamed away when the check read a new
// file (readNew) or read a known one again from its start (reloadedNow):
// the rename's target, an atomic write of a new file or onto an existing
// one. A file said so that comes back and is read is Recovered.
func (f *follower) sayVanished(readNew bool) {
	readNew = readNew || f.reloadedNow
	f.reloadedNow = false
	var paths []string
	for path := range f.appeared {
		if _, known := f.byPath[path]; known {
			continue // read, or tried: its checks say what became of it
		}
		if _, err := os.Lstat(path); err != nil {
			paths = append(paths, path)
		}
	}
	for _, ff := range f.goneUnread {
		paths = append(paths, ff.path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		if f.renamed[path] && readNew {
			continue
		}
		f.vanished = setIn(f.vanished, path)
		if ff, known := f.byPath[path]; known {
			ff.errSaid = true // its next reading recovers
		}
		if len(f.pending) == 0 {
			f.pending = append(f.pending, Update{store: f.store})
		}
		last := &f.pending[len(f.pending)-1]
		last.add(path, fileChange{err: &VanishedError{Path: path}})
	}
	clear(f.appeared)
	clear(f.renamed)
	f.goneUnread = f.goneUnread[:0]
}

// checkDirty checks the files events named, and the followed directories
// when an entry appeared in one. The known files go first: a log rotated
// into a new name in a followed directory, a new file at its old path, is
// reloaded at its old path before it is read at its new one, not counted
// at both. (Renamed with no new file at its path, it is gone there, what
// was read from it stays, and it is read again at its new name: counted
// at both until a file comes back at the old path.)
func (f *follower) checkDirty() {
	known := len(f.files)
	for name := range f.dirty {
		if ff, ok := f.byPath[name]; ok && f.due(ff) {
			f.note(ff, ff.check(f.opts.Options))
		}
		if f.held[name] {
			f.rescan = true
		}
	}
	if f.rescan {
		f.scanDirs()
	}
	f.sayVanished(len(f.files) > known)
	clear(f.dirty)
	f.limitOpen()
}

// checkAll checks every file and looks for new files in the followed
// directories, in that order (see checkDirty).
func (f *follower) checkAll() {
	known := len(f.files)
	for _, ff := range f.files {
		if f.due(ff) {
			f.note(ff, ff.check(f.opts.Options))
		}
	}
	f.scanDirs()
	f.sayVanished(len(f.files) > known)
	clear(f.dirty)
	f.limitOpen()
}

// idle reports whether no update waits for the consumer.
func (f *follower) idle() bool {
	return len(f.pending) == 0 || len(f.pending) == 1 && f.pending[0].empty()
}

// due reports whether ff is to be checked now: a file whose growth is
// being read in parts (followedFile.behind) waits until the consumer has
// taken the last part, so that the parts are not merged again into one.
func (f *follower) due(ff *followedFile) bool {
	return !ff.behind || f.idle()
}

// behind reports whether a file's growth is being read in parts, with
// more after the last part read (followedFile.behind).
func (f *follower) behind() bool {
	return slices.ContainsFunc(f.files, func(ff *followedFile) bool { return ff.behind })
}

// catchUp reads the next part of the files whose growth is being read in
// parts, once the consumer has taken the last: it reads while the
// consumer digests.
func (f *follower) catchUp() {
	if !f.idle() {
		return
	}
	for _, ff := range f.files {
		if ff.behind {
			f.note(ff, ff.check(f.opts.Options))
		}
	}
}

// note queues what a check of ff found for the consumer (pending).
func (f *follower) note(ff *followedFile, c fileChange) {
	c = f.relogged(ff, c)
	// A file whose reading said an error of it was seen: gone, that is
	// resolved. One never found when read went before it was read.
	if c.gone && !ff.loaded && ff.notFound {
		f.goneUnread = append(f.goneUnread, ff)
	}
	if c.reloaded {
		f.reloadedNow = true
	}
	f.clock++
	if c.res != nil && len(c.res.Trajectories) > 0 || c.reloaded {
		ff.grown = f.clock // a rotated log keeps its new descriptor
	}
	if len(f.pending) == 0 {
		f.pending = append(f.pending, Update{store: f.store})
	}
	last := &f.pending[len(f.pending)-1]
	if c.drained != nil {
		last.add(ff.path, fileChange{res: c.drained})
	}
	// Lines read since the file's last reload, or its first reading, go
	// to the consumer before the reload replaces them (a batch's final
	// lines): so do a rotated file's last lines (drained), even when what
	// they end is itself a pending reload; a rewrite of what is a pending
	// reload replaces it, so that a file rewritten again and again is
	// queued once.
	if c.reloaded && last.holds(ff.path) && (c.drained != nil || !slices.Contains(last.Reloaded, ff.path)) {
		f.pending = append(f.pending, Update{store: f.store})
		last = &f.pending[len(f.pending)-1]
	}
	last.add(ff.path, c)
	if ff.resumed {
		ff.resumed = false
		last.resume(ff.path)
	}
}

// resume says that the last line of the file path, said unended, changed:
// an Unended of it that u still holds is dropped.
func (u *Update) resume(path string) {
	u.Unended = slices.DeleteFunc(u.Unended, func(x Unended) bool { return x.Path == path })
	if !slices.Contains(u.Resumed, path) {
		u.Resumed = append(u.Resumed, path)
	}
}

// maxOpenFollowed is how many tail files keep their descriptors open
// (followedFile.file): those that grew last. A directory of thousands of
// rotated logs must not take as many descriptors; the files that stopped
// growing are seldom rotated again.
const maxOpenFollowed = 64

// limitOpen gives back the descriptors of the tail files that grew least
// recently, beyond maxOpenFollowed.
func (f *follower) limitOpen() {
	var open []*followedFile
	for _, ff := range f.files {
		if ff.file != nil {
			open = append(open, ff)
		}
	}
	if len(open) <= maxOpenFollowed {
		return
	}
	slices.SortFunc(open, func(a, b *followedFile) int { return cmp.Compare(b.grown, a.grown) })
	for _, ff := range open[maxOpenFollowed:] {
		ff.closeFile()
	}
}

// close gives back every descriptor the follower keeps.
func (f *follower) close() {
	for _, ff := range f.files {
		ff.closeFile()
	}
}

// scanDirs reads the new input files of the followed directories, in
// natural name order, and says the new files left out (Update.LeftOut).
func (f *follower) scanDirs() {
	f.rescan = false
	for _, d := range f.dirs {
		inputs, err := listInputs(d)
		if err != nil {
			continue // a directory that went away: its files say so
		}
		f.sayLeftOut(d)
		for _, path := range inputs {
			if _, known := f.byPath[filepath.Clean(path)]; !known && !f.leftOutSaid[path] {
				if f.apart(path) {
					continue
				}
				ff := f.add(path)
				ff.relogDue = f.relog != nil
				if clean := filepath.Clean(path); f.vanished[clean] {
					// Said vanished: read now, it recovers.
					ff.errSaid = true
					delete(f.vanished, clean)
				}
				f.note(ff, ff.said(ff.reload(f.opts.Options, nil)))
				f.limitOpen()
			}
		}
	}
}

// apart reports whether the file at path, new in a followed directory,
// is not read now (FollowOptions.Apart): left out, the note that says
// why queued, or to be judged again.
func (f *follower) apart(path string) bool {
	if f.opts.Apart == nil {
		return false
	}
	first := ""
	if len(f.files) > 0 {
		first = f.files[0].path
	}
	why, wait := f.opts.Apart(first, path)
	if wait {
		return true
	}
	if why == "" {
		return false
	}
	f.leftOutSaid[path] = true
	f.queueLeftOut(LeftOutFile{Path: path, Why: why})
	return true
}

// sayLeftOut queues, for the consumer, the files of the followed
// directory dir left out (leftOutOf) that were not said yet, a companion
// held (companionHeldWhy) once it is decided: f.held keeps it meanwhile.
func (f *follower) sayLeftOut(dir string) {
	for path := range f.held {
		if filepath.Dir(path) == filepath.Clean(dir) {
			delete(f.held, path)
		}
	}
	for _, lo := range leftOutOf(dir) {
		if lo.Why == companionHeldWhy {
			f.held = setIn(f.held, filepath.Clean(lo.Path))
			continue
		}
		if f.leftOutSaid[lo.Path] {
			continue
		}
		f.leftOutSaid[lo.Path] = true
		f.queueLeftOut(lo)
	}
}

// queueLeftOut says, in the pending Update, that lo is left out.
func (f *follower) queueLeftOut(lo LeftOutFile) {
	if len(f.pending) == 0 {
		f.pending = append(f.pending, Update{store: f.store})
	}
	last := &f.pending[len(f.pending)-1]
	last.LeftOut = append(last.LeftOut, lo)
}

// relogged leaves out of c, a reading of the file ff that appeared, its
// trajectories when they repeat the file read before it (relogCheck),
// and says so (fileChange.relogged). The check is of the first reading
// that brings rows, whichever reads them: scanDirs' own, or a later
// check's, its first having failed as the file changed under it, or
// found a Parquet file without its footer yet, or an empty one.
func (f *follower) relogged(ff *followedFile, c fileChange) fileChange {
	if !ff.relogDue || c.res == nil || len(c.res.Trajectories) == 0 {
		return c
	}
	ff.relogDue = false
	if err := f.relog.end(ff.path, nil, c.res); err != nil {
		c.err = errors.Join(c.err, err)
	}
	c.relogged, f.relog.found = f.relog.found, nil
	return c
}

// holds reports whether u holds trajectories of the file path.
func (u *Update) holds(path string) bool {
	return slices.ContainsFunc(u.Trajectories, func(t scoring.Trajectory) bool { return t.Source == path })
}

// empty reports whether u holds nothing to tell.
func (u *Update) empty() bool {
	return len(u.Trajectories) == 0 && len(u.Reloaded) == 0 && len(u.Gone) == 0 && u.Skipped == 0 && len(u.Errs) == 0 &&
		len(u.Recovered) == 0 && len(u.Unended) == 0 && len(u.Resumed) == 0 && len(u.Relogged) == 0 && len(u.LeftOut) == 0
}

// add merges what a check of the file path found into u. A reload drops
// the file's trajectories that u still holds: they are replaced.
func (u *Update) add(path string, c fileChange) {
	if c.reloaded {
		u.Trajectories = slices.DeleteFunc(u.Trajectories, func(t scoring.Trajectory) bool { return t.Source == path })
		u.Gone = slices.DeleteFunc(u.Gone, func(p string) bool { return p == path })
		if !slices.Contains(u.Reloaded, path) {
			u.Reloaded = append(u.Reloaded, path)
		}
	}
	if c.gone && !slices.Contains(u.Gone, path) {
		u.Gone = append(u.Gone, path)
	}
	if c.res != nil {
		if len(u.Trajectories) == 0 {
			// The check's array is the update's own: not copied.
			u.Trajectories = c.res.Trajectories
		} else {
			u.Trajectories = append(u.Trajectories, c.res.Trajectories...)
			if u.store != nil && cap(c.res.Trajectories) > 0 {
				u.store.give(c.res.Trajectories, nil) // copied: free
			}
		}
		u.picked = append(u.picked, c.res.picked...)
		u.Skipped += c.res.Skipped
		room := input.MaxSkipReasons - len(u.SkipReasons)
		u.SkipReasons = append(u.SkipReasons, c.res.SkipReasons[:min(room, len(c.res.SkipReasons))]...)
	}
	if c.recovered {
		// The file's errors merged for a slow consumer are over: Err
		// keeps them, as what went wrong since the last Update.
		for i := range u.Errs {
			if u.Errs[i].Path == path {
				u.Errs[i].Recovered = true
			}
		}
		if !slices.Contains(u.Recovered, path) {
			u.Recovered = append(u.Recovered, path)
		}
	}
	if c.err != nil {
		u.Errs = append(u.Errs, FileError{Path: path, Err: c.err})
	}
	if c.unended != nil {
		u.Unended = append(u.Unended, *c.unended)
	}
	u.Relogged = append(u.Relogged, c.relogged...)
}

// MalformedError is the error of the lines of the followed file Path
// skipped without SkipInvalid (in Update.Errs): following cannot stop at
// them. Skipped is how many; First is the first's reason, nil when the
// Result kept none (beyond MaxSkipReasons).
type MalformedError struct {
	Path    string
	Skipped int
	First   *LineError
}

// Error says the one line's reason, or how many lines were skipped.
func (e *MalformedError) Error() string {
	switch {
	case e.First == nil && e.Skipped == 1:
		return fmt.Sprintf("%s: 1 malformed line skipped", e.Path)
	case e.First == nil:
		return fmt.Sprintf("%s: %d malformed lines skipped", e.Path, e.Skipped)
	case e.Skipped == 1:
		return e.First.Error()
	}
	return fmt.Sprintf("%d malformed lines skipped, the first: %v", e.Skipped, e.First)
}

func (e *MalformedError) Unwrap() error {
	if e.First == nil {
		return nil
	}
	return e.First
}

// malformedError is the error of the lines of the file path skipped while
// following without SkipInvalid (res.Skipped > 0).
func malformedError(path string, res *Result) error {
	e := &MalformedError{Path: path, Skipped: res.Skipped}
	if len(res.SkipReasons) > 0 {
		e.First = res.SkipReasons[0]
	}
	return e
}
