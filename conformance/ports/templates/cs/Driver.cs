// Driver template of a OnePath 1.1.0 port in C# (one file, base class library only; compiles
// with Mono's mcs and with the .NET SDK), written by `onepath-conformance port init --lang cs`
// ([CONF.CLI.PORT_INIT]).
//
// It speaks the driver protocol of spec/driver.md, version 2, on stdin/stdout: the handshake
// ([DRIVER.MSG.HELLO]), then one request per line ([DRIVER.MSG.REQUEST]) answered in order
// ([DRIVER.PROC.ORDER]) with exactly one reply line ([DRIVER.MSG.REPLY]). As written it claims no
// family and answers every op `unimplemented` ([DRIVER.MSG.UNIMPLEMENTED]).
//
// To fill in a family: implement its ops in Ops below (return the `ok` payload; return null for
// what the port does not do yet), then add the family to Claims.
// The request and reply shapes are in protocol.d.ts (TypeScript notation, generated from
// spec/schemas/driver-v2, [DRIVER.SCHEMA]): the type named in each op's comment. JSON values
// are read and written as Json.Obj (ordered members), List<object>, string, long, double,
// bool and null.
//
// Build and run:  mcs -out:driver.exe Driver.cs && onepath-conformance certify --port "mono $PWD/driver.exe" --family hex-search

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;

public static class Driver
{
    const string Protocol = "onepath-driver";
    const long ProtocolVersion = 2;
    const string SpecVersion = "1.1.0";
    const string PortName = "my-port";   // your port's name
    const string PortVersion = "0.1.0";  // your port's version

    // The claims of the handshake: family -> level 1..4 ([DRIVER.LEVEL.LIST]). Families: graph,
    // grids, grid-search, replanning, flow-field, hex-search, voxel-search, hpa, grid-bidi
    // ([DRIVER.LEVEL.FAMILY]). Claim a family only when its ops answer; e.g. { "hex-search", 4 }.
    static readonly Dictionary<string, long> Claims = new Dictionary<string, long>
    {
    };

    // ------------------------------------------------------------------------------- ops
    //
    // A handler gets the request's `args` (a Json.Obj) and returns the `ok` payload (a Json.Obj),
    // or null for `unimplemented`. An exception becomes an `error` reply ([DRIVER.MSG.REPLY])
    // and the driver keeps serving. Json.Expect(args, ...) rejects unknown and missing members.
    // Family of each op in brackets ([DRIVER.LEVEL.FAMILY]); types are those of protocol.d.ts.
    static readonly Dictionary<string, Func<Json.Obj, Json.Obj>> Ops = new Dictionary<string, Func<Json.Obj, Json.Obj>>
    {
        // [graph] [DRIVER.OP.RUN_CASE] args RunCaseArgs, ok OkRunCase
        { "run_case", Unimplemented },
        // [graph] [DRIVER.OP.RUN_SLICED] args SlicedArgs, ok OkRunSliced
        { "run_sliced", Unimplemented },
        // [graph] [DRIVER.OP.BUILD_LINKS] args LinkArgs, ok OkBuildLinks
        { "build_links", Unimplemented },
        // [graph] [DRIVER.OP.RUN_HOOKED] args HookedArgs, ok OkRunHooked
        { "run_hooked", Unimplemented },
        // [graph] [DRIVER.OP.RUN_CANCELLED] args CancelArgs, ok OkRunCancelled
        { "run_cancelled", Unimplemented },
        // [graph] [DRIVER.OP.RUN_OPS] args OpsArgs, ok OkRunOps
        { "run_ops", Unimplemented },
        // [graph] [DRIVER.OP.LANDMARKS] args CaseArgs, ok OkBuildLandmarks
        { "build_landmarks", Unimplemented },
        // [graph] [DRIVER.OP.LANDMARKS] args BoundsArgs, ok OkLowerBounds
        { "lower_bounds", Unimplemented },
        // [graph] [DRIVER.OP.LANDMARKS] args OplmArgs, ok OkDeserializeOplm
        { "deserialize_oplm", Unimplemented },
        // [by kind: graph, grids, grid-search, replanning, flow-field] [DRIVER.OP.STATE]
        // args StateRunArgs, ok OkStateRun
        { "state_run", Unimplemented },
        // [grid-search] [DRIVER.OP.RUN_GRID] args GridRunArgs, ok OkRunGrid
        { "run_grid", Unimplemented },
        // [replanning] [DRIVER.OP.RUN_REPLAN] args ReplanRequest, ok OkRunReplan
        { "run_replan", Unimplemented },
        // [flow-field] [DRIVER.OP.RUN_FLOW] args FlowRequest, ok OkRunFlow
        { "run_flow", Unimplemented },
        // [hex-search: args.hex; voxel-search: args.voxel] [DRIVER.OP.RUN_LATTICE]
        // args LatticeRequest, ok OkRunLattice
        { "run_lattice", Unimplemented },
        // [hpa] [DRIVER.OP.RUN_HPA] args HpaRequest, ok OkRunHpa
        { "run_hpa", Unimplemented },
        // [grid-bidi] [DRIVER.OP.RUN_BIDI] args BidiRequest, ok OkRunBidi
        { "run_bidi", Unimplemented },
        // [the target's family] [DRIVER.OP.DESCRIBE] args DescribeRequest, ok OkDescribe
        { "describe", Unimplemented },
        // [grids] [DRIVER.OP.SYNCTEST] args Session, ok OkSynctest
        { "synctest", Unimplemented },
    };

