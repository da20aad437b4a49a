// Command screenshot renders a terminal screen, as `tmux capture-pane -e -p`
// prints it (text with SGR colour sequences), to a PNG: the README's
// pictures of the dashboard (scripts/screenshots.sh). Block elements and
// braille patterns are drawn as shapes, the rest with DejaVu Sans Mono.
//
//	screenshot -cols 120 -rows 40 -font /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf < screen.txt > screen.png
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// cell is one character cell of the screen.
type cell struct {
	r      rune
	fg, bg color.RGBA
	bold   bool
}

var (
	defaultFG = color.RGBA{0xd0, 0xd0, 0xd0, 0xff}
	defaultBG = color.RGBA{0x1c, 0x1c, 0x1c, 0xff}
)

func main() {
	cols := flag.Int("cols", 120, "screen width in cells")
	rows := flag.Int("rows", 40, "screen height in cells")
	regular := flag.String("font", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "a monospace TrueType font")
	bold := flag.String("bold", "", "its bold face (default: the font's name with -Bold)")
	size := flag.Float64("size", 13, "font size in pixels")
	flag.Parse()
	if *bold == "" {
		*bold = strings.Replace(*regular, ".ttf", "-Bold.ttf", 1)
	}
	screen, err := parse(os.Stdin, *cols, *rows)
	if err == nil {
		err = render(os.Stdout, screen, *regular, *bold, *size)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		os.Exit(1)
	}
}

// parse reads the captured screen into rows x cols cells.
func parse(r io.Reader, cols, rows int) ([][]cell, error) {
	screen := make([][]cell, rows)
	for y := range screen {
		screen[y] = make([]cell, cols)
		for x := range screen[y] {
			screen[y][x] = cell{r: ' ', fg: defaultFG, bg: defaultBG}
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for y := 0; y < rows && sc.Scan(); y++ {
		fg, bg, bold, reverse := defaultFG, defaultBG, false, false
		line := []rune(sc.Text())
		x := 0
		for i := 0; i < len(line); i++ {
			if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
				j := i + 2
				for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					fg, bg, bold, reverse = sgr(string(line[i+2:j]), fg, bg, bold, reverse)
				}
				i = j
				continue
			}
			if x >= cols {
				continue
			}
			c := cell{r: line[i], fg: fg, bg: bg, bold: bold}
			if reverse {
				c.fg, c.bg = bg, fg
			}
			screen[y][x] = c
			x++
		}
	}
	return screen, sc.Err()
}

// sgr applies the parameters of one SGR sequence.
func sgr(params string, fg, bg color.RGBA, bold, reverse bool) (color.RGBA, color.RGBA, bool, bool) {
	if params == "" {
		params = "0"
	}
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	n := make([]int, len(ps))
	for i, p := range ps {
		n[i], _ = strconv.Atoi(p)
	}
	for i := 0; i < len(n); i++ {
		switch p := n[i]; {
		case p == 0:
			fg, bg, bold, reverse = defaultFG, defaultBG, false, false
		case p == 1:
			bold = true
		case p == 22:
			bold = false
		case p == 7:
			reverse = true
		case p == 27:
			reverse = false
		case p >= 30 && p <= 37:
			fg = ansi256(p - 30)
		case p >= 90 && p <= 97:
			fg = ansi256(p - 90 + 8)
		case p == 39:
			fg = defaultFG
		case p >= 40 && p <= 47:
			bg = ansi256(p - 40)
		case p >= 100 && p <= 107:
			bg = ansi256(p - 100 + 8)
		case p == 49:
			bg = defaultBG
		case (p == 38 || p == 48) && i+2 < len(n) && n[i+1] == 5:
			c := ansi256(n[i+2])
			if p == 38 {
				fg = c
			} else {
				bg = c
			}
			i += 2
		case (p == 38 || p == 48) && i+4 < len(n) && n[i+1] == 2:
			c := color.RGBA{uint8(n[i+2]), uint8(n[i+3]), uint8(n[i+4]), 0xff}
			if p == 38 {
				fg = c
			} else {
				bg = c
			}
			i += 4
		}
	}
	return fg, bg, bold, reverse
}

// ansi256 returns colour n of the xterm 256-colour palette.
func ansi256(n int) color.RGBA {
	base := []color.RGBA{
		{0x00, 0x00, 0x00, 0xff}, {0xcd, 0x31, 0x31, 0xff}, {0x0d, 0xbc, 0x79, 0xff}, {0xe5, 0xe5, 0x10, 0xff},
		{0x24, 0x72, 0xc8, 0xff}, {0xbc, 0x3f, 0xbc, 0xff}, {0x11, 0xa8, 0xcd, 0xff}, {0xe5, 0xe5, 0xe5, 0xff},
		{0x66, 0x66, 0x66, 0xff}, {0xf1, 0x4c, 0x4c, 0xff}, {0x23, 0xd1, 0x8b, 0xff}, {0xf5, 0xf5, 0x43, 0xff},
		{0x3b, 0x8e, 0xea, 0xff}, {0xd6, 0x70, 0xd6, 0xff}, {0x29, 0xb8, 0xdb, 0xff}, {0xff, 0xff, 0xff, 0xff},
	}
	switch {
	case n < 16:
		return base[max(n, 0)]
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return color.RGBA{level(n / 36), level(n / 6 % 6), level(n % 6), 0xff}
	case n < 256:
		v := uint8(8 + 10*(n-232))
		return color.RGBA{v, v, v, 0xff}
	}
	return defaultFG
}

