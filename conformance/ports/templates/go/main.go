// Driver template of a OnePath 1.1.0 port in Go (standard library only), written by
// `onepath-conformance port init --lang go` ([CONF.CLI.PORT_INIT]).
//
// It speaks the driver protocol of spec/driver.md, version 2, on stdin/stdout: the handshake
// ([DRIVER.MSG.HELLO]), then one request per line ([DRIVER.MSG.REQUEST]) answered in order
// ([DRIVER.PROC.ORDER]) with exactly one reply line ([DRIVER.MSG.REPLY]). As written it claims no
// family and answers every op `unimplemented` ([DRIVER.MSG.UNIMPLEMENTED]).
//
// To fill in a family: implement its ops in ops below (return the `ok` payload; return nil for
// what the port does not do yet), then add the family to claims.
// The request and reply shapes are in protocol.d.ts (TypeScript notation, generated from
// spec/schemas/driver-v2, [DRIVER.SCHEMA]): the type named in each op's comment.
//
// Build and run:  go build -o driver . && onepath-conformance certify --port "$PWD/driver" --family hex-search
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
)

const (
	protocol        = "onepath-driver"
	protocolVersion = 2
	specVersion     = "1.1.0"
	portName        = "my-port" // your port's name
	portVersion     = "0.1.0"   // your port's version
)

// claims of the handshake: family -> level 1..4 ([DRIVER.LEVEL.LIST]). Families: graph, grids,
// grid-search, replanning, flow-field, hex-search, voxel-search, hpa, grid-bidi
// ([DRIVER.LEVEL.FAMILY]). Claim a family only when its ops answer; e.g. {"hex-search": 4}.
var claims = map[string]int{}

// ---------------------------------------------------------------------------------- ops

// An op handler gets the request's raw `args` and returns the `ok` payload (anything that
// encoding/json turns into a JSON object: a struct, a map), or nil for `unimplemented`. A
// returned error becomes an `error` reply ([DRIVER.MSG.REPLY]) and the driver keeps serving.
// Decode args with decodeStrict into a struct of the named type to reject unknown members.
// Family of each op in brackets ([DRIVER.LEVEL.FAMILY]); types are those of protocol.d.ts.
type handler func(args json.RawMessage) (interface{}, error)

var ops = map[string]handler{
	// [graph] [DRIVER.OP.RUN_CASE] args RunCaseArgs, ok OkRunCase
	"run_case": unimplemented,
	// [graph] [DRIVER.OP.RUN_SLICED] args SlicedArgs, ok OkRunSliced
	"run_sliced": unimplemented,
	// [graph] [DRIVER.OP.BUILD_LINKS] args LinkArgs, ok OkBuildLinks
	"build_links": unimplemented,
	// [graph] [DRIVER.OP.RUN_HOOKED] args HookedArgs, ok OkRunHooked
	"run_hooked": unimplemented,
	// [graph] [DRIVER.OP.RUN_CANCELLED] args CancelArgs, ok OkRunCancelled
	"run_cancelled": unimplemented,
	// [graph] [DRIVER.OP.RUN_OPS] args OpsArgs, ok OkRunOps
	"run_ops": unimplemented,
	// [graph] [DRIVER.OP.LANDMARKS] args CaseArgs, ok OkBuildLandmarks
	"build_landmarks": unimplemented,
	// [graph] [DRIVER.OP.LANDMARKS] args BoundsArgs, ok OkLowerBounds
	"lower_bounds": unimplemented,
	// [graph] [DRIVER.OP.LANDMARKS] args OplmArgs, ok OkDeserializeOplm
	"deserialize_oplm": unimplemented,
	// [by kind: graph, grids, grid-search, replanning, flow-field] [DRIVER.OP.STATE]
	// args StateRunArgs, ok OkStateRun
	"state_run": unimplemented,
	// [grid-search] [DRIVER.OP.RUN_GRID] args GridRunArgs, ok OkRunGrid
	"run_grid": unimplemented,
	// [replanning] [DRIVER.OP.RUN_REPLAN] args ReplanRequest, ok OkRunReplan
	"run_replan": unimplemented,
	// [flow-field] [DRIVER.OP.RUN_FLOW] args FlowRequest, ok OkRunFlow
	"run_flow": unimplemented,
	// [hex-search: args.hex; voxel-search: args.voxel] [DRIVER.OP.RUN_LATTICE]
	// args LatticeRequest, ok OkRunLattice
	"run_lattice": unimplemented,
	// [hpa] [DRIVER.OP.RUN_HPA] args HpaRequest, ok OkRunHpa
	"run_hpa": unimplemented,
	// [grid-bidi] [DRIVER.OP.RUN_BIDI] args BidiRequest, ok OkRunBidi
	"run_bidi": unimplemented,
	// [the target's family] [DRIVER.OP.DESCRIBE] args DescribeRequest, ok OkDescribe
	"describe": unimplemented,
	// [grids] [DRIVER.OP.SYNCTEST] args Session, ok OkSynctest
	"synctest": unimplemented,
}

func unimplemented(args json.RawMessage) (interface{}, error) { return nil, nil }

// ------------------------------------------------------------------------------ helpers