    static Json.Obj Unimplemented(Json.Obj args) { return null; }

    // ---------------------------------------------------------------------------- helpers

    // [DRIVER.ENC.REAL] 16 lowercase hex digits of a binary64 bit pattern <-> double.
    public static double RealOf(string hex)
    {
        if (hex.Length != 16) throw new FormatException("not a real bit pattern: " + hex);
        foreach (char c in hex)
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) throw new FormatException("not a real bit pattern: " + hex);
        return BitConverter.Int64BitsToDouble((long)ulong.Parse(hex, NumberStyles.HexNumber));
    }

    public static string BitsOf(double x)
    {
        return ((ulong)BitConverter.DoubleToInt64Bits(x)).ToString("x16");
    }

    // --------------------------------------------------------------------------- protocol

    static readonly Stream Stdout = Console.OpenStandardOutput();

    // [DRIVER.PROC.LINES] One JSON object per line, UTF-8, flushed.
    static void Send(Json.Obj o)
    {
        var bytes = new UTF8Encoding(false).GetBytes(Json.Write(o) + "\n");
        Stdout.Write(bytes, 0, bytes.Length);
        Stdout.Flush();
    }

    static void Die(string message)
    {
        Console.Error.WriteLine("driver: " + message);
        Environment.Exit(2);
    }

    // [DRIVER.MSG.HELLO] The kit's first line, read strictly; the driver's handshake.
    static void Handshake(string line)
    {
        Json.Obj h = null;
        try
        {
            h = Json.Expect(Json.Parse(line), "handshake", "protocol", "version", "spec_version");
        }
        catch (Exception e) { Die("bad handshake: " + e.Message); }
        if (!(Protocol.Equals(h["protocol"]) && ProtocolVersion.Equals(h["version"]) && SpecVersion.Equals(h["spec_version"])))
            Die("this driver speaks " + Protocol + " " + ProtocolVersion + " for spec " + SpecVersion + ", the kit sent " + line.Trim());
        var claims = new Json.Obj();
        foreach (var kv in Claims) claims.Add(kv.Key, kv.Value);
        var reply = new Json.Obj();
        reply.Add("protocol", Protocol);
        reply.Add("version", ProtocolVersion);
        reply.Add("port", PortName);
        reply.Add("port_version", PortVersion);
        reply.Add("spec_version", SpecVersion);
        reply.Add("claims", claims);
        Send(reply);
    }

    // [DRIVER.MSG.REPLY] Exactly two members: id and one of ok / unimplemented / error.
    static void Reply(long id, string kind, object value)
    {
        var r = new Json.Obj();
        r.Add("id", id);
        r.Add(kind, value);
        Send(r);
    }

    // [DRIVER.MSG.REQUEST] One request, read strictly, dispatched, answered.
    static void Serve(string line)
    {
        object parsed = null;
        try { parsed = Json.Parse(line); }
        catch (Exception e) { Die("unreadable request: " + e.Message); } // no id to answer: the kit sees a crash
        var req = parsed as Json.Obj;
        object idValue = null;
        if (req == null || !req.TryGetValue("id", out idValue) || !(idValue is long) || (long)idValue < 1)
            Die("request without a positive integer id: " + (line.Length > 200 ? line.Substring(0, 200) : line));
        long id = (long)idValue;
        try
        {
            Json.Expect(req, "request " + id, "id", "case", "op", "args");
            if (!(req["case"] is string)) throw new FormatException("case is not a string");
            var op = req["op"] as string;
            if (op == null) throw new FormatException("op is not a string");
            Func<Json.Obj, Json.Obj> handler;
            if (!Ops.TryGetValue(op, out handler))
                throw new FormatException("unknown op \"" + op + "\" (this driver speaks protocol " + ProtocolVersion + ")");
            var args = req["args"] as Json.Obj;
            if (args == null) throw new FormatException("args is not an object");
            var ok = handler(args);
            if (ok == null) Reply(id, "unimplemented", true);
            else Reply(id, "ok", ok);
        }
        catch (Exception e)
        {
            Reply(id, "error", "request " + id + ": " + e.GetType().Name + ": " + e.Message);
        }
    }

    public static int Main()
    {
        var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false, true));
        bool first = true;
        string line;
        while ((line = stdin.ReadLine()) != null) // no line limit: a request can be megabytes
        {
            if (line.Trim().Length == 0) continue;
            if (first) { first = false; Handshake(line); }
            else Serve(line);
        }
        return 0; // end of stdin ([DRIVER.PROC.EOF])
    }
}