// render draws the screen as a PNG.
func render(w io.Writer, screen [][]cell, regularPath, boldPath string, size float64) error {
	regular, err := loadFace(regularPath, size)
	if err != nil {
		return err
	}
	bold, err := loadFace(boldPath, size)
	if err != nil {
		bold = regular
	}
	m := regular.Metrics()
	adv, _ := regular.GlyphAdvance('M')
	cw, ch := adv.Ceil(), (m.Ascent+m.Descent).Ceil()+2
	rows, cols := len(screen), len(screen[0])
	img := image.NewRGBA(image.Rect(0, 0, cols*cw, rows*ch))
	for y, row := range screen {
		for x, c := range row {
			r := image.Rect(x*cw, y*ch, (x+1)*cw, (y+1)*ch)
			draw.Draw(img, r, image.NewUniform(c.bg), image.Point{}, draw.Src)
			if c.r == ' ' || drawShape(img, r, c) {
				continue
			}
			face := regular
			if c.bold {
				face = bold
			}
			d := font.Drawer{Dst: img, Src: image.NewUniform(c.fg), Face: face,
				Dot: fixed.P(x*cw, y*ch+1+m.Ascent.Ceil())}
			d.DrawString(string(c.r))
		}
	}
	return (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(w, paletted(img, screen))
}

// paletted returns img in a palette of the screen's colours and, for each
// pair of a cell's colours, three shades between them (the glyphs' edges):
// a PNG a quarter the size of a true-colour one, without visible loss.
func paletted(img *image.RGBA, screen [][]cell) image.Image {
	seen := map[color.RGBA]bool{}
	var pal color.Palette
	add := func(c color.RGBA) {
		if !seen[c] && len(pal) < 256 {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	var pairs [][2]color.RGBA // in order of first appearance: the same PNG each run
	seenPair := map[[2]color.RGBA]bool{}
	for _, row := range screen {
		for _, c := range row {
			add(c.fg)
			add(c.bg)
			if p := [2]color.RGBA{c.fg, c.bg}; !seenPair[p] {
				seenPair[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	for _, p := range pairs {
		for _, t := range []int{1, 2, 3} {
			mix := func(a, b uint8) uint8 { return uint8((int(a)*t + int(b)*(4-t)) / 4) }
			add(color.RGBA{mix(p[0].R, p[1].R), mix(p[0].G, p[1].G), mix(p[0].B, p[1].B), 0xff})
		}
	}
	out := image.NewPaletted(img.Bounds(), pal)
	draw.Draw(out, out.Bounds(), img, image.Point{}, draw.Src)
	return out
}

func loadFace(path string, size float64) (font.Face, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := opentype.Parse(data)
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

// drawShape draws the block elements (▁..█, ▏..▉) and braille patterns
// as shapes that fill their cell exactly; it reports whether c was one.
func drawShape(img *image.RGBA, r image.Rectangle, c cell) bool {
	fill := func(x0, y0, x1, y1 int) {
		draw.Draw(img, image.Rect(x0, y0, x1, y1), image.NewUniform(c.fg), image.Point{}, draw.Src)
	}
	w, h := r.Dx(), r.Dy()
	switch {
	case c.r == '█':
		fill(r.Min.X, r.Min.Y, r.Max.X, r.Max.Y)
	case c.r >= '▁' && c.r <= '▇': // lower eighths
		eighths := int(c.r-'▁') + 1
		fill(r.Min.X, r.Max.Y-h*eighths/8, r.Max.X, r.Max.Y)
	case c.r == '▀':
		fill(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+h/2)
	case c.r >= '▉' && c.r <= '▏': // left eighths, 7 down to 1
		eighths := 7 - int(c.r-'▉')
		fill(r.Min.X, r.Min.Y, r.Min.X+w*eighths/8, r.Max.Y)
	case c.r >= 0x2800 && c.r <= 0x28ff: // braille: dots 1-8
		bits := int(c.r - 0x2800)
		pos := [8][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}}
		d := max(w/4, 1)
		for b, p := range pos {
			if bits&(1<<b) != 0 {
				cx := r.Min.X + w*(2*p[0]+1)/4
				cy := r.Min.Y + h*(2*p[1]+1)/8
				fill(cx-d/2, cy-d/2, cx-d/2+d, cy-d/2+d)
			}
		}
	default:
		return false
	}
	return true
}