// decodeStrict decodes JSON into v, rejecting unknown members of structs ([DRIVER.MSG.STRICT]:
// the kit sends exactly the members of the schema). Numbers into interface{} stay json.Number.
func decodeStrict(data []byte, v interface{}) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// realOf reads a real of [DRIVER.ENC.REAL]: 16 lowercase hex digits of a binary64 bit pattern.
func realOf(hex string) (float64, error) {
	if len(hex) != 16 {
		return 0, fmt.Errorf("not a real bit pattern: %q", hex)
	}
	for _, c := range hex {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return 0, fmt.Errorf("not a real bit pattern: %q", hex)
		}
	}
	b, err := strconv.ParseUint(hex, 16, 64)
	return math.Float64frombits(b), err
}

// bitsOf writes a real of [DRIVER.ENC.REAL] (keeps -0.0 and NaN payloads).
func bitsOf(x float64) string { return fmt.Sprintf("%016x", math.Float64bits(x)) }

// noDuplicates walks a JSON text and fails on an object with a member twice, at any depth
// (encoding/json would silently keep the last one).
func noDuplicates(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var walk func() error
	walk = func() error {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'):
			seen := map[string]bool{}
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return err
				}
				key := k.(string)
				if seen[key] {
					return fmt.Errorf("duplicate member %q", key)
				}
				seen[key] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		case json.Delim('['):
			for d.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		}
		return nil
	}
	return walk()
}

// readObject reads a JSON object strictly: no duplicate member, exactly the members names.
func readObject(line []byte, names []string) (map[string]json.RawMessage, error) {
	if err := noDuplicates(line); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := decodeStrict(line, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("not an object")
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
		if _, ok := m[n]; !ok {
			return m, fmt.Errorf("missing member %q", n)
		}
	}
	var unknown []string
	for k := range m {
		if !want[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		return m, fmt.Errorf("unknown member %q", unknown[0])
	}
	return m, nil
}

// ----------------------------------------------------------------------------- protocol

var out = bufio.NewWriter(os.Stdout)

// send writes one JSON line and flushes ([DRIVER.PROC.LINES]).
func send(v interface{}) {
	b, err := json.Marshal(v)
	if err != nil {
		die("cannot encode a reply: %v", err)
	}
	out.Write(b)
	out.WriteByte('\n')
	if err := out.Flush(); err != nil {
		os.Exit(0) // the kit closed stdout: nothing left to answer
	}
}

func die(format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, "driver: "+format+"\n", a...)
	os.Exit(2)
}

// Exactly two members per reply ([DRIVER.MSG.REPLY]).
type okReply struct {
	ID uint64          `json:"id"`
	Ok json.RawMessage `json:"ok"`
}
type unimplementedReply struct {
	ID            uint64 `json:"id"`
	Unimplemented bool   `json:"unimplemented"`
}
type errorReply struct {
	ID    uint64 `json:"id"`
	Error string `json:"error"`
}

type helloReply struct {
	Protocol    string         `json:"protocol"`
	Version     int            `json:"version"`
	Port        string         `json:"port"`
	PortVersion string         `json:"port_version"`
	SpecVersion string         `json:"spec_version"`
	Claims      map[string]int `json:"claims"`
}

// handshake reads the kit's first line strictly and answers it ([DRIVER.MSG.HELLO]).
func handshake(line []byte) {
	m, err := readObject(line, []string{"protocol", "version", "spec_version"})
	if err != nil {
		die("bad handshake: %v", err)
	}
	if string(m["protocol"]) != `"`+protocol+`"` || string(m["version"]) != strconv.Itoa(protocolVersion) ||
		string(m["spec_version"]) != `"`+specVersion+`"` {
		die("this driver speaks %s %d for spec %s, the kit sent %s", protocol, protocolVersion, specVersion, bytes.TrimSpace(line))
	}
	send(helloReply{protocol, protocolVersion, portName, portVersion, specVersion, claims})
}

// serve reads one request strictly, dispatches it and answers ([DRIVER.MSG.REQUEST]).
func serve(line []byte) {
	m, err := readObject(line, []string{"id", "case", "op", "args"})
	var id uint64
	if m != nil {
		id, _ = strconv.ParseUint(string(m["id"]), 10, 64)
	}
	if id == 0 {
		die("request without a positive integer id (%v): %.200s", err, line) // the kit sees a crash
	}
	if err == nil {
		err = answer(id, m)
	}
	if err != nil {
		send(errorReply{id, fmt.Sprintf("request %d: %v", id, err)})
	}
}

func answer(id uint64, m map[string]json.RawMessage) (err error) {
	var caseLabel, op string
	if err := json.Unmarshal(m["case"], &caseLabel); err != nil {
		return errors.New("case is not a string")
	}
	if err := json.Unmarshal(m["op"], &op); err != nil {
		return errors.New("op is not a string")
	}
	h, ok := ops[op]
	if !ok {
		return fmt.Errorf("unknown op %q (this driver speaks protocol %d)", op, protocolVersion)
	}
	defer func() { // a panic of the port is an error reply, not a crash
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	payload, err := h(m["args"])
	if err != nil {
		return err
	}
	if payload == nil {
		send(unimplementedReply{id, true})
		return nil
	}
	b, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	if len(b) == 0 || b[0] != '{' {
		return errors.New("driver bug: an ok payload must be a JSON object")
	}
	send(okReply{id, b})
	return nil
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	first := true
	for {
		line, err := in.ReadBytes('\n') // no line limit: a request can be megabytes
		if len(bytes.TrimSpace(line)) > 0 {
			if first {
				first = false
				handshake(line)
			} else {
				serve(line)
			}
		}
		if err != nil {
			os.Exit(0) // end of stdin ([DRIVER.PROC.EOF])
		}
	}
}