// A strict JSON reader and writer: a member twice (at any depth), a trailing character or a
// bad literal is an error; objects keep their member order.
public static class Json
{
    public class Obj : Dictionary<string, object>
    {
        public readonly List<string> Order = new List<string>();
        public new void Add(string key, object value) { base.Add(key, value); Order.Add(key); }
    }

    // Checks that o is an object with exactly the members names ([DRIVER.MSG.STRICT]: the kit
    // sends every member of the schema, and no other).
    public static Obj Expect(object o, string where, params string[] names)
    {
        var obj = o as Obj;
        if (obj == null) throw new FormatException(where + ": not an object");
        foreach (var k in obj.Order)
            if (Array.IndexOf(names, k) < 0) throw new FormatException(where + ": unknown member \"" + k + "\"");
        foreach (var k in names)
            if (!obj.ContainsKey(k)) throw new FormatException(where + ": missing member \"" + k + "\"");
        return obj;
    }

    public static object Parse(string s)
    {
        int i = 0;
        object v = Value(s, ref i);
        Ws(s, ref i);
        if (i != s.Length) throw new FormatException("trailing characters at " + i);
        return v;
    }

    static void Ws(string s, ref int i)
    {
        while (i < s.Length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    }

    static object Value(string s, ref int i)
    {
        Ws(s, ref i);
        if (i >= s.Length) throw new FormatException("unexpected end");
        char c = s[i];
        if (c == '{')
        {
            i++;
            var o = new Obj();
            Ws(s, ref i);
            if (i < s.Length && s[i] == '}') { i++; return o; }
            while (true)
            {
                Ws(s, ref i);
                if (i >= s.Length || s[i] != '"') throw new FormatException("expected a member name at " + i);
                string k = Str(s, ref i);
                if (o.ContainsKey(k)) throw new FormatException("duplicate member \"" + k + "\"");
                Ws(s, ref i);
                if (i >= s.Length || s[i] != ':') throw new FormatException("expected ':' at " + i);
                i++;
                o.Add(k, Value(s, ref i));
                Ws(s, ref i);
                if (i < s.Length && s[i] == ',') { i++; continue; }
                if (i < s.Length && s[i] == '}') { i++; return o; }
                throw new FormatException("expected ',' or '}' at " + i);
            }
        }
        if (c == '[')
        {
            i++;
            var a = new List<object>();
            Ws(s, ref i);
            if (i < s.Length && s[i] == ']') { i++; return a; }
            while (true)
            {
                a.Add(Value(s, ref i));
                Ws(s, ref i);
                if (i < s.Length && s[i] == ',') { i++; continue; }
                if (i < s.Length && s[i] == ']') { i++; return a; }
                throw new FormatException("expected ',' or ']' at " + i);
            }
        }
        if (c == '"') return Str(s, ref i);
        if (string.CompareOrdinal(s, i, "true", 0, 4) == 0) { i += 4; return true; }
        if (string.CompareOrdinal(s, i, "false", 0, 5) == 0) { i += 5; return false; }
        if (string.CompareOrdinal(s, i, "null", 0, 4) == 0) { i += 4; return null; }
        int start = i;
        if (s[i] == '-') i++;
        bool integral = true;
        while (i < s.Length && (char.IsDigit(s[i]) || s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == '+' || s[i] == '-'))
        {
            if (!char.IsDigit(s[i])) integral = false;
            i++;
        }
        string num = s.Substring(start, i - start);
        if (num.Length == 0 || num == "-") throw new FormatException("unexpected character at " + start);
        long l;
        if (integral && long.TryParse(num, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out l)) return l;
        ulong u;
        if (integral && ulong.TryParse(num, NumberStyles.None, CultureInfo.InvariantCulture, out u)) return u;
        return double.Parse(num, NumberStyles.Float, CultureInfo.InvariantCulture);
    }

    static string Str(string s, ref int i)
    {
        var sb = new StringBuilder();
        i++;
        while (true)
        {
            if (i >= s.Length) throw new FormatException("unterminated string");
            char c = s[i++];
            if (c == '"') return sb.ToString();
            if (c < 0x20) throw new FormatException("control character in a string");
            if (c != '\\') { sb.Append(c); continue; }
            if (i >= s.Length) throw new FormatException("unterminated string");
            char e = s[i++];
            switch (e)
            {
                case '"': sb.Append('"'); break;
                case '\\': sb.Append('\\'); break;
                case '/': sb.Append('/'); break;
                case 'b': sb.Append('\b'); break;
                case 'f': sb.Append('\f'); break;
                case 'n': sb.Append('\n'); break;
                case 'r': sb.Append('\r'); break;
                case 't': sb.Append('\t'); break;
                case 'u':
                    if (i + 4 > s.Length) throw new FormatException("bad \\u escape");
                    sb.Append((char)int.Parse(s.Substring(i, 4), NumberStyles.HexNumber));
                    i += 4;
                    break;
                default: throw new FormatException("bad escape");
            }
        }
    }

    public static string Write(object v)
    {
        var sb = new StringBuilder();
        Write(sb, v);
        return sb.ToString();
    }

    static void Write(StringBuilder sb, object v)
    {
        if (v == null) { sb.Append("null"); return; }
        if (v is bool) { sb.Append((bool)v ? "true" : "false"); return; }
        if (v is string) { WriteStr(sb, (string)v); return; }
        if (v is int || v is long || v is uint || v is ulong || v is byte)
        {
            sb.Append(Convert.ToString(v, CultureInfo.InvariantCulture));
            return;
        }
        if (v is double)
        {
            double d = (double)v;
            if (double.IsNaN(d) || double.IsInfinity(d)) throw new ArgumentException("JSON has no NaN or infinity: send reals as bit patterns");
            sb.Append(d.ToString("R", CultureInfo.InvariantCulture));
            return;
        }
        var o = v as Obj;
        if (o != null)
        {
            sb.Append('{');
            for (int k = 0; k < o.Order.Count; k++)
            {
                if (k > 0) sb.Append(',');
                WriteStr(sb, o.Order[k]);
                sb.Append(':');
                Write(sb, o[o.Order[k]]);
            }
            sb.Append('}');
            return;
        }
        var list = v as System.Collections.IEnumerable;
        if (list != null)
        {
            sb.Append('[');
            bool first = true;
            foreach (var x in list)
            {
                if (!first) sb.Append(',');
                first = false;
                Write(sb, x);
            }
            sb.Append(']');
            return;
        }
        throw new ArgumentException("cannot write a " + v.GetType().Name + " as JSON");
    }

    static void WriteStr(StringBuilder sb, string s)
    {
        sb.Append('"');
        foreach (char c in s)
        {
            if (c == '"') sb.Append("\\\"");
            else if (c == '\\') sb.Append("\\\\");
            else if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4"));
            else sb.Append(c);
        }
        sb.Append('"');
    }
}
