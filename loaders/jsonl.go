package loaders

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// readJSONL reads one JSON object per line. Blank lines are skipped; a line
// may be of any length and end in "\n" or "\r\n".
func (l *loader) readJSONL(br *bufio.Reader) error {
	var long []byte // reused for lines longer than the buffer
	for lineNo := 1; ; lineNo++ {
		line, err := readLine(br, &long)
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: read: %w", l.name, lineNo, err)
		}
		if skipSpace(line) < len(line) {
			if err := l.jsonlLine(line, lineNo); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// readLine returns the next line without its "\n" or "\r\n", and io.EOF
// with the last one. The line is valid until the next call; long is a
// buffer kept between calls for lines that do not fit br's buffer.
func readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		*long = append((*long)[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = br.ReadSlice('\n')
			*long = append(*long, line...)
		}
		line = *long
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, err
}

// jsonlLine reads the trajectory on line lineNo; a bad line is rejected.
func (l *loader) jsonlLine(line []byte, lineNo int) error {
	obj, lerr := decodeObject(line)
	if lerr != nil {
		return l.reject(l.errorAt(lineNo, lerr.Col, lerr.Msg))
	}
	t := l.newTrajectory(lineNo)
	if err := obj.trajectory(&t); err != nil {
		return l.reject(l.errorAt(lineNo, 0, err.Error()))
	}
	l.add(t)
	return nil
}
