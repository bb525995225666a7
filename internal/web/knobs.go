package web

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/outpostchess/outpost/bots/knobs"
	"github.com/outpostchess/outpost/config"
)

// groupOrder is the knobs specification's section order; groups it does
// not name follow in table order.
var groupOrder = []string{knobs.GroupOpponent, knobs.GroupGeometry, knobs.GroupDevelopment, knobs.GroupKingMate, knobs.GroupRisk,
	knobs.GroupTotals, knobs.GroupSearch, knobs.GroupTesting}

// setName is what config accepts as a knob set name.
var setName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

type knobField struct {
	Key, Help, Type, Default, Value, Range string
	Min, Max, Step                         string
	Choices                                []string
	Checked                                bool
	Error                                  string
}

type knobGroup struct {
	Name   string
	ID     string
	Fields []*knobField
}

type knobsData struct {
	Set      string
	Sets     []string
	Groups   []knobGroup
	CanSave  bool
	Config   string
	Saved    bool
	Errors   []string
	LoadNote string
}

// readSets returns the knob sets of the configuration file as decoded TOML
// (a missing file has none).
func readSets(path string) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	if path == "" {
		return out, nil
	}
	data, err := config.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	var raw struct {
		Knobs map[string]map[string]any `toml:"knobs"`
	}
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	for k, v := range raw.Knobs {
		out[k] = v
	}
	return out, nil
}

func formatValue(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// knobsForm builds the form from a configuration and per-key errors.
func knobsForm(cfg knobs.Config, errs map[string]string) []knobGroup {
	byGroup := map[string]*knobGroup{}
	var order []string
	for _, k := range knobs.Knobs() {
		g, ok := byGroup[k.Group]
		if !ok {
			g = &knobGroup{Name: k.Group, ID: "grp-" + strings.ToLower(strings.ReplaceAll(k.Group, " ", "-"))}
			byGroup[k.Group] = g
			order = append(order, k.Group)
		}
		v, _ := cfg.Get(k.Key)
		f := &knobField{Key: k.Key, Help: k.Help, Type: string(k.Type), Default: formatValue(k.Default), Value: formatValue(v), Error: errs[k.Key]}
		switch k.Type {
		case knobs.TypeInt, knobs.TypeFloat:
			f.Min, f.Max = formatValue(k.Min), formatValue(k.Max)
			f.Step = "1"
			if k.Type == knobs.TypeFloat {
				f.Step = "any"
			}
			f.Range = f.Min + " to " + f.Max
			if k.ZeroDisables {
				f.Range += " (0 = no cap)"
			}
		case knobs.TypeBool:
			f.Checked = v == true
			f.Range = "on or off"
		case knobs.TypeEnum:
			f.Choices = k.Choices
			f.Range = strings.Join(k.Choices, ", ")
		}
		g.Fields = append(g.Fields, f)
	}
	rank := func(name string) int {
		for i, g := range groupOrder {
			if g == name {
				return i
			}
		}
		return len(groupOrder)
	}
	sort.SliceStable(order, func(i, j int) bool { return rank(order[i]) < rank(order[j]) })
	out := make([]knobGroup, 0, len(order))
	for _, n := range order {
		out = append(out, *byGroup[n])
	}
	return out
}

func (s *Server) knobsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := q.Get("set")
	if name == "" {
		name = "custom"
	}
	d := knobsData{Set: name, CanSave: s.opt.ConfigPath != "", Config: s.opt.ConfigPath, Saved: q.Get("saved") == "1"}
	cfg := knobs.Defaults()
	sets, err := readSets(s.opt.ConfigPath)
	if err != nil {
		d.Errors = append(d.Errors, err.Error())
	}
	for n := range sets {
		d.Sets = append(d.Sets, n)
	}
	sort.Strings(d.Sets)
	if vals, ok := sets[name]; ok {
		c, err := knobs.FromMap(vals)
		if err != nil {
			d.LoadNote = "The saved set does not validate (" + err.Error() + "); showing the defaults."
		} else {
			cfg = c
		}
	}
	d.Groups = knobsForm(cfg, nil)
	s.render(w, http.StatusOK, "knobs", page{Title: "Knobs", Nav: "knobs", Scripts: []string{"knobs.js"}, Data: d})
}

// parseKnobForm reads every knob from the form; it returns the values that
// differ from the defaults and the per-key errors.
func parseKnobForm(r *http.Request) (map[string]any, map[string]string) {
	vals := map[string]any{}
	errs := map[string]string{}
	for _, k := range knobs.Knobs() {
		raw := strings.TrimSpace(r.PostForm.Get(k.Key))
		var v any
		switch k.Type {
		case knobs.TypeBool:
			v = r.PostForm.Has(k.Key) && raw != "false"
		case knobs.TypeInt:
			n, err := strconv.ParseInt(raw, 10, 64)
			if err != nil {
				errs[k.Key] = fmt.Sprintf("%q is not a whole number", raw)
				continue
			}
			v = n
		case knobs.TypeFloat:
			f, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				errs[k.Key] = fmt.Sprintf("%q is not a number", raw)
				continue
			}
			v = f
		default:
			v = raw
		}
		if formatValue(v) != formatValue(k.Default) {
			vals[k.Key] = v
		}
	}
	return vals, errs
}

func (s *Server) saveKnobs(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		status, msg := bodyError(err) // 413 past MaxRequestBody, as documented
		s.fail(w, status, "Bad form", msg)
		return
	}
	name := strings.TrimSpace(r.PostForm.Get("set"))
	d := knobsData{Set: name, CanSave: s.opt.ConfigPath != "", Config: s.opt.ConfigPath}
	if sets, err := readSets(s.opt.ConfigPath); err == nil {
		for n := range sets {
			d.Sets = append(d.Sets, n)
		}
		sort.Strings(d.Sets)
	}
	vals, errs := parseKnobForm(r)
	fail := func(status int, msg ...string) {
		d.Errors = append(d.Errors, msg...)
		// Re-show what was typed.
		cfg := knobs.Defaults()
		form := knobsForm(cfg, errs)
		for _, g := range form {
			for _, f := range g.Fields {
				if f.Type == string(knobs.TypeBool) {
					f.Checked = r.PostForm.Has(f.Key)
				} else {
					f.Value = r.PostForm.Get(f.Key)
				}
			}
		}
		d.Groups = form
		s.render(w, status, "knobs", page{Title: "Knobs", Nav: "knobs", Scripts: []string{"knobs.js"}, Data: d})
	}
	if !d.CanSave {
		fail(http.StatusConflict, "No configuration file: start outpost serve with --config FILE to save knob sets.")
		return
	}
	if !setName.MatchString(name) {
		fail(http.StatusUnprocessableEntity, "Set name: use 1 to 40 letters, digits, '_' or '-'.")
		return
	}
	if len(errs) > 0 {
		fail(http.StatusUnprocessableEntity, "Some values are not valid; see the marked fields.")
		return
	}
	if _, err := knobs.FromMap(vals); err != nil {
		for _, k := range knobs.Knobs() {
			if strings.Contains(err.Error(), k.Key) {
				errs[k.Key] = strings.TrimPrefix(err.Error(), "knobs: ")
			}
		}
		fail(http.StatusUnprocessableEntity, err.Error())
		return
	}
	if err := config.WriteKnobSet(s.opt.ConfigPath, name, vals); err != nil {
		fail(http.StatusInternalServerError, err.Error())
		return
	}
	s.opt.Logger.Info().Str("set", name).Str("config", s.opt.ConfigPath).Int("changed", len(vals)).Msg("web: knob set saved")
	http.Redirect(w, r, "/knobs?set="+name+"&saved=1", http.StatusSeeOther)
}
